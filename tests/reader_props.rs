//! Property tests of the readers: random bytes, token soups and mutations of valid programs must
//! be accepted or rejected quickly and without a panic; whatever is accepted must satisfy the
//! program's invariants and survive a round trip through the aspif writer unchanged.

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, TestCaseError};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use yasmin::input::read_program;
use yasmin::program::Program;
use yasmin::writer::to_aspif;

/// Longest time one small input may take to read (generous: release reads these in microseconds).
const READ_LIMIT: Duration = Duration::from_millis(500);

fn config(cases: u32) -> Config {
    // No regression files: this test writes nothing into the source tree.
    Config { cases, failure_persistence: None, ..Config::default() }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Reads `input`; on success checks the invariants and the aspif round trip.
fn check(input: &[u8]) -> Result<(), TestCaseError> {
    let start = Instant::now();
    let res = read_program(input);
    let took = start.elapsed();
    prop_assert!(took < READ_LIMIT, "reading took {took:?}: {:?}", lossy(input));
    let program = match res {
        Err(e) => {
            let lines = input.iter().filter(|&&b| b == b'\n').count() + 1;
            prop_assert!(e.line >= 1 && e.line <= lines, "error line {} of {lines}: {e}", e.line);
            prop_assert!(e.column >= 1, "{e}");
            prop_assert!(!e.message.is_empty());
            return Ok(());
        }
        Ok(p) => p,
    };
    program.check_invariants().map_err(|e| TestCaseError::fail(format!("{e}: {:?}", lossy(input))))?;
    round_trip(&program, input)
}

fn round_trip(p: &Program, input: &[u8]) -> Result<(), TestCaseError> {
    let asp = to_aspif(p).map_err(TestCaseError::fail)?;
    let mut q = read_program(&asp).map_err(|e| {
        TestCaseError::fail(format!(
            "rewritten aspif unreadable: {e}\ninput: {:?}\naspif: {:?}",
            lossy(input),
            lossy(&asp)
        ))
    })?;
    q.check_invariants().map_err(TestCaseError::fail)?;
    // aspif has no model count (smodels' last line); everything else must be kept.
    prop_assert_eq!(q.requested_models, None);
    q.requested_models = p.requested_models;
    if p.steps == 1 {
        prop_assert_eq!(&q, p, "round trip differs for {:?}", lossy(input));
    } else {
        // The writer emits all steps as one; the statements must still come back unchanged.
        prop_assert_eq!(q.steps, 1);
        prop_assert_eq!(q.atom_count(), p.atom_count());
        prop_assert_eq!(q.rules().collect::<Vec<_>>(), p.rules().collect::<Vec<_>>());
        prop_assert_eq!(q.statements().collect::<Vec<_>>(), p.statements().collect::<Vec<_>>());
    }
    let again = to_aspif(&q).map_err(TestCaseError::fail)?;
    prop_assert_eq!(lossy(&again), lossy(&asp), "writing is not a fixpoint");
    Ok(())
}

/// Valid programs to mutate: the instances and the smaller conformance programs.
fn seeds() -> &'static [Vec<u8>] {
    static SEEDS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        let mut add_dir = |dir: PathBuf, max_len: u64| {
            let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
            paths.sort();
            for p in paths {
                let ext = p.extension().and_then(|x| x.to_str()).unwrap_or("");
                if (ext == "aspif" || ext == "smodels") && std::fs::metadata(&p).unwrap().len() <= max_len {
                    files.push(std::fs::read(&p).unwrap());
                }
            }
        };
        add_dir(root.join("instances"), 20_000);
        for family in ["tight", "nontight", "aggregates"] {
            add_dir(root.join("tests/conformance").join(family), 1_500);
        }
        assert!(files.len() >= 20, "too few seed programs: {}", files.len());
        for f in &files {
            read_program(f).unwrap_or_else(|e| panic!("seed does not read: {e}"));
        }
        files
    })
}

/// Numbers a reader must range-check: the edges of i32, u32 and i64, and beyond.
const EXTREMES: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "268435454",
    "2147483647",
    "2147483648",
    "-2147483647",
    "-2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "99999999999999999999999999",
    "+1",
    "00",
    "1e3",
    "",
];

#[derive(Clone, Debug)]
enum Mutation {
    SetByte(Index, u8),
    FlipBit(Index, u8),
    Delete(Index, usize),
    Insert(Index, Vec<u8>),
    DuplicateLine(Index),
    DeleteLine(Index),
    SwapLines(Index, Index),
    ReplaceNumber(Index, String),
    Truncate(Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let ws = prop::sample::select(vec![b' ', b'\n', b'\t', b'\r', b'0', b'1', b'-', b'9']);
    prop_oneof![
        (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::SetByte(i, b)),
        (any::<Index>(), 0u8..8).prop_map(|(i, b)| Mutation::FlipBit(i, b)),
        (any::<Index>(), 1usize..16).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (any::<Index>(), prop::collection::vec(prop_oneof![any::<u8>(), ws], 1..8))
            .prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<Index>().prop_map(Mutation::DuplicateLine),
        any::<Index>().prop_map(Mutation::DeleteLine),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (any::<Index>(), prop::sample::select(EXTREMES))
            .prop_map(|(i, v)| Mutation::ReplaceNumber(i, v.into())),
        (any::<Index>(), 0u8..6).prop_map(|(i, v)| Mutation::ReplaceNumber(i, v.to_string())),
        any::<Index>().prop_map(Mutation::Truncate),
    ]
}

/// Byte ranges of the lines (with their newline) of `b`.
fn lines(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        if c == b'\n' {
            out.push((start, i + 1));
            start = i + 1;
        }
    }
    if start < b.len() {
        out.push((start, b.len()));
    }
    out
}

fn apply(b: &mut Vec<u8>, m: &Mutation) {
    match m {
        Mutation::SetByte(i, v) if !b.is_empty() => {
            let i = i.index(b.len());
            b[i] = *v;
        }
        Mutation::FlipBit(i, bit) if !b.is_empty() => {
            let i = i.index(b.len());
            b[i] ^= 1 << bit;
        }
        Mutation::Delete(i, n) if !b.is_empty() => {
            let i = i.index(b.len());
            let end = (i + n).min(b.len());
            b.drain(i..end);
        }
        Mutation::Insert(i, bytes) => {
            let i = i.index(b.len() + 1);
            b.splice(i..i, bytes.iter().copied());
        }
        Mutation::DuplicateLine(i) => {
            let ls = lines(b);
            if !ls.is_empty() {
                let (s, e) = ls[i.index(ls.len())];
                let line = b[s..e].to_vec();
                b.splice(e..e, line);
            }
        }
        Mutation::DeleteLine(i) => {
            let ls = lines(b);
            if !ls.is_empty() {
                let (s, e) = ls[i.index(ls.len())];
                b.drain(s..e);
            }
        }
        Mutation::SwapLines(x, y) => {
            let ls = lines(b);
            if ls.len() >= 2 {
                let (a, c) = (x.index(ls.len()), y.index(ls.len()));
                let (a, c) = (a.min(c), a.max(c));
                if a != c {
                    let mut ls_bytes: Vec<Vec<u8>> = ls.iter().map(|&(s, e)| b[s..e].to_vec()).collect();
                    ls_bytes.swap(a, c);
                    // Keep every line terminated so that the swap moves whole lines.
                    for l in ls_bytes.iter_mut() {
                        if l.last() != Some(&b'\n') {
                            l.push(b'\n');
                        }
                    }
                    *b = ls_bytes.concat();
                }
            }
        }
        Mutation::ReplaceNumber(i, v) => {
            // The numeric tokens: maximal runs of digits and '-'.
            let mut toks = Vec::new();
            let mut j = 0;
            while j < b.len() {
                if b[j].is_ascii_digit() || b[j] == b'-' {
                    let s = j;
                    while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'-') {
                        j += 1;
                    }
                    toks.push((s, j));
                } else {
                    j += 1;
                }
            }
            if !toks.is_empty() {
                let (s, e) = toks[i.index(toks.len())];
                b.splice(s..e, v.bytes());
            }
        }
        Mutation::Truncate(i) => {
            let n = i.index(b.len() + 1);
            b.truncate(n);
        }
        _ => {}
    }
}

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (-3i64..12).prop_map(|n| n.to_string()),
        3 => Just("\n".to_string()),
        1 => prop::sample::select(EXTREMES).prop_map(str::to_string),
        1 => prop::sample::select(vec!["asp", "B+", "B-", "E", "a", "x1", "incremental", "\t", "\r\n", "  "])
            .prop_map(str::to_string),
    ]
}

/// Joins tokens with single blanks, except around newlines.
fn soup(tokens: &[String]) -> String {
    let mut s = String::new();
    for t in tokens {
        if !s.is_empty() && !s.ends_with('\n') && !t.starts_with('\n') && !t.starts_with('\r') {
            s.push(' ');
        }
        s.push_str(t);
    }
    s
}

/// An aspif statement of a random type with small random arguments: mostly well formed, so that
/// many generated programs get past the reader and into the round trip.
fn aspif_statement() -> impl Strategy<Value = String> {
    let lit = prop_oneof![(1i32..6), (-5i32..0)];
    let lits = prop::collection::vec(lit.clone(), 0..4);
    let wlits = prop::collection::vec((lit.clone(), 0i32..4), 0..4);
    let atoms = prop::collection::vec(1u32..6, 0..3);
    let list = |v: &[String]| format!("{} {}", v.len(), v.join(" "));
    let l2s = |v: Vec<i32>| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    prop_oneof![
        (0u8..2, atoms.clone(), lits.clone()).prop_map(move |(h, a, b)| {
            let a: Vec<String> = a.iter().map(|x| x.to_string()).collect();
            format!("1 {h} {} 0 {}", list(&a), list(&l2s(b)))
        }),
        (0u8..2, atoms.clone(), -1i32..4, wlits.clone()).prop_map(move |(h, a, lb, w)| {
            let a: Vec<String> = a.iter().map(|x| x.to_string()).collect();
            let w: Vec<String> = w.iter().map(|(l, w)| format!("{l} {w}")).collect();
            format!("1 {h} {} 1 {lb} {}", list(&a), list(&w))
        }),
        (-2i32..3, prop::collection::vec((lit.clone(), -3i32..4), 0..4)).prop_map(move |(p, w)| {
            let w: Vec<String> = w.iter().map(|(l, w)| format!("{l} {w}")).collect();
            format!("2 {p} {}", list(&w))
        }),
        atoms.clone().prop_map(move |a| {
            let a: Vec<String> = a.iter().map(|x| x.to_string()).collect();
            format!("3 {}", list(&a))
        }),
        ("[a-z() ]{0,4}", lits.clone()).prop_map(move |(s, c)| format!(
            "4 {} {s} {}",
            s.len(),
            list(&l2s(c))
        )),
        (1u32..6, 0u8..4).prop_map(|(a, v)| format!("5 {a} {v}")),
        lits.clone().prop_map(move |c| format!("6 {}", list(&l2s(c)))),
        (0u8..6, 1u32..6, -2i32..3, 0u32..3, lits.clone())
            .prop_map(move |(m, a, b, p, c)| format!("7 {m} {a} {b} {p} {}", list(&l2s(c)))),
        (0i32..3, 0i32..3, lits.clone()).prop_map(move |(u, v, c)| format!("8 {u} {v} {}", list(&l2s(c)))),
        prop_oneof![
            (0u32..3, -2i32..3).prop_map(|(u, w)| format!("9 0 {u} {w}")),
            (0u32..3, "[a-z+]{1,3}").prop_map(|(u, s)| format!("9 1 {u} {} {s}", s.len())),
            (0u32..3, -3i32..3, prop::collection::vec(0u32..3, 0..3)).prop_map(|(u, f, a)| {
                let a: Vec<String> = a.iter().map(|x| x.to_string()).collect();
                format!("9 2 {u} {f} {} {}", a.len(), a.join(" "))
            }),
            (0u32..3, prop::collection::vec(0u32..3, 0..3), lits.clone()).prop_map(move |(u, t, c)| {
                let t: Vec<String> = t.iter().map(|x| x.to_string()).collect();
                format!("9 4 {u} {} {}", list(&t), list(&l2s(c)))
            }),
            (0u32..4, 0u32..3, prop::collection::vec(0u32..3, 0..3), prop::option::of((0u32..3, 0u32..3)))
                .prop_map(|(a, t, e, g)| {
                    let e: Vec<String> = e.iter().map(|x| x.to_string()).collect();
                    match g {
                        None => format!("9 5 {a} {t} {} {}", e.len(), e.join(" ")),
                        Some((g, u)) => format!("9 6 {a} {t} {} {} {g} {u}", e.len(), e.join(" ")),
                    }
                }),
        ],
        "[ a-z0-9]{0,10}".prop_map(|s| format!("10{s}")),
    ]
}

/// A program of aspif statements in one or more steps, with an optional bad step count.
fn aspif_program() -> impl Strategy<Value = String> {
    (any::<bool>(), prop::collection::vec(prop::collection::vec(aspif_statement(), 0..8), 1..4)).prop_map(
        |(incremental, steps)| {
            let mut s = String::from(if incremental { "asp 1 0 0 incremental\n" } else { "asp 1 0 0\n" });
            for step in steps {
                for st in step {
                    s.push_str(&st);
                    s.push('\n');
                }
                s.push_str("0\n");
            }
            s
        },
    )
}

/// A smodels program with random rules of every type, symbols and compute sections.
fn smodels_program() -> impl Strategy<Value = String> {
    let atom = 1u32..7;
    let body = (prop::collection::vec(atom.clone(), 0..4), 0usize..4).prop_map(|(a, neg)| {
        let neg = neg.min(a.len());
        let a: Vec<String> = a.iter().map(|x| x.to_string()).collect();
        (format!("{} {} {}", a.len(), neg, a.join(" ")), a.len())
    });
    let rule = prop_oneof![
        (atom.clone(), body.clone()).prop_map(|(h, (b, _))| format!("1 {h} {b}")),
        (atom.clone(), body.clone(), 0u32..3).prop_map(|(h, (b, _), k)| {
            let mut parts: Vec<&str> = b.splitn(3, ' ').collect();
            // 2 head n neg bound lits...: the bound goes after n and neg.
            let rest = if parts.len() == 3 { parts.pop().unwrap() } else { "" };
            format!("2 {h} {} {} {k} {rest}", parts[0], parts[1])
        }),
        (prop::collection::vec(atom.clone(), 1..3), body.clone()).prop_map(|(hs, (b, _))| {
            let h: Vec<String> = hs.iter().map(|x| x.to_string()).collect();
            format!("3 {} {} {b}", h.len(), h.join(" "))
        }),
        (atom.clone(), 0u32..4, body.clone(), prop::collection::vec(0u32..4, 4)).prop_map(
            |(h, k, (b, n), ws)| {
                let w: Vec<String> = ws[..n].iter().map(|x| x.to_string()).collect();
                format!("5 {h} {k} {b} {}", w.join(" "))
            }
        ),
        (body.clone(), prop::collection::vec(0u32..4, 4)).prop_map(|((b, n), ws)| {
            let w: Vec<String> = ws[..n].iter().map(|x| x.to_string()).collect();
            format!("6 0 {b} {}", w.join(" "))
        }),
        (prop::collection::vec(atom.clone(), 1..3), body.clone()).prop_map(|(hs, (b, _))| {
            let h: Vec<String> = hs.iter().map(|x| x.to_string()).collect();
            format!("8 {} {} {b}", h.len(), h.join(" "))
        }),
    ];
    (
        prop::collection::vec(rule, 0..8),
        prop::collection::vec((atom.clone(), "[a-z][a-z0-9(),]{0,5}"), 0..4),
        prop::collection::vec(atom.clone(), 0..2),
        prop::collection::vec(atom.clone(), 0..2),
        prop::option::of(prop::collection::vec(atom.clone(), 0..2)),
        0u32..3,
    )
        .prop_map(|(rules, syms, bp, bm, ext, n)| {
            let mut s = String::new();
            for r in rules {
                s.push_str(r.trim_end());
                s.push('\n');
            }
            s.push_str("0\n");
            for (a, name) in syms {
                s.push_str(&format!("{a} {name}\n"));
            }
            s.push_str("0\nB+\n");
            bp.iter().for_each(|a| s.push_str(&format!("{a}\n")));
            s.push_str("0\nB-\n");
            bm.iter().for_each(|a| s.push_str(&format!("{a}\n")));
            s.push_str("0\n");
            if let Some(e) = ext {
                s.push_str("E\n");
                e.iter().for_each(|a| s.push_str(&format!("{a}\n")));
                s.push_str("0\n");
            }
            s.push_str(&format!("{n}\n"));
            s
        })
}

proptest! {
    #![proptest_config(config(25_000))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        check(&bytes)?;
    }

    #[test]
    fn random_bytes_after_an_aspif_header_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let mut input = b"asp 1 0 0\n".to_vec();
        input.extend_from_slice(&bytes);
        check(&input)?;
    }

    #[test]
    fn token_soups_never_panic(
        header in prop::sample::select(vec!["", "asp 1 0 0\n", "asp 1 0 0 incremental\n", "90 0\n"]),
        tokens in prop::collection::vec(token(), 0..120),
    ) {
        let input = format!("{header}{}", soup(&tokens));
        check(input.as_bytes())?;
    }
}

proptest! {
    #![proptest_config(config(15_000))]

    #[test]
    fn generated_aspif_programs_read_or_fail_cleanly(
        program in aspif_program(),
        mutations in prop::collection::vec(mutation(), 0..3),
    ) {
        let mut input = program.into_bytes();
        for m in &mutations {
            apply(&mut input, m);
        }
        check(&input)?;
    }

    #[test]
    fn generated_smodels_programs_read_or_fail_cleanly(
        program in smodels_program(),
        mutations in prop::collection::vec(mutation(), 0..3),
    ) {
        let mut input = program.into_bytes();
        for m in &mutations {
            apply(&mut input, m);
        }
        check(&input)?;
    }
}

proptest! {
    #![proptest_config(config(15_000))]

    #[test]
    fn mutated_valid_programs_read_or_fail_cleanly(
        seed in any::<Index>(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let seeds = seeds();
        let mut input = seeds[seed.index(seeds.len())].clone();
        for m in &mutations {
            apply(&mut input, m);
        }
        check(&input)?;
    }
}

#[test]
fn valid_seeds_round_trip() {
    for s in seeds() {
        check(s).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// The generators above must actually reach the round trip, or the properties would test little:
/// a fixed sample of each must contain accepted programs (and rejected ones).
#[test]
fn generators_produce_accepted_and_rejected_inputs() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut count = |strategy: &dyn Fn(&mut TestRunner) -> Vec<u8>| {
        let mut ok = 0;
        for _ in 0..300 {
            let input = strategy(&mut runner);
            ok += usize::from(read_program(&input).is_ok());
        }
        ok
    };
    let aspif = count(&|r| aspif_program().new_tree(r).unwrap().current().into_bytes());
    let smodels = count(&|r| smodels_program().new_tree(r).unwrap().current().into_bytes());
    let mutated = count(&|r| {
        let (seed, ms) =
            (any::<Index>(), prop::collection::vec(mutation(), 1..4)).new_tree(r).unwrap().current();
        let mut input = seeds()[seed.index(seeds().len())].clone();
        ms.iter().for_each(|m| apply(&mut input, m));
        input
    });
    eprintln!("accepted of 300: aspif {aspif}, smodels {smodels}, mutated {mutated}");
    for (name, ok) in [("aspif", aspif), ("smodels", smodels), ("mutated", mutated)] {
        assert!(ok >= 20, "{name}: only {ok} of 300 generated inputs accepted");
    }
    assert!(mutated <= 270, "mutations hardly ever break a program: {mutated} of 300 accepted");
}
