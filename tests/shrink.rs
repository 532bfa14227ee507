//! Shrinking learned nogoods (`--shrink`, `engine/cpu/shrink.rs`): every answer set of the
//! conformance corpus is the same with it as without it, in one search and in split mode, and on
//! the corpus' eight queens (92 answer sets) the nogoods it learns are shorter with it.

#[path = "support/mod.rs"]
mod support;

use yasmin::solve::SolveOptions;
use yasmin::solve::config::Decisions;

fn with(shrink: bool, decisions: Decisions, threads: u32) -> SolveOptions {
    let mut o = SolveOptions { models: Some(0), threads, ..SolveOptions::default() };
    o.search.shrink = Some(shrink);
    o.search.decisions = decisions;
    o
}

fn read(path: &std::path::Path) -> yasmin::program::Program {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    yasmin::input::read_program(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn shrunk_nogoods_keep_every_answer_set() {
    let configurations = [
        with(true, Decisions::Auto, 1),
        with(true, Decisions::Vars, 1),
        with(true, Decisions::Auto, 3),
        with(false, Decisions::Auto, 1),
    ];
    let mut checked = 0;
    for family in ["tight", "nontight", "aggregates"] {
        for (path, expected) in support::conformance(family) {
            let program = read(&path);
            if program.minimize().next().is_some() {
                continue;
            }
            for (i, opts) in configurations.iter().enumerate() {
                let (_, sets, _) = support::answer_sets(&program, opts);
                assert_eq!(sets, expected, "{}, configuration {i}", path.display());
            }
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} programs");
}

#[test]
fn shrinking_shortens_the_learned_nogoods() {
    let queens = support::corpus().join("tight/8-queens.smodels");
    let program = read(&queens);
    let literals = |shrink| {
        let o = support::counted(&program, &with(shrink, Decisions::Vars, 1));
        assert_eq!(o.models, 92);
        assert!(o.stats.learned > 50, "{} nogoods learned", o.stats.learned);
        o.stats.learned_literals as f64 / o.stats.learned as f64
    };
    let (shrunk, plain) = (literals(true), literals(false));
    assert!(shrunk < 0.9 * plain, "{shrunk:.1} literals a nogood with shrinking, {plain:.1} without");
}
