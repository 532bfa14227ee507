//! Symmetry breaking (`--symmetry=lex`), as BreakID and sbass do it for clasp: the program's
//! symmetries are found as automorphisms of its coloured graph (`graph.rs`, `refine.rs`,
//! `search.rs`), and lex-leader constraints (`lex_leader.rs`) keep one answer set of each orbit
//! of those the search could reach. Only where one answer set or an optimum is asked for: an
//! enumeration would miss the symmetric ones.

mod check;
mod graph;
mod lex_leader;
mod refine;
mod search;

use crate::nogoods::{Problem, Var};
use crate::program::{Program, Statement};
use crate::stop::StopToken;

/// Graphs past this many edges are not searched: refining one of 4.7 million edges to an
/// equitable partition takes 1.3 s on the VM (the symmetric programs that pay for it are small).
const MAX_EDGES: usize = 2_000_000;

/// Whether a program's symmetries may be broken: none of its statements but minimize and output
/// ones (a symmetry is checked to keep minimize statements; externals, assumptions, projections,
/// heuristics, edges and theory statements are not in its graph), in one step.
pub fn applies(program: &Program) -> bool {
    program.steps <= 1
        && program.statements().all(|s| matches!(s, Statement::Minimize(_) | Statement::Output(_)))
}

/// `problem` (the completion of `program`) with lex-leader constraints for the symmetries found
/// (`symmetries` counts their generators); `None` where none were found, the graph is too big,
/// or `stop` stopped the search.
pub fn break_symmetries(program: &Program, problem: &Problem, stop: &StopToken) -> Option<Problem> {
    let start = std::time::Instant::now();
    let broken = find_and_break(program, problem, stop);
    log::info!(
        "symmetry: {} generators broken in {:.3}s",
        broken.as_ref().map_or(0, |b| b.symmetries),
        start.elapsed().as_secs_f64()
    );
    broken
}

fn find_and_break(program: &Program, problem: &Problem, stop: &StopToken) -> Option<Problem> {
    let Some(graph) = graph::Graph::of(program, MAX_EDGES) else {
        log::info!("symmetry: the program's graph has over {MAX_EDGES} edges; not searched");
        return None;
    };
    log::info!("symmetry: a graph of {} vertices and {} edges", graph.len(), graph.edges());
    // Edges looked at and vertices copied: a few times the graph's size, so that a program
    // without symmetries (the usual case) costs little more than one refinement.
    let limits =
        search::Limits { work: 4 * (graph.edges() + graph.len()) as u64 + 1_000_000, kept: 8_000_000 };
    let found = search::generators(&graph, &limits, stop);
    let atoms = graph.atoms;
    let perms: Vec<Vec<(Var, Var)>> = found
        .iter()
        .map(|g| g.iter().filter(|&&(v, _)| v < atoms).map(|&(v, w)| (v + 1, w + 1)).collect::<Vec<_>>())
        .filter(|g| !g.is_empty())
        .collect();
    let statements = check::Statements::of(program);
    let (perms, wrong): (Vec<_>, Vec<_>) = perms.into_iter().partition(|g| statements.is_symmetry(g));
    if !wrong.is_empty() {
        log::warn!("symmetry: {} generators found are no symmetry of the program; left out", wrong.len());
        debug_assert!(false, "a generator that is no symmetry");
    }
    if perms.is_empty() || stop.check().is_err() {
        return None;
    }
    let c = lex_leader::constraints(problem, &perms)?;
    let nogoods = c.nogoods.len() + c.units.len();
    log::info!("symmetry: {} generators, {} nogoods, {} new variables", perms.len(), nogoods, c.vars);
    if nogoods == 0 {
        return None;
    }
    let mut broken = problem.with_nogoods(c.vars, c.nogoods, &c.units);
    broken.symmetries = perms.len() as u32;
    Some(broken)
}
