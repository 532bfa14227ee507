//! Where `--sat-prepro` applies (`nogoods/elimination/`): its eliminated variables take their
//! values when a model is read (the CPU engine's `atom_values`), so it serves the tasks that
//! read one model's atoms, on the CPU engine, with every search deciding on variables (which
//! `--decisions=auto` then chooses: by variables it solved 104 of the 168 shuffled copies, where
//! the turns had solved 101 and 102 in earlier runs; BENCHMARKS.md, "Variable elimination").

use super::config::{Backend, Decisions, EnumMode, SolveOptions};
use super::configurations;
use crate::nogoods::Problem;
use crate::program::Program;
use crate::stop::Interrupted;
use std::sync::Arc;

/// Why `--sat-prepro` cannot serve this task (`optimizing`: the run minimizes), if it cannot.
pub fn task_declined(opts: &SolveOptions, optimizing: bool) -> Option<&'static str> {
    if opts.backend != Backend::Cpu || opts.farm().is_some() {
        return Some("the CUDA engine solves the nogoods as they are");
    }
    if opts.several_models()
        || optimizing
        || opts.project.is_some()
        || matches!(opts.enum_mode, EnumMode::Brave | EnumMode::Cautious)
    {
        return Some("an eliminated variable takes one value: it serves one model, without costs");
    }
    None
}

/// Why `--sat-prepro` does not apply to this run of `program` (`problem` its completion), if it
/// does not.
pub fn declined(opts: &SolveOptions, program: &Program, problem: &Problem) -> Option<&'static str> {
    let optimizing = opts.optimizes(program);
    if let Some(why) = task_declined(opts, optimizing) {
        return Some(why);
    }
    if problem.has_head_cycles() {
        return Some("the minimality check of a disjunctive program reads every variable");
    }
    let searches = if opts.threads > 1 {
        configurations::portfolio(&opts.search, opts.pinned, &opts.portfolio, opts.threads, false, false)
    } else {
        vec![opts.search.clone()]
    };
    if searches.iter().any(|s| s.decisions.resolve(optimizing, problem.is_tight()) != Decisions::Vars) {
        return Some("decisions on rules read the bodies and atoms it may remove: give --decisions=vars");
    }
    None
}

/// `problem` with its nogoods preprocessed where `--sat-prepro` is given and applies (with a
/// warning where it does not).
pub fn apply(
    opts: &SolveOptions,
    program: &Program,
    problem: Arc<Problem>,
) -> Result<Arc<Problem>, Interrupted> {
    let Some(sat) = &opts.sat_prepro else { return Ok(problem) };
    if let Some(why) = declined(opts, program, &problem) {
        log::warn!("--sat-prepro: not applied: {why}");
        return Ok(problem);
    }
    let start = std::time::Instant::now();
    // The driver's problem is this Arc's alone: taken, not copied.
    let mut problem = Arc::unwrap_or_clone(problem);
    problem.eliminate(sat, &opts.stop)?;
    log::info!("sat-prepro in {:.3}s", start.elapsed().as_secs_f64());
    Ok(Arc::new(problem))
}
