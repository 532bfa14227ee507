//! The model driver, written once: a [`Source`] of models (one search, or several racing:
//! `portfolio/`) is asked for the next model until the [`Task`] has enough, the source has no
//! more, or the run stops. Every model is verified before the task sees it; a verification that
//! a stop cut short reports nothing. The tasks are what the user asked for (clasp's enumerators):
//! enumeration, plain or projected, and optN's optimal models (`enumerate.rs`), branch and bound
//! (`optimize.rs`), brave and cautious consequences (`consequences.rs`).

use super::acyclicity::{Acyclicity, AllOf};
use super::minimality::Minimality;
use super::search::{CandidateCheck, Search};
use super::verify::{Kept, Verdict, Verifier};
use super::{Outcome, ProblemSize, Report, SolveError, make_engine};
use crate::engine::cpu::CpuEngine;
use crate::engine::{Engine, EngineResult, EngineStats};
use crate::nogoods::{Lit, Problem};
use crate::program::Program;
use crate::program::deps::Dependencies;
use crate::solve::config::{Backend, EnumMode, SearchOptions, SolveOptions};
use crate::stop::{DROP_ASIDE_FROM, Phase, Stop, StopToken, drop_aside};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// A solve's program, its compilation and the options: what every source and task reads.
pub(super) struct Driver<'a> {
    pub program: &'a Program,
    pub deps: Dependencies,
    pub problem: Arc<Problem>,
    pub opts: &'a SolveOptions,
    pub start: Instant,
    /// What the answer-set check needs of the program, made at the first model, and what it
    /// keeps for each search whose models the driver's thread checks.
    verifier: OnceLock<Verifier>,
    kept: Mutex<Vec<Kept>>,
    /// The CUDA devices the GPU searches run on, resolved at the first GPU search.
    gpu_devices: OnceLock<Vec<u32>>,
}

/// What a solve has gathered over its sources: their statistics (summed, as clasp's are), when
/// the first model came, and the engine and searches of the last source.
pub(super) struct Tally {
    pub stats: EngineStats,
    pub first_model: Option<f64>,
    pub engine: &'static str,
    /// A parallel run: its searches, and the one that answered.
    pub threads: Option<(u32, Option<u32>)>,
    /// A parallel run: each search's counters.
    pub searches: Vec<EngineStats>,
}

/// Which nogood excludes a model from later answers.
#[derive(Clone, Copy)]
pub(super) enum Blocking<'p> {
    /// None is needed.
    Not,
    /// The model's decisions.
    Decisions,
    /// None where the source backtracks from the model instead ([`Search::can_backtrack`]; from
    /// its projection onto these atoms, deciding them first), else the model's decisions (its
    /// projection).
    Backtrack(Option<&'p [u32]>),
    /// Its projection onto these atoms.
    Projection(&'p [u32]),
}

/// What a task reads from the engine at each model, beyond its atoms: the costs, the nogood
/// that excludes it, and which of some literals (`None`: always true) are fixed at level 0 to
/// the given value.
#[derive(Clone, Copy)]
pub(super) struct Wants<'w> {
    pub costs: bool,
    pub blocking: Blocking<'w>,
    pub fixed: Option<(&'w [Option<Lit>], bool)>,
}

/// [`Wants`] that own what they name: for searches in other threads while the task changes.
pub(super) struct OwnedWants {
    costs: bool,
    projection: Option<Vec<u32>>,
    decisions: bool,
    backtrack: bool,
    fixed: Option<(Vec<Option<Lit>>, bool)>,
}

impl OwnedWants {
    pub fn of(w: &Wants<'_>) -> Self {
        OwnedWants {
            costs: w.costs,
            // Parallel searches record projections (split mode backtracks from whole models).
            projection: match w.blocking {
                Blocking::Projection(a) | Blocking::Backtrack(Some(a)) => Some(a.to_vec()),
                _ => None,
            },
            decisions: matches!(w.blocking, Blocking::Decisions),
            backtrack: matches!(w.blocking, Blocking::Backtrack(None)),
            fixed: w.fixed.map(|(l, v)| (l.to_vec(), v)),
        }
    }

    pub fn view(&self) -> Wants<'_> {
        let blocking = match (&self.projection, self.decisions, self.backtrack) {
            (Some(a), _, _) => Blocking::Projection(a),
            (None, true, _) => Blocking::Decisions,
            (None, false, true) => Blocking::Backtrack(None),
            (None, false, false) => Blocking::Not,
        };
        Wants { costs: self.costs, blocking, fixed: self.fixed.as_ref().map(|(l, v)| (l.as_slice(), *v)) }
    }
}

/// A model as read from the engine (see [`Wants`]).
#[derive(Default)]
pub(super) struct Found {
    pub atoms: Vec<bool>,
    pub costs: Option<Vec<i64>>,
    pub blocking: Vec<Lit>,
    pub fixed: Vec<bool>,
    /// The source excludes the model from the next ones itself (it backtracks from it): no
    /// blocking nogood is needed.
    pub excluded: bool,
    /// The search that found it (of a parallel run; else 0).
    pub source: usize,
    /// Verified already, by the search's thread (a parallel run's: the driver's thread would
    /// otherwise check every model of every search).
    pub verified: bool,
}

/// What a source gives when asked for the next model.
pub(super) enum Event {
    Model(Found),
    /// No model is left (a race: one search exhausted the space).
    Exhausted,
    Stopped(Stop),
    /// This many more models, verified, that the task only counts ([`Task::takes_counts`]).
    Counted(u64),
}

/// Where models come from: one search, or several racing.
pub(super) trait Source {
    fn next(&mut self, d: &Driver<'_>, wants: &Wants<'_>) -> Result<Event, SolveError>;
    /// Adds a permanent nogood; false if no model is left.
    fn add_nogood(&mut self, lits: &[Lit]) -> Result<bool, SolveError>;
    /// Bounds the cost of further models (without offsets).
    fn set_cost_bound(&mut self, bound: Option<Vec<i64>>, strict: bool) -> Result<(), SolveError>;
    /// Ends the source: its statistics, engine and searches go into the tally.
    fn finish(&mut self, tally: &mut Tally);
}

/// What a task says after a model.
pub(super) enum Flow {
    More,
    /// It has enough (the model limit).
    Enough,
    /// No model can change its answer any more.
    Exhausted,
}

/// What to do with each model: report it, and constrain the models to come.
pub(super) trait Task {
    fn wants(&self) -> Wants<'_>;
    /// Model `number` (from 1) of this drive, verified.
    fn model(
        &mut self,
        d: &Driver<'_>,
        number: u64,
        m: &Found,
        src: &mut dyn Source,
        report: &mut dyn Report,
    ) -> Result<Flow, SolveError>;

    /// Whether models it needs not see may come only counted ([`Event::Counted`]), for a report
    /// that needs no model either ([`Report::wants_models`]).
    fn takes_counts(&self) -> bool {
        false
    }

    /// `k` more models after the first `before`, counted only; how many it takes (a model limit
    /// may take fewer), and what it says then.
    fn counted(
        &mut self,
        _d: &Driver<'_>,
        _before: u64,
        _k: u64,
        _report: &mut dyn Report,
    ) -> Result<(u64, Flow), SolveError> {
        Err(SolveError::Internal("a task that sees every model was given counts".into()))
    }
}

/// How a drive ended: the models reported, whether no model is left, why it stopped early.
pub(super) struct Ending {
    pub models: u64,
    pub exhausted: bool,
    pub interrupted: Option<Stop>,
}

impl<'a> Driver<'a> {
    /// Compiles the program (with its dependencies where the caller has them already); or, when
    /// the stop token stopped the compilation, the outcome of a run that found nothing.
    pub fn new(
        program: &'a Program,
        opts: &'a SolveOptions,
        deps: Option<Dependencies>,
    ) -> Result<Result<Self, Outcome>, SolveError> {
        let start = Instant::now();
        opts.stop.enter(Phase::Completion);
        // The CUDA engine's rule decisions do not yet share a representative's activity with the
        // variables that follow it (`engine/cpu/decide/` does): only CPU searches and the search
        // farm (which decides on variables, the followers following through binary nogoods)
        // substitute. The farm and the CPU searches racing it exchange nogoods over one problem.
        let eq_rounds =
            if opts.backend == Backend::Cpu || opts.farm().is_some() { opts.equivalences } else { 0 };
        let (rules, pairs) = (opts.extended_rules, opts.pairs_at_most_ones());
        let problem = match crate::nogoods::complete_with(program, &opts.stop, eq_rounds, rules, pairs) {
            Ok(p) => Arc::new(p),
            Err(crate::nogoods::CompileError::Unsupported(why)) => return Err(SolveError::Unsupported(why)),
            Err(crate::nogoods::CompileError::Interrupted(stop)) => return Ok(Err(Outcome::stopped(stop))),
        };
        log::info!("completion built in {:.3}s", start.elapsed().as_secs_f64());
        let optimizing = program.minimize().next().is_some();
        let problem = if opts.breaks_symmetries(optimizing) && crate::symmetry::applies(program) {
            crate::symmetry::break_symmetries(program, &problem, &opts.stop).map_or(problem, Arc::new)
        } else {
            problem
        };
        let problem = match super::sat_prepro::apply(opts, program, problem) {
            Ok(p) => p,
            Err(i) => return Ok(Err(Outcome::stopped(i.0))),
        };
        log::info!(
            "problem: {} atoms, {} variables, {} nogoods, {} weight constraints, {}",
            problem.num_atoms,
            problem.num_vars,
            problem.store.len(),
            problem.weights.len(),
            if problem.is_tight() { "tight" } else { "not tight" }
        );
        let deps = match deps.map_or_else(|| Dependencies::new_until(program, &opts.stop), Ok) {
            Ok(d) => d,
            Err(i) => {
                drop_aside(problem);
                return Ok(Err(Outcome::stopped(i.0)));
            }
        };
        Ok(Ok(Driver {
            program,
            deps,
            problem,
            opts,
            start,
            verifier: OnceLock::new(),
            kept: Mutex::default(),
            gpu_devices: OnceLock::new(),
        }))
    }

    /// Ends the driver; a big program's tables are freed aside ([`drop_aside`]), so that the
    /// answer (or a stop) is printed without waiting for them.
    pub fn discard(self) {
        if self.problem.num_vars as usize >= DROP_ASIDE_FROM {
            drop_aside((self.problem, self.deps, self.verifier, self.kept));
        }
    }

    /// Asks `src` for models and hands them, verified, to `task`, until either has no more or
    /// the run stops; the source's statistics go into `tally`.
    pub fn drive(
        &self,
        tally: &mut Tally,
        src: &mut dyn Source,
        task: &mut dyn Task,
        report: &mut dyn Report,
    ) -> Result<Ending, SolveError> {
        let mut n = 0;
        let counting = task.takes_counts() && !report.wants_models();
        let ending = loop {
            let flow = match src.next(self, &task.wants())? {
                Event::Exhausted => break Ending { models: n, exhausted: true, interrupted: None },
                Event::Stopped(stop) => {
                    break Ending { models: n, exhausted: false, interrupted: Some(stop) };
                }
                Event::Counted(k) => self.count(task, &mut n, k, report)?,
                Event::Model(m) => {
                    if !m.verified
                        && let Some(stop) = self.verify_of(&m.atoms, m.source)?
                    {
                        break Ending { models: n, exhausted: false, interrupted: Some(stop) };
                    }
                    // A model its source has excluded itself, that neither the task nor the
                    // report needs to see, is only counted (`-q -n 0`).
                    if counting && m.excluded {
                        self.count(task, &mut n, 1, report)?
                    } else {
                        n += 1;
                        task.model(self, n, &m, src, report)?
                    }
                }
            };
            tally.first_model.get_or_insert_with(|| self.start.elapsed().as_secs_f64());
            match flow {
                Flow::More => {}
                Flow::Enough => break Ending { models: n, exhausted: false, interrupted: None },
                Flow::Exhausted => break Ending { models: n, exhausted: true, interrupted: None },
            }
        };
        src.finish(tally);
        Ok(ending)
    }

    /// Hands `task` `k` verified models counted only, after the `n` it has; `n` grows by those it
    /// takes.
    fn count(
        &self,
        task: &mut dyn Task,
        n: &mut u64,
        k: u64,
        report: &mut dyn Report,
    ) -> Result<Flow, SolveError> {
        let (taken, flow) = task.counted(self, *n, k, report)?;
        *n += taken;
        Ok(flow)
    }

    /// The search `index` with these options (a parallel run's differ in their perturbation) and
    /// stop token (a race's has its cancellation too); `None` when the token stopped its set-up.
    pub fn search(
        &self,
        opts: &SearchOptions,
        index: u32,
        stop: &StopToken,
    ) -> Result<Option<Search<'a>>, SolveError> {
        self.search_on(self.opts.search_backend(), opts, index, stop)
    }

    /// [`search`](Self::search) on `backend`'s engine.
    pub fn search_on(
        &self,
        backend: Backend,
        opts: &SearchOptions,
        index: u32,
        stop: &StopToken,
    ) -> Result<Option<Search<'a>>, SolveError> {
        let t0 = Instant::now();
        self.opts.stop.enter(Phase::Setup);
        let mut opts = opts.clone();
        // Each search draws its random decisions and signs (`--rand-freq`, `--sign-def=rnd`) from the
        // run's seed and its index.
        opts.random.seed = self.opts.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(index);
        if backend != Backend::Cpu {
            let devices = self.gpu_devices();
            opts.gpu_device = devices[index as usize % devices.len()];
        }
        let opts = &opts;
        let Some(mut engine) = make_engine(Arc::clone(&self.problem), backend, opts, stop)? else {
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
        let mut s = Search::new(engine, opts, stop.clone());
        s.progress.clone_from(&self.opts.progress);
        // The checks of each total assignment: minimality with head cycles, acyclicity with
        // #edge statements where the engine does not propagate it (the CPU engine does).
        let mut checks: Vec<Box<dyn CandidateCheck + '_>> = Vec::new();
        if self.problem.has_head_cycles() {
            checks.push(Box::new(Minimality::new(self.program, &self.problem, opts, self.opts.equivalences)));
        }
        if let Some(a) = Acyclicity::new(self.program).filter(|_| may_fail) {
            checks.push(Box::new(a));
        }
        s.check = match checks.len() {
            0 | 1 => checks.pop(),
            _ => Some(Box::new(AllOf(checks))),
        };
        if backend == Backend::Auto && may_fail {
            let (problem, opts) = (Arc::clone(&self.problem), opts.clone());
            s.set_fallback(Box::new(move || Ok(Box::new(CpuEngine::new(Arc::clone(&problem), &opts)))));
        }
        Ok(Some(s))
    }

    /// Says, where `--enum-mode=bt` was asked for, that `engine`'s search cannot backtrack from
    /// its models and records them instead.
    pub fn warn_records(&self, engine: &str) {
        if self.opts.enum_mode == EnumMode::Bt {
            log::warn!("--enum-mode=bt: the {engine} engine's search records its models");
        }
    }

    /// Verifies a model of search `from` in the driver's thread ([`Driver::verify`]).
    fn verify_of(&self, m: &[bool], from: usize) -> Result<Option<Stop>, SolveError> {
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        if kept.len() <= from {
            kept.resize_with(from + 1, Kept::default);
        }
        self.verify(m, &mut kept[from], &self.opts.stop)
    }

    /// Verifies a model (in any thread) with what its search's earlier checks `kept`, polling
    /// `stop`: `None` if it is an answer set, the stop if the check was cut short (the model is
    /// then not reported); an error if it is not an answer set, which is never printed.
    pub fn verify(&self, m: &[bool], kept: &mut Kept, stop: &StopToken) -> Result<Option<Stop>, SolveError> {
        let before = stop.enter(Phase::Verification);
        let verdict = self.verify_in_search(m, kept, stop);
        stop.enter(before);
        verdict
    }

    /// Reads the model `s` found into `atoms`, excludes it by backtracking and verifies it, with
    /// what its search's checks `kept` (`phase`: the run's phase word is set, as [`verify`](
    /// Self::verify) does, in the driver's own thread); an error if it is not an answer set.
    pub fn read_and_verify(
        &self,
        s: &mut Search<'_>,
        atoms: &mut Vec<bool>,
        kept: &mut Kept,
        stop: &StopToken,
        phase: bool,
    ) -> Result<Checked, SolveError> {
        if s.read(|e| e.atom_values(atoms))?.is_none() {
            return Ok(Checked::Again);
        }
        s.exclude_by_backtracking()?;
        let checked =
            if phase { self.verify(atoms, kept, stop) } else { self.verify_in_search(atoms, kept, stop) };
        Ok(checked?.map_or(Checked::AnswerSet, Checked::Stopped))
    }

    /// [`verify`](Self::verify) in the thread of one of several searches: the run's phase (one
    /// word every thread would write twice a model) stays as the driver's thread set it.
    pub fn verify_in_search(
        &self,
        m: &[bool],
        kept: &mut Kept,
        stop: &StopToken,
    ) -> Result<Option<Stop>, SolveError> {
        let verifier = self.verifier.get_or_init(|| Verifier::new(self.program, &self.deps));
        match verifier.check(self.program, m, &self.deps, stop, kept) {
            Verdict::AnswerSet => Ok(None),
            Verdict::Interrupted(stop) => Ok(Some(stop)),
            Verdict::Not(why) => {
                Err(SolveError::Internal(format!("the search produced a non-answer set: {why}")))
            }
        }
    }

    /// Reports `k` verified models after the first `before`, counted only.
    pub fn report_counted(&self, report: &mut dyn Report, before: u64, k: u64) -> Result<(), SolveError> {
        if let Some(p) = &self.opts.progress {
            p.models(k);
        }
        report.counted(before, k).map_err(SolveError::Output)
    }

    /// Reports a verified model.
    pub fn report(&self, report: &mut dyn Report, event: &super::ModelEvent<'_>) -> Result<(), SolveError> {
        let before = self.opts.stop.enter(Phase::Output);
        if let Some(p) = &self.opts.progress {
            p.model(event.costs);
        }
        let r = report.model(event).map_err(SolveError::Output);
        self.opts.stop.enter(before);
        r
    }

    /// The CUDA devices the GPU searches run on: those `--gpu-devices` lists, or every device
    /// there is (device 0 where none can be counted: the engine then says why it cannot run).
    pub fn gpu_devices(&self) -> &[u32] {
        self.gpu_devices.get_or_init(|| {
            if !self.opts.gpu_devices.is_empty() {
                return self.opts.gpu_devices.clone();
            }
            match crate::engine::cuda::device_count() {
                Ok(n) if n > 0 => (0..n).collect(),
                _ => vec![0],
            }
        })
    }

    /// How the searches of a parallel run divide their work; `None` for one search.
    pub fn parallel(&self) -> Option<super::portfolio::Mode> {
        use super::portfolio::Mode;
        (self.opts.threads > 1).then_some(if self.opts.split { Mode::Split } else { Mode::Compete })
    }

    /// The model limit, with clasp's default when none was given; `None` means all.
    pub fn limit(&self, default: u64) -> Option<u64> {
        Some(self.opts.models.unwrap_or(default)).filter(|&k| k != 0)
    }

    /// Costs (with offsets) as the engines' bounds take them (without).
    /// clasp's `--opt-mode=MODE,BOUND...`: the initial bound without offsets, a level not given
    /// unbounded (`None` without a bound or costs).
    pub fn initial_bound(&self) -> Option<Vec<i64>> {
        let given = self.opts.opt_bound.as_ref()?;
        let offset = &self.problem.costs.offset;
        (!offset.is_empty()).then(|| {
            offset
                .iter()
                .enumerate()
                .map(|(i, o)| given.get(i).map_or(i64::MAX / 4, |b| b.saturating_sub(*o)))
                .collect()
        })
    }

    pub fn without_offset(&self, c: &[i64]) -> Vec<i64> {
        c.iter().zip(&self.problem.costs.offset).map(|(x, o)| x - o).collect()
    }

    /// Reads the model at an engine's total assignment, as `wants` says.
    pub fn read(&self, e: &dyn Engine, wants: &Wants<'_>) -> EngineResult<Found> {
        let costs = if wants.costs {
            let mut err = None;
            let c = self.problem.costs.costs(|l| match e.lit_value(l) {
                Ok(v) => v == Some(true),
                Err(x) => {
                    err.get_or_insert(x);
                    false
                }
            });
            Some(err.map_or(Ok(c), Err)?)
        } else {
            None
        };
        let blocking = match wants.blocking {
            Blocking::Not => Vec::new(),
            Blocking::Projection(atoms) | Blocking::Backtrack(Some(atoms)) => atoms
                .iter()
                .map(|&a| Ok(if e.lit_value(Lit::pos(a))? == Some(true) { Lit::pos(a) } else { Lit::neg(a) }))
                .collect::<EngineResult<_>>()?,
            Blocking::Decisions | Blocking::Backtrack(None) => e.decisions()?,
        };
        let fixed = match wants.fixed {
            None => Vec::new(),
            Some((lits, value)) => lits
                .iter()
                .map(|c| match c {
                    None => Ok(value),
                    Some(l) => e.fixed_value(*l).map(|v| v == Some(value)),
                })
                .collect::<EngineResult<_>>()?,
        };
        let mut atoms = Vec::new();
        e.atom_values(&mut atoms)?;
        Ok(Found { atoms, costs, blocking, fixed, excluded: false, source: 0, verified: false })
    }

    /// The outcome of a solve whose last drive ended so (a task adds its own parts).
    pub fn outcome(&self, tally: &Tally, ending: &Ending) -> Outcome {
        Outcome {
            models: ending.models,
            earlier_models: 0,
            exhausted: ending.exhausted,
            interrupted: ending.interrupted,
            costs: None,
            optimum_proven: false,
            optimal_models: 0,
            enumerated_optimal: false,
            enumerated_costs: false,
            consequences: None,
            engine: tally.engine,
            stats: tally.stats.clone(),
            first_model: tally.first_model,
            problem_size: ProblemSize::of(&self.problem),
            threads: tally.threads,
            searches: tally.searches.clone(),
        }
    }
}

impl Tally {
    pub fn new() -> Self {
        Tally {
            stats: EngineStats::default(),
            first_model: None,
            engine: "none",
            threads: None,
            searches: Vec::new(),
        }
    }
}

/// What [`Driver::read_and_verify`] made of a model.
pub(super) enum Checked {
    AnswerSet,
    /// The engine failed and another took over: the model is searched again.
    Again,
    /// The check was cut short: the model is not counted.
    Stopped(Stop),
}
