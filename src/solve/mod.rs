//! Solving a program: compile it, pick an engine, and drive its search for what the user asked:
//! enumeration (optionally projected), optimization, or brave/cautious consequences. The model
//! driver (`driver.rs`) asks a source of models (one search, or a race: `portfolio/`) for
//! models and hands them to a task (`enumerate.rs`, `optimize.rs`, `consequences.rs`). Every model
//! is checked by [`verify`] before anyone sees it; a check that a stop cut short prints nothing.

pub mod acyclicity;
mod auto;
pub use auto::gpu_may_search;
mod changes;
pub mod config;
pub mod configurations;
mod consequences;
mod core_guided;
pub(crate) mod cubes;
mod dom_rec;
mod driver;
mod enumerate;
pub mod exchange;
mod farm;
mod handover;
mod lookahead;
pub mod minimality;
mod one_search;
mod optimize;
mod pipeline;
mod portfolio;
pub mod progress;
pub mod restarts;
mod sat_prepro;
pub mod search;
pub mod split;
pub mod verify;

use self::config::{Backend, EnumMode, OptMode, SearchOptions};
pub use self::config::{Fault, SolveOptions};
use self::driver::{Driver, Source, Tally, Task};
use self::one_search::OneSearch;
use crate::engine::cpu::CpuEngine;
use crate::engine::cuda::{CudaEngine, SetupError};
use crate::engine::{Engine, EngineStats};
use crate::nogoods::Problem;
use crate::program::Program;
use crate::stop::{Stop, StopToken};
use std::sync::Arc;

/// Why a solve call gave no outcome.
#[derive(Debug)]
pub enum SolveError {
    /// The program needs what yasmin does not support (an input error).
    Unsupported(String),
    /// The engine failed (a device error), and no other search or engine could go on.
    Engine(String),
    /// A check that must never fail did: a set the search found is not an answer set.
    Internal(String),
    /// A model could not be written (a closed pipe, say).
    Output(std::io::Error),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Unsupported(m) | SolveError::Engine(m) => f.write_str(m),
            SolveError::Internal(m) => write!(f, "internal error: {m}"),
            SolveError::Output(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

/// A model to report: the interpretation over program atoms (index 0 unused).
pub struct ModelEvent<'a> {
    pub number: u64,
    pub atoms: &'a [bool],
    pub costs: Option<&'a [i64]>,
    /// For brave/cautious: (fixed, total) consequences so far.
    pub consequences: Option<(u64, u64)>,
    /// For brave/cautious: the outputs that are consequences so far (in program output order);
    /// shown instead of the model's own outputs.
    pub selected: Option<&'a [bool]>,
}

impl<'a> ModelEvent<'a> {
    /// The event of model `number`: its atoms and, when optimizing, its costs.
    pub fn of_model(number: u64, atoms: &'a [bool], costs: Option<&'a [i64]>) -> Self {
        ModelEvent { number, atoms, costs, consequences: None, selected: None }
    }
}

/// Receives models as they are found; an error (a closed pipe) ends the solve.
pub trait Report {
    fn model(&mut self, event: &ModelEvent<'_>) -> std::io::Result<()>;

    /// Whether it needs each model (its atoms and costs); one that prints and keeps none says
    /// no, and may then be told of models only by their number ([`Report::counted`]).
    fn wants_models(&self) -> bool {
        true
    }

    /// `k` more models after the first `before`, which it does not see.
    fn counted(&mut self, _before: u64, _k: u64) -> std::io::Result<()> {
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Satisfiable,
    Unsatisfiable,
    Unknown,
    OptimumFound,
}

/// The result of one solve call.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// This call's models: the result and the exit code follow them.
    pub models: u64,
    /// Models of the calls before this one (the steps of an incremental program): `Models`
    /// counts them too, as clasp's summary does.
    pub earlier_models: u64,
    /// The whole search space was explored (no more models).
    pub exhausted: bool,
    pub interrupted: Option<Stop>,
    /// The best cost found (with offsets), highest priority first.
    pub costs: Option<Vec<i64>>,
    pub optimum_proven: bool,
    /// Models of the optimal cost enumerated (`--opt-mode=optN`).
    pub optimal_models: u64,
    pub enumerated_optimal: bool,
    /// `--opt-mode=enum`: the costs went with each model; the summary says whether the space
    /// was exhausted (clasp's `OPTIMUM FOUND`, `Optimum : yes`) but names no cost.
    pub enumerated_costs: bool,
    /// Brave/cautious: the mode and the final (fixed, total) consequence counts.
    pub consequences: Option<(EnumMode, u64, u64)>,
    pub engine: &'static str,
    pub stats: EngineStats,
    pub first_model: Option<f64>,
    pub problem_size: ProblemSize,
    /// A parallel run: its searches, and the index of the one that answered (None when none did).
    pub threads: Option<(u32, Option<u32>)>,
    /// A parallel run: each search's counters (its last drive's), in order.
    pub searches: Vec<EngineStats>,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct ProblemSize {
    pub atoms: u32,
    /// Variables a search can still assign: neither fixed by the units (propagated before the
    /// search, `nogoods/units.rs`) nor following an equivalent literal (clasp's `Variables`).
    pub variables: u32,
    /// Variables that follow an equivalent literal (`--eq`).
    pub equivalences: u32,
    /// Nogoods of two or more literals, but for those that tie an unfixed follower to its literal
    /// (a fixed one has none left).
    pub nogoods: usize,
    pub weight_constraints: usize,
    pub tight: bool,
    /// Generators of the symmetries broken (`--symmetry`).
    pub symmetries: u32,
    /// Counters of the cardinality constraints translated into nogoods (`--trans-ext`).
    pub counters: u32,
    /// At-most-one constraints spelled out as binary nogoods (`--trans-ext`).
    pub at_most_ones: u32,
    /// Variables eliminated by `--sat-prepro` (counted among `variables`, as clasp does).
    pub eliminated: u32,
}

impl Outcome {
    /// What clasp's result line says.
    pub fn status(&self) -> Status {
        if self.optimum_proven {
            Status::OptimumFound
        } else if self.models > 0 {
            Status::Satisfiable
        } else if self.exhausted {
            Status::Unsatisfiable
        } else {
            Status::Unknown
        }
    }

    /// clasp's exit code: 10 satisfiable, 20 exhausted (unsatisfiable alone), +1 interrupted.
    pub fn exit_code(&self) -> i32 {
        let mut code = 0;
        if self.models > 0 {
            code += 10;
        }
        if self.exhausted {
            code += 20;
        }
        // clasp's: a solve limit reached is not an interruption.
        if self.interrupted.is_some_and(|s| s != Stop::SolveLimit) {
            code += 1;
        }
        code
    }
}

/// Creates the engine `backend` asks for: `cuda` or nothing; `auto` prefers the GPU and falls
/// back to the CPU when there is none (saying so with `-V`).
/// `Ok(None)` when `stop` stopped the set-up.
pub fn make_engine(
    problem: Arc<Problem>,
    backend: Backend,
    opts: &SearchOptions,
    stop: &StopToken,
) -> Result<Option<Box<dyn Engine>>, SolveError> {
    let cpu = |problem| match CpuEngine::new_until(problem, opts, stop) {
        Ok(e) => Some(Box::new(e) as Box<dyn Engine>),
        Err(_) => None,
    };
    let boxed = |e: Option<CudaEngine>| e.map(|e| Box::new(e) as Box<dyn Engine>);
    match backend {
        Backend::Cpu => Ok(cpu(problem)),
        Backend::Cuda => match CudaEngine::new_until(Arc::clone(&problem), opts, stop) {
            Ok(e) => Ok(boxed(e)),
            // No GPU to run on is the device's error (exit 70, as with the farm); what the engine
            // cannot take of a program is the program's (65).
            Err(SetupError::Device(why)) => {
                Err(SolveError::Engine(format!("the CUDA engine is not available: {why}")))
            }
            Err(SetupError::Program(why)) => {
                Err(SolveError::Unsupported(format!("the CUDA engine cannot take this program: {why}")))
            }
        },
        Backend::Auto => match CudaEngine::new_until(Arc::clone(&problem), opts, stop) {
            Ok(e) => Ok(boxed(e)),
            Err(why) => {
                log::info!("CUDA engine not available ({why}); using the CPU engine");
                Ok(cpu(problem))
            }
        },
    }
}

impl ProblemSize {
    /// The sizes as clasp counts them (the fields say how).
    fn of(p: &Problem) -> Self {
        let mut fixed = vec![false; p.num_vars as usize];
        for l in &p.store.units {
            fixed[l.var() as usize] = true;
        }
        let (mut variables, mut followers, mut ties) = (0, 0, 0);
        for v in 1..p.num_vars {
            match p.leader(v) {
                Some(_) if fixed[v as usize] => followers += 1,
                Some(_) => (followers, ties) = (followers + 1, ties + 2),
                None if !fixed[v as usize] => variables += 1,
                None => {}
            }
        }
        ProblemSize {
            atoms: p.num_atoms,
            variables,
            equivalences: followers,
            nogoods: p.store.len().saturating_sub(ties),
            weight_constraints: p.weights.len(),
            tight: p.is_tight(),
            symmetries: p.symmetries,
            at_most_ones: p.at_most_ones,
            counters: p.kinds.iter().filter(|&&k| k == crate::nogoods::VarKind::Counter).count() as u32,
            eliminated: p.eliminated.vars,
        }
    }
}

/// Solves `program` as the options say, reporting each model.
pub fn solve(program: &Program, opts: &SolveOptions, report: &mut dyn Report) -> Result<Outcome, SolveError> {
    let mut deps = None;
    let resolved = auto::resolve(program, opts, &mut deps);
    let opts = resolved.as_ref().unwrap_or(opts);
    let dom_rec = dom_rec::options(opts);
    let opts = dom_rec.as_ref().unwrap_or(opts);
    if matches!(opts.enum_mode, EnumMode::Brave | EnumMode::Cautious) {
        if opts.farm_asked() {
            farm::warn_declined("it does not compute brave and cautious consequences", opts);
        }
        if opts.threads > 1 {
            portfolio::one_search("brave and cautious consequences");
        }
        let atomic = program.with_atomic_outputs();
        let d = match Driver::new(&atomic, opts, None)? {
            Ok(d) => d,
            Err(stopped) => return Ok(stopped),
        };
        let r = consequences::consequences(&d, report, opts.enum_mode, program);
        d.discard();
        return r;
    }
    let d = match Driver::new(program, opts, deps)? {
        Ok(d) => d,
        Err(stopped) => return Ok(stopped),
    };
    let optimizing = !d.problem.costs.is_empty() && opts.opt_mode != OptMode::Ignore;
    let r = match opts.opt_mode {
        OptMode::Enum if optimizing => enumerate(&d, report, true),
        _ if optimizing => {
            if opts.enum_mode == EnumMode::DomRec {
                log::warn!("--enum-mode=domRec: not while optimizing; ignored");
            }
            if let Some(why) = farm::declined(&d, farm::Job::Other) {
                farm::warn_declined(&why, opts);
            }
            optimize::optimize(&d, report, opts.opt_mode == OptMode::OptN)
        }
        _ => enumerate(&d, report, false),
    };
    d.discard();
    r
}

/// Enumeration: one search, or for one model a race of `opts.threads`, or for more the searches
/// in split mode.
fn enumerate(d: &Driver<'_>, report: &mut dyn Report, costs: bool) -> Result<Outcome, SolveError> {
    let mut task = enumerate::Enumerate::new(d, costs);
    let mut tally = Tally::new();
    // The GPU search farm, where it takes the task.
    let job = farm::Job::of(costs, task.limit == Some(1), task.projects());
    match farm::declined(d, job) {
        Some(why) => farm::warn_declined(&why, d.opts),
        None => {
            // -t N for one model: N CPU searches race the farm, sharing nogoods with it; with
            // --backend=auto one (-t 1), so that a run is never much slower than on the CPU.
            let racing = match d.parallel() {
                Some(mode) => mode == portfolio::Mode::Compete,
                None => d.opts.backend == Backend::Auto,
            };
            if job == farm::Job::One && racing {
                let ending =
                    d.drive(&mut tally, &mut portfolio::RaceForOne::beside_farm(job), &mut task, report)?;
                return Ok(d.outcome(&tally, &ending));
            }
            // -t N for every model: N CPU searches divide the space and enumerate at once, and
            // the farm (of each device named) takes parts of it once its device opens. (Only
            // where they backtrack from their models: a part given away with the nogoods of the
            // models recorded in it is no part for the farm, which takes none.)
            if job == farm::Job::All && d.opts.threads > 1 && task.backtrack {
                let (devices, split) = (portfolio::farm_devices(d.opts), portfolio::Mode::Split);
                let ending = portfolio::parallel(d, &mut tally, &mut task, report, split, None, &devices)?;
                return Ok(d.outcome(&tally, &ending));
            }
            if let Some(src) = farm::FarmSource::new(d, job)? {
                let mut src = src.counting(task.takes_counts() && !report.wants_models());
                let ending = d.drive(&mut tally, &mut src, &mut task, report)?;
                return Ok(d.outcome(&tally, &ending));
            }
        }
    }
    // Parallel searches race for one model; for more they divide the space (split mode, also
    // when compete mode was asked for: racing searches would find the same models).
    // clasp's --opt-mode=enum,BOUND: models costing at most the bound.
    let bound = if costs { d.initial_bound() } else { None };
    let ending = match d.parallel() {
        Some(portfolio::Mode::Compete) if task.limit == Some(1) && bound.is_none() => {
            d.drive(&mut tally, &mut portfolio::RaceForOne::new(), &mut task, report)?
        }
        Some(_) => portfolio::parallel(d, &mut tally, &mut task, report, portfolio::Mode::Split, bound, &[])?,
        None if bound.is_none() && pipeline::wanted(d, &task, task.limit) => {
            pipeline::drive(d, &mut tally, &mut task, report)?
        }
        None => {
            // Models that neither the task nor the report needs to see are only counted.
            let mut src = OneSearch::new(d)?.counting(task.takes_counts() && !report.wants_models());
            if bound.is_some() {
                src.set_cost_bound(bound, false)?;
            }
            d.drive(&mut tally, &mut src, &mut task, report)?
        }
    };
    let mut o = d.outcome(&tally, &ending);
    o.costs = task.last_costs;
    if costs {
        // clasp: an enumeration with costs that exhausts its space has found the optimum
        // (every model's cost was printed).
        o.enumerated_costs = true;
        o.optimum_proven = o.exhausted && o.models > 0;
    }
    Ok(o)
}

impl Outcome {
    /// The outcome of a run stopped before its search began (while reading or compiling).
    pub fn stopped(stop: Stop) -> Outcome {
        Outcome {
            models: 0,
            earlier_models: 0,
            exhausted: false,
            interrupted: Some(stop),
            costs: None,
            optimum_proven: false,
            optimal_models: 0,
            enumerated_optimal: false,
            enumerated_costs: false,
            consequences: None,
            engine: "none",
            stats: EngineStats::default(),
            first_model: None,
            problem_size: ProblemSize::default(),
            threads: None,
            searches: Vec::new(),
        }
    }
}
