//! Enumeration of programs with many answer sets (issue #27): random ground programs with 10^3 to
//! 10^5 answer sets, whose answer sets are counted by an oracle of their own, and `yasmin -n 0`
//! with one search (its models verified in a second thread, and with `--verify-thread=0` in its
//! own) and split across 2 to 8 (with each search's checks aside too, `--verify-thread=2`), `-n K`,
//! and `--project`, must give exactly that
//! count (and, for the smaller ones, exactly those answer sets, each once). The same programs cut
//! into steps of an incremental aspif (issue #29) must have, after each step, the answer sets of
//! the steps so far, and `Models` their sum over the steps, as clasp counts.
//!
//! The programs: choice atoms `p(1..n)`, derived atoms `q(1..m)` in strata (a rule of `q(i)` has
//! positive literals of any `p` and of the `q` of its own stratum or below, positive cycles
//! included, and negative or weight-body literals of the `p` and the lower strata only), and
//! integrity constraints. Each choice of the `p` then has one candidate, the least model stratum
//! by stratum, and it is an answer set unless a constraint rejects it: the oracle counts them
//! over every choice.

#[path = "gen/mod.rs"]
mod r#gen;

use r#gen::Rng;
use std::collections::BTreeSet;
use std::process::Command;

/// A body literal: atom (1-based, `p` first then `q`) and sign; or a weight body.
#[derive(Clone, Debug)]
enum Body {
    Lit(usize, bool),
    /// `bound <= sum of the weights of the true literals`.
    Weight(i64, Vec<(usize, bool, i64)>),
}

struct Program {
    n: usize,
    m: usize,
    /// Each `q`'s stratum.
    stratum: Vec<usize>,
    /// Rules `(head, body)`; head `None` is an integrity constraint.
    rules: Vec<(Option<usize>, Vec<Body>)>,
    /// The `p` projected on (the first `k`).
    project: usize,
    /// An incremental program's steps: each atom's (index 0 unused) and each rule's (the step
    /// of its head, or of a constraint's latest atom). The `p` of a step follow those of the
    /// steps before, and so do its `q`.
    step: Vec<usize>,
    rule_step: Vec<usize>,
}

/// A program of `steps` steps (1: an ordinary one): a rule's atoms come from its head's step or
/// those before, as clasp requires of an incremental program (no atom is defined again).
fn generate(seed: u64, steps: usize) -> Program {
    let mut rng = Rng::new(seed);
    let n = 10 + rng.below(9);
    let m = 3 + rng.below(6);
    let strata = 1 + rng.below(3);
    let stratum: Vec<usize> = (0..m).map(|i| i * strata / m).collect();
    let atoms = n + m;
    let step: Vec<usize> = std::iter::once(0)
        .chain((0..n).map(|i| i * steps / n))
        .chain((0..m).map(|j| j * steps / m))
        .collect();
    let mut rules = Vec::new();
    // A literal that a rule of stratum `s` and step `t` (None: a constraint) may have.
    let lit = |rng: &mut Rng, s: Option<(usize, usize)>, positive_only: bool| -> (usize, bool) {
        loop {
            let a = 1 + rng.below(atoms);
            let pos = positive_only || rng.chance(0.6);
            let ok = match (a > n, s) {
                (_, Some((_, t))) if step[a] > t => false,
                (false, _) | (true, None) => true,
                (true, Some((s, _))) => stratum[a - n - 1] < s || (pos && stratum[a - n - 1] == s),
            };
            if ok {
                return (a, pos);
            }
        }
    };
    for q in 0..m {
        for _ in 0..1 + rng.below(3) {
            let s = Some((stratum[q], step[n + q + 1]));
            let mut body = Vec::new();
            for _ in 0..1 + rng.below(3) {
                let (a, pos) = lit(&mut rng, s, false);
                body.push(Body::Lit(a, pos));
            }
            if rng.chance(0.25) {
                // A weight body over literals of lower strata: negation and weights are fine there.
                let terms: Vec<(usize, bool, i64)> = (0..2 + rng.below(3))
                    .map(|_| {
                        let (a, _) = lit(&mut rng, s, true);
                        // A choice atom of this step or an earlier one in its place (an atom of a
                        // later step would be an earlier step's atom there, false for good).
                        let a = if a > n && stratum[a - n - 1] == stratum[q] {
                            let t = step[n + q + 1];
                            loop {
                                let p = 1 + rng.below(n);
                                if step[p] <= t {
                                    break p;
                                }
                            }
                        } else {
                            a
                        };
                        (a, rng.chance(0.7), 1 + rng.below(3) as i64)
                    })
                    .collect();
                let total: i64 = terms.iter().map(|t| t.2).sum();
                body.push(Body::Weight(1 + rng.below(total as usize) as i64, terms));
            }
            rules.push((Some(n + q + 1), body));
        }
    }
    for _ in 0..rng.below(4) {
        let body =
            (0..2 + rng.below(2)).map(|_| lit(&mut rng, None, false)).map(|(a, p)| Body::Lit(a, p)).collect();
        rules.push((None, body));
    }
    let rule_step = rules
        .iter()
        .map(|(h, body): &(Option<usize>, Vec<Body>)| match h {
            Some(h) => step[*h],
            None => {
                body.iter().map(|b| if let Body::Lit(a, _) = b { step[*a] } else { 0 }).max().unwrap_or(0)
            }
        })
        .collect();
    Program { n, m, stratum, rules, project: 3 + rng.below(n - 3), step, rule_step }
}

impl Program {
    fn holds(&self, body: &[Body], v: &[bool]) -> bool {
        body.iter().all(|b| match b {
            Body::Lit(a, pos) => v[*a] == *pos,
            Body::Weight(bound, terms) => {
                terms.iter().filter(|(a, pos, _)| v[*a] == *pos).map(|t| t.2).sum::<i64>() >= *bound
            }
        })
    }

    /// The answer set after step `k` of the choice `bits` of the `p` (of steps up to `k`), if
    /// any: values indexed by atom.
    fn answer_set(&self, bits: u64, k: usize) -> Option<Vec<bool>> {
        let mut v = vec![false; self.n + self.m + 1];
        for i in 0..self.n {
            v[i + 1] = bits >> i & 1 == 1 && self.step[i + 1] <= k;
        }
        let strata = self.stratum.iter().max().map_or(0, |s| s + 1);
        let rules: Vec<_> =
            self.rules.iter().zip(&self.rule_step).filter(|(_, t)| **t <= k).map(|(r, _)| r).collect();
        for s in 0..strata {
            loop {
                let mut changed = false;
                for (h, body) in &rules {
                    if let Some(h) = *h
                        && self.stratum[h - self.n - 1] == s
                        && !v[h]
                        && self.holds(body, &v)
                    {
                        v[h] = true;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
        }
        let rejected = rules.iter().any(|(h, body)| h.is_none() && self.holds(body, &v));
        (!rejected).then_some(v)
    }

    fn name(&self, a: usize) -> String {
        if a <= self.n { format!("p({a})") } else { format!("q({})", a - self.n) }
    }

    /// The answer sets after step `k` (as sorted names) and the projections' count.
    fn oracle(&self, k: usize) -> (Vec<BTreeSet<String>>, usize) {
        let mut sets = Vec::new();
        let mut projections = BTreeSet::new();
        let n = (1..=self.n).filter(|&a| self.step[a] <= k).count();
        for bits in 0..1u64 << n {
            if let Some(v) = self.answer_set(bits, k) {
                sets.push((1..v.len()).filter(|&a| v[a]).map(|a| self.name(a)).collect());
                projections.insert(bits & ((1 << self.project) - 1));
            }
        }
        (sets, projections.len())
    }

    /// The program in aspif, a step of its own for each step (`incremental` where there are
    /// several). Atoms are numbered step by step, each step's after every earlier step's: clasp
    /// takes every number up to the largest an earlier step used as an atom of that step (false
    /// for good unless defined there), so a new atom needs a larger number.
    fn aspif(&self) -> String {
        let steps = self.step.iter().max().map_or(1, |t| t + 1);
        let mut s = String::from(if steps > 1 { "asp 1 0 0 incremental\n" } else { "asp 1 0 0\n" });
        let mut id = vec![0usize; self.n + self.m + 1];
        let mut next = 0;
        let number = |next: &mut usize| {
            *next += 1;
            *next
        };
        for k in 0..steps {
            for a in (1..=self.n + self.m).filter(|&a| self.step[a] == k) {
                id[a] = number(&mut next);
            }
            let ps: Vec<String> =
                (1..=self.n).filter(|&a| self.step[a] == k).map(|a| id[a].to_string()).collect();
            if !ps.is_empty() {
                s += &format!("1 1 {} {} 0 0\n", ps.len(), ps.join(" "));
            }
            let lit = |a: usize, pos: bool| if pos { id[a] as i64 } else { -(id[a] as i64) };
            for ((h, body), _) in self.rules.iter().zip(&self.rule_step).filter(|(_, t)| **t == k) {
                let head = h.map_or("1 0 0".to_string(), |h| format!("1 0 1 {}", id[h]));
                let mut plain = Vec::new();
                for b in body {
                    match b {
                        Body::Lit(a, pos) => plain.push(lit(*a, *pos)),
                        Body::Weight(bound, terms) => {
                            // A weight body beside plain literals: an auxiliary atom for it.
                            let aux = number(&mut next);
                            let t: Vec<String> =
                                terms.iter().map(|(a, p, w)| format!("{} {w}", lit(*a, *p))).collect();
                            s += &format!("1 0 1 {aux} 1 {bound} {} {}\n", terms.len(), t.join(" "));
                            plain.push(aux as i64);
                        }
                    }
                }
                let b: Vec<String> = plain.iter().map(i64::to_string).collect();
                s += &format!("{head} 0 {} {}\n", b.len(), b.join(" "));
            }
            for a in (1..=self.n + self.m).filter(|&a| self.step[a] == k) {
                let name = self.name(a);
                s += &format!("4 {} {name} 1 {}\n", name.len(), id[a]);
            }
            s += "0\n";
        }
        s
    }
}

/// `yasmin ARGS FILE`: the count after `Models :`, whether it is exact (no `+`), and the answer
/// sets printed.
fn run(file: &std::path::Path, args: &[&str]) -> (usize, bool, Vec<BTreeSet<String>>) {
    let out = Command::new(env!("CARGO_BIN_EXE_yasmin")).args(args).arg(file).output().expect("yasmin runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(matches!(out.status.code(), Some(10 | 20 | 30)), "yasmin {args:?}: {:?}\n{text}", out.status);
    let mut sets = Vec::new();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        if l.starts_with("Answer:") {
            sets.push(lines.next().unwrap_or("").split_whitespace().map(str::to_string).collect());
        }
    }
    let models = text.lines().find_map(|l| l.strip_prefix("Models")).expect("a Models line");
    let count = models.trim_start_matches([' ', ':']).trim();
    let exact = !count.ends_with('+');
    (count.trim_end_matches('+').parse().expect("a count"), exact, sets)
}

#[test]
fn enumeration_counts_every_answer_set_once() {
    let dir = std::env::temp_dir().join(format!("yasmin-many-models-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let programs = std::env::var("YASMIN_MANY_PROGRAMS").ok().and_then(|s| s.parse().ok()).unwrap_or(24u64);
    // A debug build (its invariants checked at every step) takes the programs with at most
    // 10,000 answer sets only.
    let most = if cfg!(debug_assertions) { 10_000 } else { usize::MAX };
    let (mut skipped, mut run_programs) = (0, 0);
    let (mut total, mut biggest) = (0, 0);
    for seed in 0..programs {
        let p = generate(seed, 1);
        let (mut expected, projections) = p.oracle(0);
        if expected.len() > most {
            skipped += 1;
            continue;
        }
        run_programs += 1;
        expected.sort();
        let file = dir.join("p.aspif");
        std::fs::write(&file, p.aspif()).unwrap();
        let k = expected.len() / 3 + 1;
        let k_arg = k.to_string();
        for args in [
            vec!["-q", "-n", "0"],
            vec!["-q", "-n", "0", "--verify-thread=0"],
            vec!["-q", "-n", "0", "-t", "2,split"],
            vec!["-q", "-n", "0", "-t", "8,split"],
            vec!["-q", "-n", "0", "-t", "4,split", "--verify-thread=2"],
            vec!["-q", "-n", "0", "--enum-mode=record"],
        ] {
            let (count, exact, _) = run(&file, &args);
            assert_eq!(
                (count, exact),
                (expected.len(), true),
                "seed {seed}, yasmin {args:?}:\n{}",
                p.aspif()
            );
        }
        for extra in
            [&[][..], &["--verify-thread=0"], &["-t", "4,split"], &["-t", "3,split", "--verify-thread=2"]]
        {
            let (count, _, _) = run(&file, &[&["-q", "-n", &k_arg][..], extra].concat());
            assert_eq!(count, k.min(expected.len()), "seed {seed}, -n {k} {extra:?}");
        }
        // Projection onto the first p: a #project statement per projected atom.
        let projected = dir.join("proj.aspif");
        let text = p.aspif();
        let extra: String = (1..=p.project).map(|a| format!("3 1 {a}\n")).collect();
        std::fs::write(&projected, text.replacen("\n0\n", &format!("\n{extra}0\n"), 1)).unwrap();
        for args in [
            vec!["-q", "-n", "0", "--project"],
            vec!["-q", "-n", "0", "--project", "--verify-thread=0"],
            vec!["-q", "-n", "0", "--project", "-t", "4,split"],
        ] {
            let (count, exact, _) = run(&projected, &args);
            assert_eq!((count, exact), (projections, true), "seed {seed}, yasmin {args:?} (projection)");
        }
        // The smaller ones: every answer set exactly once, one search and split.
        if expected.len() <= 5000 {
            for args in
                [vec!["-n", "0"], vec!["-n", "0", "--verify-thread=0"], vec!["-n", "0", "-t", "3,split"]]
            {
                let (_, _, mut got) = run(&file, &args);
                got.sort();
                assert_eq!(got.len(), expected.len(), "seed {seed}, yasmin {args:?}: duplicates or losses");
                assert!(got == expected, "seed {seed}, yasmin {args:?}: other answer sets");
            }
        }
        total += expected.len();
        biggest = biggest.max(expected.len());
    }
    eprintln!(
        "{run_programs} programs, {total} answer sets (at most {biggest} in one), counted exactly; {skipped} left out"
    );
    assert!(
        biggest >= 1000 && run_programs >= programs / 3,
        "{run_programs} programs, at most {biggest} answer sets"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An answer set's line: its atoms, sorted.
fn set_of(line: &str) -> BTreeSet<String> {
    line.split_whitespace().map(str::to_string).collect()
}

/// Incremental programs (issue #29): after each step, exactly the answer sets of the steps so far,
/// each once; `Models` counts them over all steps, as clasp does.
#[test]
fn each_step_of_an_incremental_program_has_its_answer_sets() {
    let dir = std::env::temp_dir().join(format!("yasmin-steps-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("steps.aspif");
    let mut checked = 0;
    for seed in 0..80u64 {
        let steps = 2 + seed as usize % 2;
        let p = generate(1000 + seed, steps);
        let expected: Vec<Vec<BTreeSet<String>>> = (0..steps)
            .map(|k| {
                let mut v = p.oracle(k).0;
                v.sort();
                v
            })
            .collect();
        // Small enough to print every answer set of every step (in a debug build, smaller).
        let most = if cfg!(debug_assertions) { 3_000 } else { 20_000 };
        if expected.iter().map(Vec::len).sum::<usize>() > most {
            continue;
        }
        std::fs::write(&file, p.aspif()).unwrap();
        for args in [vec!["-n", "0"], vec!["-n", "0", "-t", "3,split"]] {
            let out = Command::new(env!("CARGO_BIN_EXE_yasmin"))
                .args(&args)
                .arg(&file)
                .output()
                .expect("yasmin runs");
            let text = String::from_utf8_lossy(&out.stdout);
            let mut got: Vec<Vec<BTreeSet<String>>> = Vec::new();
            let mut lines = text.lines();
            while let Some(l) = lines.next() {
                if l == "Solving..." {
                    got.push(Vec::new());
                } else if l.starts_with("Answer:") {
                    got.last_mut().expect("a step").push(set_of(lines.next().unwrap_or("")));
                }
            }
            got.iter_mut().for_each(|v| v.sort());
            // After a step without answer sets the later ones are read, not solved (clasp's way).
            let solved = expected.iter().position(Vec::is_empty).map_or(steps, |k| k + 1);
            assert_eq!(got, expected[..solved], "seed {seed}, yasmin {args:?}:\n{}", p.aspif());
            let total: usize = expected.iter().map(Vec::len).sum();
            let models = text.lines().find_map(|l| l.strip_prefix("Models")).expect("a Models line");
            assert_eq!(
                models.trim_start_matches([' ', ':']).trim(),
                total.to_string(),
                "seed {seed}, {args:?}"
            );
            assert!(
                matches!(out.status.code(), Some(10 | 20 | 30)),
                "seed {seed}, {args:?}: {:?}",
                out.status
            );
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked} runs checked");
    let _ = std::fs::remove_dir_all(&dir);
}
