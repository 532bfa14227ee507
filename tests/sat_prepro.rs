//! `--sat-prepro` (`nogoods/elimination/`): on every program of the conformance corpus without
//! a `#minimize`, one search and three deciding on variables, at each level, and `auto`'s
//! decisions (variables, then), find one of the expected answer sets (every model is verified
//! against the program before it is reported), or prove that there is none; variables are
//! eliminated on many of them; and where the task needs every model, or the search decides by
//! turns, nothing is eliminated.

#[path = "support/mod.rs"]
mod support;

use yasmin::nogoods::SatPrepro;
use yasmin::solve::SolveOptions;
use yasmin::solve::config::Decisions;

fn with(level: u8, threads: u32, models: u64) -> SolveOptions {
    let mut o = SolveOptions {
        models: Some(models),
        threads,
        sat_prepro: Some(SatPrepro { level, ..SatPrepro::default() }),
        ..SolveOptions::default()
    };
    o.search.decisions = Decisions::Vars;
    o
}

fn programs() -> Vec<(yasmin::program::Program, String, Vec<String>)> {
    let mut out = Vec::new();
    for family in ["tight", "nontight", "aggregates"] {
        for (path, expected) in support::conformance(family) {
            let bytes = std::fs::read(&path).unwrap();
            let program =
                yasmin::input::read_program(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            if program.minimize().next().is_none() {
                out.push((program, path.display().to_string(), expected));
            }
        }
    }
    out
}

#[test]
fn one_model_after_elimination_is_an_answer_set() {
    let (mut checked, mut eliminating, mut failures) = (0, 0, Vec::new());
    for (program, name, expected) in programs() {
        let mut auto = with(2, 1, 1);
        auto.search.decisions = Decisions::Auto;
        for opts in [with(1, 1, 1), with(2, 1, 1), with(3, 1, 1), with(2, 3, 1), auto] {
            let (outcome, got, _) = support::answer_sets(&program, &opts);
            let right = match got.as_slice() {
                [] => expected.is_empty() && outcome.exhausted,
                [m] => expected.contains(m),
                _ => false,
            };
            if !right {
                failures.push(format!("{name}, {:?}: {got:?}", opts.sat_prepro));
            }
            eliminating += usize::from(outcome.problem_size.eliminated > 0);
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{} disagreements: {:#?}", failures.len(), failures);
    assert!(checked >= 100, "only {checked} programs");
    assert!(eliminating >= 100, "variables eliminated in only {eliminating} runs of {}", 5 * checked);
}

#[test]
fn tasks_that_read_every_model_keep_every_variable() {
    let (mut checked, mut eliminating) = (0, 0);
    for (program, name, expected) in programs() {
        let (outcome, got, _) = support::answer_sets(&program, &with(2, 1, 0));
        assert_eq!(got, expected, "{name}: every answer set");
        assert_eq!(outcome.problem_size.eliminated, 0, "{name}");
        let mut rules = with(2, 1, 1);
        rules.search.decisions = Decisions::Alternate;
        eliminating += support::answer_sets(&program, &rules).0.problem_size.eliminated;
        checked += 1;
    }
    assert!(checked >= 100);
    assert_eq!(eliminating, 0, "deciding by turns (the default on tight programs) keeps every variable");
}
