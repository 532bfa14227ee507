//! The conformance corpus (`../shared/conformance`): every program gives exactly its expected
//! answer sets, under both learning schemes and every decision heuristic.

mod support;

use support::{answer_sets, conformance, options};
use yasmin::cli::{Heuristic, Learning};
use yasmin::input::read_program;

fn run_family(family: &str, learning: Learning, heuristic: Heuristic) {
    let mut failures = Vec::new();
    for (path, expected) in conformance(family) {
        let program = read_program(&std::fs::read(&path).unwrap()).unwrap();
        let (outcome, got, _) = answer_sets(&program, &options(learning, heuristic));
        if got != expected || !outcome.exhausted {
            failures.push(format!(
                "{}: {} answer sets, expected {}",
                path.display(),
                got.len(),
                expected.len()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{:?}/{:?}: {} failures:\n{}",
        learning,
        heuristic,
        failures.len(),
        failures.join("\n")
    );
}

macro_rules! conformance_tests {
    ($($name:ident: $family:expr, $learning:expr, $heur:expr;)*) => {
        $( #[test] fn $name() { run_family($family, $learning, $heur); } )*
    };
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
