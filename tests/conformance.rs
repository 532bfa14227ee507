//! The conformance corpus (`tests/conformance`, from wasp's regression tests): every program gives exactly its expected
//! answer sets, under both learning schemes, every decision heuristic, and decisions on rules (the
//! ASP computation) or on variables (`--decisions=vars`, with and without progress saving), or
//! on rules and the variables no rule decision assigns (`--decisions=mixed`), or on rules, mixed,
//! rules and variables by turns (`--decisions=alternate`), with each way of strengthening learned nogoods
//! (`--strengthen`), and with random decisions (`--rand-freq`); one model with the program's
//! symmetries broken (`--symmetry=lex`).

mod support;

use support::{answer_sets, conformance, one_model_in_parallel, options};
use yasmin::input::read_program;
use yasmin::solve::config::{
    Backend, Decisions, Heuristic, Learning, RandomDecisions, Restarts, Strengthen, StrengthenAntes, Symmetry,
};

fn run_family(
    family: &str,
    learning: Learning,
    heuristic: Heuristic,
    decisions: Decisions,
    save_progress: bool,
) {
    let mut opts = options(learning, heuristic);
    opts.search.decisions = decisions;
    opts.search.save_progress = save_progress.then_some(0);
    if decisions == Decisions::Alternate {
        // A restart after every conflict or two: turns change at restarts.
        opts.search.restarts = Restarts::Luby(1).into();
    }
    let label = format!(
        "{learning:?}/{heuristic:?}/{decisions:?}{}",
        if save_progress { " (progress saved)" } else { "" }
    );
    check_family(family, &opts, &label);
}

/// Every program of `family` gives exactly its expected answer sets under `opts`.
fn check_family(family: &str, opts: &yasmin::solve::config::SolveOptions, label: &str) {
    let mut failures = Vec::new();
    for (path, expected) in conformance(family) {
        let program = read_program(&std::fs::read(&path).unwrap()).unwrap();
        let (outcome, got, _) = answer_sets(&program, opts);
        if got != expected || !outcome.exhausted {
            failures.push(format!(
                "{}: {} answer sets, expected {}",
                path.display(),
                got.len(),
                expected.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{label}: {} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Every strengthening of learned nogoods (clasp's `--strengthen`), deciding on variables.
fn run_strengthened(family: &str, strengthen: (Strengthen, StrengthenAntes)) {
    let mut opts = options(Learning::Res, Heuristic::Activity);
    opts.search.decisions = Decisions::Vars;
    opts.search.strengthen = strengthen;
    check_family(family, &opts, &format!("--strengthen={},{}", strengthen.0, strengthen.1));
}

macro_rules! conformance_tests_strengthened {
    ($($name:ident: $family:expr, $mode:ident, $antes:ident;)*) => {
        $( #[test] fn $name() { run_strengthened($family, (Strengthen::$mode, StrengthenAntes::$antes)); } )*
    };
}

conformance_tests_strengthened! {
    tight_strengthen_no: "tight", No, All;
    nontight_strengthen_local: "nontight", Local, All;
    aggregates_strengthen_local: "aggregates", Local, Short;
    nontight_strengthen_recursive_short: "nontight", Recursive, Short;
    aggregates_strengthen_recursive_binary: "aggregates", Recursive, Binary;
}

/// Random decisions (clasp's `--rand-freq`) at `freq`, on rules or on variables, from three seeds.
fn run_random(family: &str, decisions: Decisions, freq: f64) {
    for seed in 1..=3 {
        let mut opts = options(Learning::Res, Heuristic::Activity);
        opts.search.decisions = decisions;
        opts.search.random = RandomDecisions { freq, seed: 0 };
        opts.seed = seed;
        check_family(family, &opts, &format!("--decisions={decisions} --rand-freq={freq} --seed={seed}"));
    }
}

#[test]
fn tight_random_decisions_on_variables() {
    run_random("tight", Decisions::Vars, 0.5);
}

#[test]
fn nontight_random_decisions_on_rules() {
    run_random("nontight", Decisions::Rules, 0.5);
}

#[test]
fn tight_random_mixed_decisions() {
    run_random("tight", Decisions::Mixed, 0.5);
}

#[test]
fn aggregates_every_decision_random() {
    run_random("aggregates", Decisions::Vars, 1.0);
}

macro_rules! conformance_tests {
    ($($name:ident: $family:expr, $learning:expr, $heur:expr;)*) => {
        $( #[test] fn $name() { run_family($family, $learning, $heur, Decisions::Rules, false); } )*
    };
}

// Decisions on any variable (vars), or on rules and on the variables no rule decision assigns,
// made false or saved (mixed), or on rules, mixed, rules and variables by turns (alternate: every few conflicts in
// debug builds); with progress saved or not.
macro_rules! conformance_tests_deciding {
    ($($name:ident: $family:expr, $decisions:ident, $learning:expr, $save:expr;)*) => {
        $( #[test] fn $name() { run_family($family, $learning, Heuristic::Activity, Decisions::$decisions, $save); } )*
    };
}

conformance_tests_deciding! {
    tight_vars_res: "tight", Vars, Learning::Res, false;
    tight_vars_res_saved: "tight", Vars, Learning::Res, true;
    tight_vars_fwd: "tight", Vars, Learning::Fwd, false;
    nontight_vars_res: "nontight", Vars, Learning::Res, false;
    nontight_vars_res_saved: "nontight", Vars, Learning::Res, true;
    nontight_vars_fwd_saved: "nontight", Vars, Learning::Fwd, true;
    aggregates_vars_res: "aggregates", Vars, Learning::Res, false;
    aggregates_vars_res_saved: "aggregates", Vars, Learning::Res, true;
    aggregates_vars_fwd: "aggregates", Vars, Learning::Fwd, false;
    tight_mixed_res_saved: "tight", Mixed, Learning::Res, true;
    nontight_mixed_res: "nontight", Mixed, Learning::Res, false;
    nontight_mixed_fwd_saved: "nontight", Mixed, Learning::Fwd, true;
    aggregates_mixed_res_saved: "aggregates", Mixed, Learning::Res, true;
    tight_alternate_res: "tight", Alternate, Learning::Res, false;
    nontight_alternate_res: "nontight", Alternate, Learning::Res, false;
    nontight_alternate_fwd: "nontight", Alternate, Learning::Fwd, false;
    aggregates_alternate_res: "aggregates", Alternate, Learning::Res, false;
}

// Forward learning is paired with the activity heuristic only: its nogoods are sets of decisions,
// and under a static order the search re-decides the same variables (correct, but slow).
conformance_tests! {
    tight_res_activity: "tight", Learning::Res, Heuristic::Activity;
    tight_res_occurrence: "tight", Learning::Res, Heuristic::Occurrence;
    tight_res_jw: "tight", Learning::Res, Heuristic::JeroslowWang;
    tight_fwd_activity: "tight", Learning::Fwd, Heuristic::Activity;
    nontight_res_activity: "nontight", Learning::Res, Heuristic::Activity;
    nontight_res_occurrence: "nontight", Learning::Res, Heuristic::Occurrence;
    nontight_res_jw: "nontight", Learning::Res, Heuristic::JeroslowWang;
    nontight_fwd_activity: "nontight", Learning::Fwd, Heuristic::Activity;
    aggregates_res_activity: "aggregates", Learning::Res, Heuristic::Activity;
    aggregates_res_occurrence: "aggregates", Learning::Res, Heuristic::Occurrence;
    aggregates_res_jw: "aggregates", Learning::Res, Heuristic::JeroslowWang;
    aggregates_fwd_activity: "aggregates", Learning::Fwd, Heuristic::Activity;
}

/// A parallel run (`--parallel-mode=4`) answers with one of the expected answer sets, or proves
/// there is none, on every family.
#[test]
fn one_model_by_four_searches_in_competition() {
    let (failures, checked) = one_model_in_parallel(Backend::Cpu, 4, &["tight", "nontight", "aggregates"]);
    assert!(checked > 0, "no programs checked");
    assert!(failures.is_empty(), "{} failures of {checked}:\n{}", failures.len(), failures.join("\n"));
}

/// With the symmetries broken (`--symmetry=lex`), one search answers with one of the expected
/// answer sets, or proves there is none; and the corpus has symmetries to break.
#[test]
fn one_model_with_the_symmetries_broken() {
    let mut opts = options(Learning::Res, Heuristic::Activity);
    opts.models = Some(1);
    opts.symmetry = Symmetry::Lex;
    let (mut failures, mut checked, mut broken) = (Vec::new(), 0, 0);
    for (path, expected) in ["tight", "nontight", "aggregates"].iter().flat_map(|f| conformance(f)) {
        let program = read_program(&std::fs::read(&path).unwrap()).unwrap();
        if program.minimize().next().is_some() {
            continue;
        }
        checked += 1;
        let (outcome, got, _) = answer_sets(&program, &opts);
        broken += usize::from(outcome.problem_size.symmetries > 0);
        let right = match got.as_slice() {
            [] => expected.is_empty() && outcome.exhausted,
            [m] => expected.contains(m),
            _ => false,
        };
        if !right {
            failures.push(format!(
                "{}: {got:?}, expected one of {} answer sets",
                path.display(),
                expected.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{} failures of {checked}:\n{}", failures.len(), failures.join("\n"));
    assert!(broken * 2 > checked, "symmetries broken in {broken} of {checked} programs");
}
