//! Symmetry breaking (`--symmetry=lex`): programs made of interchangeable copies keep their
//! answer (satisfiable or not, the optimum), enumerations keep every answer set, and the
//! pigeonhole principle, exponential for resolution, is proved in a few conflicts.
//!
//! The programs: a random base program (choices, normal rules, constraints over a few atoms)
//! copied two or three times, the copies' atoms numbered side by side or one copy after the
//! other, tied together by constraints that treat every copy alike (at most one copy has an
//! atom, at least one has another), with a minimize statement weighing each copy's atoms as the
//! base does.

#[path = "gen/mod.rs"]
mod r#gen;

use r#gen::Rng;
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs yasmin on an aspif text: its status line, optimum (if any) and the figures of --stats.
fn run(aspif: &str, args: &[&str]) -> (String, Option<i64>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yasmin"))
        .args(args)
        .args(["-q", "--stats"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("yasmin runs");
    child.stdin.take().expect("stdin").write_all(aspif.as_bytes()).expect("written");
    let out = child.wait_with_output().expect("yasmin ends");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let status = text
        .lines()
        .find(|l| ["SATISFIABLE", "UNSATISFIABLE", "OPTIMUM FOUND", "UNKNOWN"].contains(&l.trim()))
        .unwrap_or_else(|| panic!("no status in {text}"))
        .to_string();
    let optimum = text
        .lines()
        .find_map(|l| l.strip_prefix("Optimization :"))
        .map(|v| v.trim().parse().expect("a cost"));
    (status, optimum, text)
}

fn figure(text: &str, label: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        l.strip_prefix(label)?.trim().strip_prefix(':')?.split_whitespace().next()?.parse().ok()
    })
}

/// `holes + 1` pigeons in `holes` holes: each pigeon in one hole, no two in one.
fn pigeonhole(pigeons: u32, holes: u32) -> String {
    let at = |p: u32, h: u32| (p - 1) * holes + h;
    let mut s = String::from("asp 1 0 0\n");
    for p in 1..=pigeons {
        let heads: Vec<String> = (1..=holes).map(|h| at(p, h).to_string()).collect();
        s += &format!("1 1 {} {} 0 0\n", holes, heads.join(" "));
        let none: Vec<String> = (1..=holes).map(|h| format!("-{}", at(p, h))).collect();
        s += &format!("1 0 0 0 {} {}\n", holes, none.join(" "));
        for h in 1..=holes {
            for k in h + 1..=holes {
                s += &format!("1 0 0 0 2 {} {}\n", at(p, h), at(p, k));
            }
        }
    }
    for h in 1..=holes {
        for p in 1..=pigeons {
            for q in p + 1..=pigeons {
                s += &format!("1 0 0 0 2 {} {}\n", at(p, h), at(q, h));
            }
        }
    }
    s + "0\n"
}

#[test]
fn the_pigeonhole_principle_is_proved_in_a_few_conflicts() {
    let p = pigeonhole(9, 8);
    let (status, _, text) = run(&p, &["--symmetry=lex"]);
    assert_eq!(status, "UNSATISFIABLE");
    let conflicts = figure(&text, "Conflicts").expect("conflicts");
    assert!(figure(&text, "Symmetries").is_some_and(|g| g > 0), "{text}");
    let (status, _, plain) = run(&p, &["--symmetry=no"]);
    assert_eq!(status, "UNSATISFIABLE");
    assert!(figure(&plain, "Symmetries").is_none());
    let without = figure(&plain, "Conflicts").expect("conflicts");
    assert!(conflicts < 1_000 && conflicts * 10 < without, "{conflicts} conflicts against {without}");
    // As many pigeons as holes: a model, checked before it is printed.
    assert_eq!(run(&pigeonhole(8, 8), &["--symmetry=lex"]).0, "SATISFIABLE");
}

/// A base rule: its head (none: a constraint), whether a choice, its body's atoms and signs.
type Rule = (Option<usize>, bool, Vec<(usize, bool)>);

/// A base program over `m` atoms in `copies` copies (see the module's comment).
fn copies(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let m = 3 + rng.below(4);
    let c = 2 + rng.below(2);
    let side_by_side = rng.chance(0.5);
    let atom = |i: usize, k: usize| if side_by_side { i * c + k + 1 } else { k * m + i + 1 };
    let lit = |i: usize, pos: bool, k: usize| if pos { atom(i, k) as i64 } else { -(atom(i, k) as i64) };
    let mut base: Vec<Rule> = Vec::new();
    for i in 0..m {
        if rng.chance(0.6) {
            base.push((Some(i), true, Vec::new()));
        }
    }
    for _ in 0..m + rng.below(m) {
        let body: Vec<(usize, bool)> =
            (0..1 + rng.below(2)).map(|_| (rng.below(m), rng.chance(0.6))).collect();
        let head = if rng.chance(0.7) { Some(rng.below(m)) } else { None };
        base.push((head, false, body));
    }
    let weights: Vec<i64> = (0..m).map(|_| rng.range(0, 3)).collect();
    let (once, some) = (rng.below(m), rng.below(m));
    let mut s = String::from("asp 1 0 0\n");
    for k in 0..c {
        for (head, choice, body) in &base {
            let mut t: Vec<i64> = vec![1, i64::from(*choice), i64::from(head.is_some())];
            t.extend(head.iter().map(|&i| atom(i, k) as i64));
            t.extend([0, body.len() as i64]);
            t.extend(body.iter().map(|&(i, pos)| lit(i, pos, k)));
            s += &t.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
            s.push('\n');
        }
    }
    for k in 0..c {
        for j in k + 1..c {
            s += &format!("1 0 0 0 2 {} {}\n", atom(once, k), atom(once, j));
        }
    }
    let none: Vec<String> = (0..c).map(|k| format!("-{}", atom(some, k))).collect();
    s += &format!("1 0 0 0 {} {}\n", c, none.join(" "));
    let terms: Vec<String> = (0..c)
        .flat_map(|k| (0..m).map(move |i| (i, k)))
        .map(|(i, k)| format!("{} {}", atom(i, k), weights[i]))
        .collect();
    s += &format!("2 0 {} {}\n", c * m, terms.join(" "));
    for k in 0..c {
        for i in 0..m {
            let name = format!("a({i},{k})");
            s += &format!("4 {} {} 1 {}\n", name.len(), name, atom(i, k));
        }
    }
    s + "0\n"
}

#[test]
fn programs_of_interchangeable_copies_keep_their_answers() {
    let mut broken = 0;
    for seed in 0..60 {
        let p = copies(seed);
        let (status, optimum, text) = run(&p, &["--symmetry=lex"]);
        let (want, want_optimum, _) = run(&p, &["--symmetry=no"]);
        assert_eq!((&status, optimum), (&want, want_optimum), "seed {seed}:\n{p}");
        broken += u64::from(figure(&text, "Symmetries").is_some());
        // Without the costs: one model, or none.
        let (status, _, _) = run(&p, &["--symmetry=lex", "--opt-mode=ignore"]);
        let (want, _, _) = run(&p, &["--symmetry=no", "--opt-mode=ignore"]);
        assert_eq!(status, want, "seed {seed}, --opt-mode=ignore:\n{p}");
        // Enumerations keep every answer set: the option does not apply.
        let models = |args: &[&str]| figure(&run(&p, args).2, "Models");
        let all = models(&["--symmetry=lex", "--opt-mode=ignore", "-n", "0"]);
        assert_eq!(all, models(&["--symmetry=no", "--opt-mode=ignore", "-n", "0"]), "seed {seed}");
    }
    assert!(broken >= 30, "symmetries broken in {broken} programs of 60");
}
