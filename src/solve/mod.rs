//! Solving a program: compile it, pick an engine, and drive the search loop for what the user
//! asked: enumeration (optionally projected), optimization, or brave/cautious consequences.
//! Every model is checked by [`verify`] before anyone sees it.

mod consequences;
pub mod limits;
pub mod minimality;
mod portfolio;
pub mod search;
pub mod verify;

use self::limits::{Limits, Stop};
use self::minimality::Minimality;
use self::search::{Next, Search};
use crate::cli::{Backend, EnumMode, OptMode, ProjectMode, SearchOptions};
use crate::engine::cpu::CpuEngine;
use crate::engine::cuda::CudaEngine;
use crate::engine::{Engine, EngineStats};
use crate::nogoods::{Lit, Problem, Unsupported, complete};
use crate::program::Program;
use crate::program::deps::Dependencies;
use std::sync::Arc;
use std::time::Instant;

/// What the user asked for (from the command line).
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Models to compute (0 for all); `None` for clasp's default: 1, or all when optimizing.
    pub models: Option<u64>,
    pub opt_mode: OptMode,
    pub enum_mode: EnumMode,
    pub project: Option<ProjectMode>,
    pub backend: Backend,
    pub search: SearchOptions,
    pub limits: Limits,
    /// Searches racing for one model or an optimum (`--parallel-mode`; 1: a single search), and
    /// the seed of their perturbations.
    pub threads: u32,
    pub seed: u64,
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

/// Receives models as they are found.
pub trait Report {
    fn model(&mut self, event: &ModelEvent<'_>);
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
    pub status: Status,
    pub models: u64,
    /// The whole search space was explored (no more models).
    pub exhausted: bool,
    pub interrupted: Option<Stop>,
    /// The best cost found (with offsets), highest priority first.
    pub costs: Option<Vec<i64>>,
    pub optimum_proven: bool,
    /// Models of the optimal cost enumerated (`--opt-mode=optN`).
    pub optimal_models: u64,
    pub enumerated_optimal: bool,
    /// Brave/cautious: the mode and the final (fixed, total) consequence counts.
    pub consequences: Option<(EnumMode, u64, u64)>,
    pub engine: &'static str,
    pub stats: EngineStats,
    pub first_model: Option<f64>,
    pub problem_size: ProblemSize,
    /// A parallel run: its searches, and the index of the one that answered (None when none did).
    pub threads: Option<(u32, Option<u32>)>,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct ProblemSize {
    pub atoms: u32,
    pub variables: u32,
    pub nogoods: usize,
    pub weight_constraints: usize,
    pub tight: bool,
}

impl Outcome {
    /// clasp's exit code: 10 satisfiable, 20 exhausted (unsatisfiable alone), +1 interrupted.
    pub fn exit_code(&self) -> i32 {
        let mut code = 0;
        if self.models > 0 {
            code += 10;
        }
        if self.exhausted {
            code += 20;
        }
        if self.interrupted.is_some() {
            code += 1;
        }
        code
    }
}

/// Creates the engine `backend` asks for: `cuda` or nothing; `auto` prefers the GPU and falls
/// back to the CPU when there is none (saying so with `-V`).
pub fn make_engine(
    problem: Arc<Problem>,
    backend: Backend,
    opts: &SearchOptions,
) -> Result<Box<dyn Engine>, Unsupported> {
    match backend {
        Backend::Cpu => Ok(Box::new(CpuEngine::new(problem, opts))),
        Backend::Cuda => match CudaEngine::new(Arc::clone(&problem), opts) {
            Ok(e) => Ok(Box::new(e)),
            Err(why) => Err(Unsupported(format!("the CUDA engine is not available: {why}"))),
        },
        Backend::Auto => match CudaEngine::new(Arc::clone(&problem), opts) {
            Ok(e) => Ok(Box::new(e)),
            Err(why) => {
                log::info!("CUDA engine not available ({why}); using the CPU engine");
                Ok(Box::new(CpuEngine::new(problem, opts)))
            }
        },
    }
}

struct Driver<'a> {
    program: &'a Program,
    deps: Dependencies,
    problem: Arc<Problem>,
    opts: &'a SolveOptions,
    start: Instant,
    first_model: Option<f64>,
    stats: EngineStats,
}

impl<'a> Driver<'a> {
    fn search(&self) -> Result<Search<'a>, Unsupported> {
        self.search_with(&self.opts.search)
    }

    /// A search with these options (a parallel run's differ in their perturbation).
    fn search_with(&self, opts: &SearchOptions) -> Result<Search<'a>, Unsupported> {
        let t0 = Instant::now();
        let engine = make_engine(Arc::clone(&self.problem), self.opts.backend, opts)?;
        log::info!("{} engine set up in {:.3}s", engine.name(), t0.elapsed().as_secs_f64());
        let mut s = Search::new(engine, opts.restarts, self.opts.limits);
        if self.problem.has_head_cycles() {
            s.minimality = Some(Minimality::new(self.program, &self.problem, opts));
        }
        Ok(s)
    }

    /// Reads and verifies the model of the search's current total assignment.
    fn take_model(&mut self, s: &Search<'_>) -> Vec<bool> {
        self.checked(s.engine.atom_values())
    }

    /// Verifies a model: it is printed only if it is an answer set.
    fn checked(&mut self, m: Vec<bool>) -> Vec<bool> {
        self.verify(&m);
        self.first_model.get_or_insert(self.start.elapsed().as_secs_f64());
        m
    }

    /// Ends the process if `m` is not an answer set: never print a set that is not one.
    fn verify(&self, m: &[bool]) {
        if let Err(e) = verify::check_answer_set(self.program, m, &self.deps) {
            eprintln!("*** ERROR: (yasmin): internal error: the search produced a non-answer set: {e}");
            std::process::exit(70);
        }
    }

    /// The model limit, with clasp's default when none was given; `None` means all.
    fn limit(&self, default: u64) -> Option<u64> {
        Some(self.opts.models.unwrap_or(default)).filter(|&k| k != 0)
    }

    fn costs(&self, s: &Search<'_>) -> Vec<i64> {
        self.problem.costs.costs(|l| s.engine.lit_value(l) == Some(true))
    }

    fn finish(&mut self, s: &mut Search<'_>) {
        self.stats += &s.engine.stats();
    }

    /// The nogood that excludes the current model (or its projection) from later answers.
    fn blocking_nogood(&self, s: &Search<'_>, projection: &Option<Vec<u32>>) -> Vec<Lit> {
        match projection {
            Some(atoms) => {
                atoms
                    .iter()
                    .map(|&a| {
                        if s.engine.lit_value(Lit::pos(a)) == Some(true) { Lit::pos(a) } else { Lit::neg(a) }
                    })
                    .collect()
            }
            None => s.engine.decisions(),
        }
    }

    fn projection_atoms(&self) -> Option<Vec<u32>> {
        let mode = self.opts.project.filter(|&m| m != ProjectMode::No)?;
        let from_show = || -> Vec<u32> {
            let mut a: Vec<u32> =
                self.program.outputs().flat_map(|o| o.condition.iter().map(|&l| l.unsigned_abs())).collect();
            a.sort_unstable();
            a.dedup();
            a
        };
        let mut atoms = match (mode, self.program.projection()) {
            (ProjectMode::Show, _) | (ProjectMode::Auto, None) => from_show(),
            (_, Some(p)) => p,
            (ProjectMode::Project | ProjectMode::No, None) => Vec::new(),
        };
        atoms.sort_unstable();
        atoms.dedup();
        Some(atoms)
    }

    fn enumerate(&mut self, report: &mut dyn Report, with_costs: bool) -> Result<Outcome, Unsupported> {
        if self.opts.threads > 1 {
            if self.limit(1) == Some(1) {
                return self.race(report, with_costs);
            }
            portfolio::one_search("enumeration of more than one model");
        }
        let mut s = self.search()?;
        let projection = self.projection_atoms();
        let mut n = 0;
        let mut last_costs = None;
        let (exhausted, interrupted) = loop {
            match s.next_model() {
                Next::Model => {
                    let m = self.take_model(&s);
                    n += 1;
                    let costs = with_costs.then(|| self.costs(&s));
                    report.model(&ModelEvent::of_model(n, &m, costs.as_deref()));
                    last_costs = costs;
                    if self.limit(1).is_some_and(|k| n >= k) {
                        break (false, None);
                    }
                    let ng = self.blocking_nogood(&s, &projection);
                    s.engine.add_nogood(&ng);
                }
                Next::Exhausted => break (true, None),
                Next::Interrupted(stop) => break (false, Some(stop)),
            }
        };
        self.finish(&mut s);
        Ok(self.outcome(s.engine.name(), n, exhausted, interrupted, last_costs, false, 0, None))
    }

    #[allow(clippy::too_many_arguments)]
    fn outcome(
        &self,
        engine: &'static str,
        models: u64,
        exhausted: bool,
        interrupted: Option<Stop>,
        costs: Option<Vec<i64>>,
        optimum_proven: bool,
        optimal_models: u64,
        consequences: Option<(EnumMode, u64, u64)>,
    ) -> Outcome {
        let status = if optimum_proven {
            Status::OptimumFound
        } else if models > 0 {
            Status::Satisfiable
        } else if exhausted {
            Status::Unsatisfiable
        } else {
            Status::Unknown
        };
        let p = &self.problem;
        Outcome {
            status,
            models,
            exhausted,
            interrupted,
            costs,
            optimum_proven,
            optimal_models,
            enumerated_optimal: self.opts.opt_mode == OptMode::OptN && optimum_proven,
            consequences,
            engine,
            stats: self.stats.clone(),
            first_model: self.first_model,
            problem_size: ProblemSize {
                atoms: p.num_atoms,
                variables: p.num_vars,
                nogoods: p.store.len() + p.store.units.len(),
                weight_constraints: p.weights.len(),
                tight: p.is_tight(),
            },
            threads: None,
        }
    }

    /// Branch and bound: each model must cost less than the last; then, for optN, a fresh search
    /// enumerates the models of the optimal cost.
    fn optimize(&mut self, report: &mut dyn Report, all_optimal: bool) -> Result<Outcome, Unsupported> {
        let bb = if self.opts.threads > 1 {
            self.race_for_optimum(report, all_optimal)?
        } else {
            self.branch_and_bound(report, all_optimal)?
        };
        let BranchAndBound { models: n, best, proven, interrupted, engine, threads } = bb;
        if !all_optimal || !proven {
            let exhausted = proven || (interrupted.is_none() && best.is_none());
            let optimal = u64::from(proven);
            let mut o = self.outcome(engine, n, exhausted, interrupted, best, proven, optimal, None);
            o.threads = threads;
            return Ok(o);
        }
        // optN: enumerate every model of the optimal cost with a fresh engine (nogoods learned
        // under the strict bound would exclude them).
        let opt = best.clone().expect("proven optimum");
        let mut s = self.search()?;
        s.engine.set_cost_bound(Some(self.without_offset(&opt)), false);
        let mut k = 0;
        let (exhausted, interrupted) = loop {
            match s.next_model() {
                Next::Model => {
                    let m = self.take_model(&s);
                    k += 1;
                    let costs = self.costs(&s);
                    debug_assert_eq!(costs, opt);
                    report.model(&ModelEvent::of_model(k, &m, Some(&costs)));
                    if self.limit(1).is_some_and(|x| k >= x) {
                        break (false, None);
                    }
                    let ng = s.engine.decisions();
                    s.engine.add_nogood(&ng);
                }
                Next::Exhausted => break (true, None),
                Next::Interrupted(stop) => break (false, Some(stop)),
            }
        };
        self.finish(&mut s);
        let mut o = self.outcome(s.engine.name(), n + k, exhausted, interrupted, Some(opt), true, k, None);
        o.threads = threads;
        Ok(o)
    }

    /// Costs (with offsets) as the engines' bounds take them (without).
    fn without_offset(&self, c: &[i64]) -> Vec<i64> {
        c.iter().zip(&self.problem.costs.offset).map(|(x, o)| x - o).collect()
    }

    /// Branch and bound by one search: each model must cost less than the last. Stops at the
    /// model limit (unless `all_optimal`), exhaustion (the last model is optimal) or a limit.
    fn branch_and_bound(
        &mut self,
        report: &mut dyn Report,
        all_optimal: bool,
    ) -> Result<BranchAndBound, Unsupported> {
        let mut s = self.search()?;
        let mut n = 0;
        let mut best: Option<Vec<i64>> = None;
        let (proven, interrupted) = loop {
            match s.next_model() {
                Next::Model => {
                    let m = self.take_model(&s);
                    n += 1;
                    let costs = self.costs(&s);
                    report.model(&ModelEvent::of_model(n, &m, Some(&costs)));
                    s.engine.set_cost_bound(Some(self.without_offset(&costs)), true);
                    best = Some(costs);
                    if !all_optimal && self.limit(0).is_some_and(|k| n >= k) {
                        break (false, None);
                    }
                }
                Next::Exhausted => break (best.is_some(), None),
                Next::Interrupted(stop) => break (false, Some(stop)),
            }
        };
        self.finish(&mut s);
        Ok(BranchAndBound { models: n, best, proven, interrupted, engine: s.engine.name(), threads: None })
    }
}

/// Where branch and bound stopped: the models reported, the best cost (with offsets), whether it
/// is proven optimal, why it stopped early, the engine, and for a parallel run its searches and
/// the one that proved the optimum (or found there is no model).
struct BranchAndBound {
    models: u64,
    best: Option<Vec<i64>>,
    proven: bool,
    interrupted: Option<Stop>,
    engine: &'static str,
    threads: Option<(u32, Option<u32>)>,
}

/// Solves `program` as the options say, reporting each model.
pub fn solve(
    program: &Program,
    opts: &SolveOptions,
    report: &mut dyn Report,
) -> Result<Outcome, Unsupported> {
    if matches!(opts.enum_mode, EnumMode::Brave | EnumMode::Cautious) {
        if opts.threads > 1 {
            portfolio::one_search("brave and cautious consequences");
        }
        let atomic = program.with_atomic_outputs();
        return driver(&atomic, opts)?.consequences(report, opts.enum_mode, program);
    }
    let mut d = driver(program, opts)?;
    let optimizing = !d.problem.costs.is_empty() && opts.opt_mode != OptMode::Ignore;
    match opts.opt_mode {
        OptMode::Enum if optimizing => d.enumerate(report, true),
        _ if optimizing => d.optimize(report, opts.opt_mode == OptMode::OptN),
        _ => d.enumerate(report, false),
    }
}

/// Compiles the program and sets up the driver of its search.
fn driver<'a>(program: &'a Program, opts: &'a SolveOptions) -> Result<Driver<'a>, Unsupported> {
    let start = Instant::now();
    let problem = Arc::new(complete(program)?);
    log::info!("completion built in {:.3}s", start.elapsed().as_secs_f64());
    log::info!(
        "problem: {} atoms, {} variables, {} nogoods, {} weight constraints, {}",
        problem.num_atoms,
        problem.num_vars,
        problem.store.len(),
        problem.weights.len(),
        if problem.is_tight() { "tight" } else { "not tight" }
    );
    Ok(Driver {
        program,
        deps: Dependencies::new(program),
        problem,
        opts,
        start,
        first_model: None,
        stats: EngineStats::default(),
    })
}
