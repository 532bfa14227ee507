//! Solving a program: compile it, pick an engine, and drive the search loop for what the user
//! asked: enumeration (optionally projected), optimization, or brave/cautious consequences.
//! Every model is checked by [`verify`] before anyone sees it; a check that a stop cut short
//! prints nothing.

pub mod config;
mod consequences;
pub mod minimality;
mod portfolio;
pub mod search;
pub mod verify;

use self::config::{Backend, EnumMode, OptMode, ProjectMode, SearchOptions};
pub use self::config::{Fault, SolveOptions};
use self::minimality::Minimality;
use self::search::{Next, Search};
use self::verify::Verdict;
use crate::engine::cpu::CpuEngine;
use crate::engine::cuda::CudaEngine;
use crate::engine::{Engine, EngineResult, EngineStats};
use crate::nogoods::{CompileError, Lit, Problem, complete};
use crate::program::Program;
use crate::program::deps::Dependencies;
use crate::stop::{DROP_ASIDE_FROM, Phase, Stop, StopToken, drop_aside};
use std::sync::Arc;
use std::time::Instant;

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
    match backend {
        Backend::Cpu => Ok(cpu(problem)),
        Backend::Cuda => match CudaEngine::new(Arc::clone(&problem), opts) {
            Ok(e) => Ok(Some(Box::new(e))),
            Err(why) => Err(SolveError::Unsupported(format!("the CUDA engine is not available: {why}"))),
        },
        Backend::Auto => match CudaEngine::new(Arc::clone(&problem), opts) {
            Ok(e) => Ok(Some(Box::new(e))),
            Err(why) => {
                log::info!("CUDA engine not available ({why}); using the CPU engine");
                Ok(cpu(problem))
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

/// What the driver reads from the engine at a model: the atoms, the costs (when optimizing or
/// printing costs), and the nogood that excludes it (when more models are to come).
struct Found {
    atoms: Vec<bool>,
    costs: Option<Vec<i64>>,
    blocking: Vec<Lit>,
}

/// Which nogood excludes a model from later answers.
#[derive(Clone, Copy)]
enum Blocking<'p> {
    /// None is needed.
    Not,
    /// The model's decisions.
    Decisions,
    /// Its projection onto these atoms.
    Projection(&'p [u32]),
}

impl<'p> Blocking<'p> {
    fn of(projection: &'p Option<Vec<u32>>) -> Self {
        projection.as_deref().map_or(Blocking::Decisions, Blocking::Projection)
    }
}

impl<'a> Driver<'a> {
    /// The search; `None` when the stop token stopped its set-up.
    fn search(&self) -> Result<Option<Search<'a>>, SolveError> {
        self.search_with(&self.opts.search, 0, &self.opts.stop)
    }

    /// Search `index` with these options (a parallel run's differ in their perturbation) and
    /// stop token (a race's has its cancellation too); `None` when the token stopped its set-up.
    fn search_with(
        &self,
        opts: &SearchOptions,
        index: u32,
        stop: &StopToken,
    ) -> Result<Option<Search<'a>>, SolveError> {
        let t0 = Instant::now();
        self.opts.stop.enter(Phase::Setup);
        let Some(mut engine) = make_engine(Arc::clone(&self.problem), self.opts.backend, opts, stop)? else {
            return Ok(None);
        };
        // Only the CUDA engine fails (on a device error), or one a test makes fail.
        let mut may_fail = engine.name() != "cpu";
        if let Some(f) = self.opts.fault.filter(|f| f.search.is_none_or(|s| s == index)) {
            engine = Box::new(crate::engine::faulty::Faulty::new(engine, f.after));
            may_fail = true;
        }
        log::info!("{} engine set up in {:.3}s", engine.name(), t0.elapsed().as_secs_f64());
        self.opts.stop.enter(Phase::Search);
        let mut s = Search::new(engine, opts.restarts, stop.clone());
        if self.problem.has_head_cycles() {
            s.minimality = Some(Minimality::new(self.program, &self.problem, opts));
        }
        if self.opts.backend == Backend::Auto && may_fail {
            let (problem, opts) = (Arc::clone(&self.problem), opts.clone());
            s.set_fallback(Box::new(move || Ok(Box::new(CpuEngine::new(Arc::clone(&problem), &opts)))));
        }
        Ok(Some(s))
    }

    /// Why the set-up of a search came to nothing: its token stopped.
    fn stopped(&self) -> Option<Stop> {
        Some(self.opts.stop.reached().unwrap_or(Stop::Signal))
    }

    /// Verifies a model: `None` if it is an answer set, the stop if the check was cut short (the
    /// model is then not reported); an error if it is not an answer set, which is never printed.
    fn check_model(&self, m: &[bool]) -> Result<Option<Stop>, SolveError> {
        let before = self.opts.stop.enter(Phase::Verification);
        let verdict = verify::check_answer_set(self.program, m, &self.deps, &self.opts.stop);
        self.opts.stop.enter(before);
        match verdict {
            Verdict::AnswerSet => Ok(None),
            Verdict::Interrupted(stop) => Ok(Some(stop)),
            Verdict::Not(why) => {
                Err(SolveError::Internal(format!("the search produced a non-answer set: {why}")))
            }
        }
    }

    /// [`check_model`](Self::check_model), noting when the first model came.
    fn verify(&mut self, m: &[bool]) -> Result<Option<Stop>, SolveError> {
        let stopped = self.check_model(m)?;
        if stopped.is_none() {
            self.first_model.get_or_insert(self.start.elapsed().as_secs_f64());
        }
        Ok(stopped)
    }

    /// Reports a verified model.
    fn report(&self, report: &mut dyn Report, event: &ModelEvent<'_>) -> Result<(), SolveError> {
        let before = self.opts.stop.enter(Phase::Output);
        let r = report.model(event).map_err(SolveError::Output);
        self.opts.stop.enter(before);
        r
    }

    /// The model limit, with clasp's default when none was given; `None` means all.
    fn limit(&self, default: u64) -> Option<u64> {
        Some(self.opts.models.unwrap_or(default)).filter(|&k| k != 0)
    }

    fn costs(&self, e: &dyn Engine) -> EngineResult<Vec<i64>> {
        let mut err = None;
        let c = self.problem.costs.costs(|l| match e.lit_value(l) {
            Ok(v) => v == Some(true),
            Err(x) => {
                err.get_or_insert(x);
                false
            }
        });
        err.map_or(Ok(c), Err)
    }

    /// Reads the model at the search's total assignment (see [`Found`]); `None` when the engine
    /// failed and was replaced.
    fn found(
        &self,
        s: &mut Search<'_>,
        costs: bool,
        blocking: Blocking<'_>,
    ) -> Result<Option<Found>, SolveError> {
        s.read(|e| {
            Ok(Found {
                atoms: e.atom_values()?,
                costs: if costs { Some(self.costs(e)?) } else { None },
                blocking: Self::blocking_nogood(e, blocking)?,
            })
        })
    }

    fn finish(&mut self, s: &mut Search<'_>) {
        self.stats += &s.engine.stats();
    }

    /// The nogood that excludes the current model (or its projection) from later answers.
    fn blocking_nogood(e: &dyn Engine, how: Blocking<'_>) -> EngineResult<Vec<Lit>> {
        match how {
            Blocking::Not => Ok(Vec::new()),
            Blocking::Projection(atoms) => atoms
                .iter()
                .map(|&a| Ok(if e.lit_value(Lit::pos(a))? == Some(true) { Lit::pos(a) } else { Lit::neg(a) }))
                .collect(),
            Blocking::Decisions => e.decisions(),
        }
    }

    fn projection_atoms(&self) -> Option<Vec<u32>> {
        let mode = self.opts.project?;
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
            (ProjectMode::Project, None) => Vec::new(),
        };
        atoms.sort_unstable();
        atoms.dedup();
        Some(atoms)
    }

    fn enumerate(&mut self, report: &mut dyn Report, with_costs: bool) -> Result<Outcome, SolveError> {
        if self.opts.threads > 1 {
            if self.limit(1) == Some(1) {
                return self.race(report, with_costs);
            }
            portfolio::one_search("enumeration of more than one model");
        }
        let Some(mut s) = self.search()? else {
            return Ok(self.outcome("none", 0, false, self.stopped(), None, false, 0, None));
        };
        let projection = self.projection_atoms();
        let mut n = 0;
        let mut last_costs = None;
        let (exhausted, interrupted) = loop {
            match s.next_model()? {
                Next::Model => {
                    let Some(f) = self.found(&mut s, with_costs, Blocking::of(&projection))? else {
                        continue;
                    };
                    if let Some(stop) = self.verify(&f.atoms)? {
                        break (false, Some(stop));
                    }
                    n += 1;
                    self.report(report, &ModelEvent::of_model(n, &f.atoms, f.costs.as_deref()))?;
                    last_costs = f.costs;
                    if self.limit(1).is_some_and(|k| n >= k) {
                        break (false, None);
                    }
                    s.add_nogood(&f.blocking)?;
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
            problem_size: ProblemSize::of(&self.problem),
            threads: None,
        }
    }

    /// Branch and bound: each model must cost less than the last; then, for optN, a fresh search
    /// enumerates the models of the optimal cost.
    fn optimize(&mut self, report: &mut dyn Report, all_optimal: bool) -> Result<Outcome, SolveError> {
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
        let Some(mut s) = self.search()? else {
            let mut o = self.outcome(engine, n, false, self.stopped(), Some(opt), true, 0, None);
            o.threads = threads;
            return Ok(o);
        };
        s.set_cost_bound(Some(self.without_offset(&opt)), false)?;
        let mut k = 0;
        let (exhausted, interrupted) = loop {
            match s.next_model()? {
                Next::Model => {
                    let Some(f) = self.found(&mut s, true, Blocking::Decisions)? else { continue };
                    if let Some(stop) = self.verify(&f.atoms)? {
                        break (false, Some(stop));
                    }
                    k += 1;
                    debug_assert_eq!(f.costs.as_ref(), Some(&opt));
                    self.report(report, &ModelEvent::of_model(k, &f.atoms, f.costs.as_deref()))?;
                    if self.limit(1).is_some_and(|x| k >= x) {
                        break (false, None);
                    }
                    s.add_nogood(&f.blocking)?;
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
    /// model limit (unless `all_optimal`), exhaustion (the last model is optimal) or a stop.
    fn branch_and_bound(
        &mut self,
        report: &mut dyn Report,
        all_optimal: bool,
    ) -> Result<BranchAndBound, SolveError> {
        let Some(mut s) = self.search()? else {
            let interrupted = self.stopped();
            return Ok(BranchAndBound {
                models: 0,
                best: None,
                proven: false,
                interrupted,
                engine: "none",
                threads: None,
            });
        };
        let mut n = 0;
        let mut best: Option<Vec<i64>> = None;
        let (proven, interrupted) = loop {
            match s.next_model()? {
                Next::Model => {
                    let Some(f) = self.found(&mut s, true, Blocking::Not)? else { continue };
                    if let Some(stop) = self.verify(&f.atoms)? {
                        break (false, Some(stop));
                    }
                    n += 1;
                    let costs = f.costs.expect("costs read");
                    self.report(report, &ModelEvent::of_model(n, &f.atoms, Some(&costs)))?;
                    s.set_cost_bound(Some(self.without_offset(&costs)), true)?;
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

impl ProblemSize {
    fn of(p: &Problem) -> Self {
        ProblemSize {
            atoms: p.num_atoms,
            variables: p.num_vars,
            nogoods: p.store.len() + p.store.units.len(),
            weight_constraints: p.weights.len(),
            tight: p.is_tight(),
        }
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
pub fn solve(program: &Program, opts: &SolveOptions, report: &mut dyn Report) -> Result<Outcome, SolveError> {
    if matches!(opts.enum_mode, EnumMode::Brave | EnumMode::Cautious) {
        if opts.threads > 1 {
            portfolio::one_search("brave and cautious consequences");
        }
        let atomic = program.with_atomic_outputs();
        return match driver(&atomic, opts)? {
            Ok(mut d) => {
                let r = d.consequences(report, opts.enum_mode, program);
                d.discard();
                r
            }
            Err(stopped) => Ok(stopped),
        };
    }
    let mut d = match driver(program, opts)? {
        Ok(d) => d,
        Err(stopped) => return Ok(stopped),
    };
    let optimizing = !d.problem.costs.is_empty() && opts.opt_mode != OptMode::Ignore;
    let r = match opts.opt_mode {
        OptMode::Enum if optimizing => d.enumerate(report, true),
        _ if optimizing => d.optimize(report, opts.opt_mode == OptMode::OptN),
        _ => d.enumerate(report, false),
    };
    d.discard();
    r
}

impl Driver<'_> {
    /// Ends the driver; a big program's tables are freed aside ([`drop_aside`]), so that the
    /// answer (or a stop) is printed without waiting for them.
    fn discard(self) {
        if self.problem.num_vars as usize >= DROP_ASIDE_FROM {
            drop_aside((self.problem, self.deps));
        }
    }
}

/// Compiles the program and sets up the driver of its search; or, when the stop token stopped
/// the compilation, the outcome of a run that found nothing.
fn driver<'a>(
    program: &'a Program,
    opts: &'a SolveOptions,
) -> Result<Result<Driver<'a>, Outcome>, SolveError> {
    let start = Instant::now();
    opts.stop.enter(Phase::Completion);
    let compiled = complete(program, &opts.stop);
    let problem = match compiled {
        Ok(p) => Arc::new(p),
        Err(CompileError::Unsupported(why)) => return Err(SolveError::Unsupported(why)),
        Err(CompileError::Interrupted(stop)) => return Ok(Err(Outcome::stopped(stop))),
    };
    log::info!("completion built in {:.3}s", start.elapsed().as_secs_f64());
    log::info!(
        "problem: {} atoms, {} variables, {} nogoods, {} weight constraints, {}",
        problem.num_atoms,
        problem.num_vars,
        problem.store.len(),
        problem.weights.len(),
        if problem.is_tight() { "tight" } else { "not tight" }
    );
    let deps = match Dependencies::new_until(program, &opts.stop) {
        Ok(d) => d,
        Err(i) => {
            drop_aside(problem);
            return Ok(Err(Outcome::stopped(i.0)));
        }
    };
    Ok(Ok(Driver { program, deps, problem, opts, start, first_model: None, stats: EngineStats::default() }))
}

impl Outcome {
    /// The outcome of a run stopped before its search began (while reading or compiling).
    pub fn stopped(stop: Stop) -> Outcome {
        Outcome {
            status: Status::Unknown,
            models: 0,
            exhausted: false,
            interrupted: Some(stop),
            costs: None,
            optimum_proven: false,
            optimal_models: 0,
            enumerated_optimal: false,
            consequences: None,
            engine: "none",
            stats: EngineStats::default(),
            first_model: None,
            problem_size: ProblemSize::default(),
            threads: None,
        }
    }
}
