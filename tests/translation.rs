//! Cardinality constraints translated into counters (`--trans-ext`, `nogoods/translation.rs`):
//! on random programs whose integrity constraints bound a count, in each of the three shapes
//! gringo and hand-written aspif give them (a constraint on the count itself; an atom defined by
//! the count and a constraint on it; and `x :- not a. :- not x.` around such an atom, as gringo
//! writes `{ p(X) } K`), every answer set is the same with the translation as without it, and
//! the translation happens (the counters it made are counted); and with `--trans-ext=dynamic`, which
//! spells out the counts of at most six terms as conjunctions instead.

#[path = "gen/mod.rs"]
mod r#gen;
#[path = "support/mod.rs"]
mod support;

use r#gen::Rng;
use yasmin::nogoods::ExtendedRules;
use yasmin::solve::SolveOptions;
use yasmin::solve::config::{Decisions, EnumMode};

/// The answer sets of `-n 0` (each sorted, the list sorted) and the counters made and
/// at-most-ones spelled out as pairs.
fn answer_sets(aspif: &str, opts: &SolveOptions) -> (Vec<String>, u32) {
    let program = yasmin::input::read_program(aspif.as_bytes()).expect("valid aspif");
    let (outcome, sets, _) = support::answer_sets(&program, opts);
    (sets, outcome.problem_size.counters + outcome.problem_size.at_most_ones)
}

/// A random program over `n` atoms `p1..pn` (all shown): a choice over them, a few normal rules
/// (positive loops among them), and one bound on a count of some of the atoms' literals in one of
/// the three shapes.
fn program(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let n = 6 + rng.below(5) as u32;
    let mut out = String::from("asp 1 0 0\n");
    let chosen: Vec<u32> = (1..=n).filter(|_| rng.chance(0.7)).collect();
    out += &format!("1 1 {} {} 0 0\n", chosen.len(), join(&chosen));
    for _ in 0..rng.below(4) {
        let h = 1 + rng.below(n as usize) as i64;
        let body: Vec<i64> = (0..1 + rng.below(2)).map(|_| lit(&mut rng, n)).collect();
        out += &format!("1 0 1 {h} 0 {} {}\n", body.len(), join(&body));
    }
    // The count: at least `bound` of some literals.
    let terms: Vec<i64> = {
        let mut t = Vec::new();
        for a in 1..=n as i64 {
            if rng.chance(0.8) {
                t.push(if rng.chance(0.15) { -a } else { a });
            }
        }
        if t.len() < 3 {
            t = (1..=n as i64).collect();
        }
        t
    };
    let bound = 2 + rng.below(terms.len() - 2);
    let weight_body = format!(
        "1 {bound} {} {}",
        terms.len(),
        terms.iter().map(|l| format!("{l} 1")).collect::<Vec<_>>().join(" ")
    );
    let (aux, x) = (n + 1, n + 2);
    match rng.below(3) {
        0 => out += &format!("1 0 0 {weight_body}\n"),
        1 => out += &format!("1 0 1 {aux} {weight_body}\n1 0 0 0 1 {aux}\n"),
        _ => out += &format!("1 0 1 {aux} {weight_body}\n1 0 1 {x} 0 1 -{aux}\n1 0 0 0 1 -{x}\n"),
    }
    for a in 1..=n {
        out += &format!("4 {} p{a} 1 {a}\n", format!("p{a}").len());
    }
    out + "0\n"
}

fn lit(rng: &mut Rng, n: u32) -> i64 {
    let a = 1 + rng.below(n as usize) as i64;
    if rng.chance(0.3) { -a } else { a }
}

fn join<T: ToString>(v: &[T]) -> String {
    v.iter().map(T::to_string).collect::<Vec<_>>().join(" ")
}

#[test]
fn translated_counts_keep_every_answer_set() {
    let with = |extended_rules, decisions, enum_mode| {
        let mut o = SolveOptions { models: Some(0), extended_rules, enum_mode, ..SolveOptions::default() };
        o.search.decisions = decisions;
        o
    };
    let native = with(ExtendedRules::Native, Decisions::Auto, EnumMode::Auto);
    let default = with(ExtendedRules::default(), Decisions::Auto, EnumMode::Auto);
    let others = [
        with(ExtendedRules::default(), Decisions::Vars, EnumMode::Auto),
        with(ExtendedRules::default(), Decisions::Auto, EnumMode::Record),
        with(ExtendedRules::Dynamic, Decisions::Auto, EnumMode::Auto),
    ];
    let mut translated = 0;
    for seed in 0..80 {
        let aspif = program(seed);
        let (expected, none) = answer_sets(&aspif, &native);
        assert_eq!(none, 0, "--trans-ext=no translates nothing:\n{aspif}");
        let (sets, counters) = answer_sets(&aspif, &default);
        assert_eq!(sets, expected, "seed {seed}, the default:\n{aspif}");
        translated += usize::from(counters > 0);
        for (i, opts) in others.iter().enumerate() {
            assert_eq!(answer_sets(&aspif, opts).0, expected, "seed {seed}, options {i}:\n{aspif}");
        }
    }
    // Some counts are decided before any search (their literals fixed by the rules): fewer.
    assert!(translated >= 60, "only {translated} of 80 programs translated");
}
