//! Parallel search (clasp's `--parallel-mode=N,compete`): N searches of one problem, each in a
//! thread of its own with an engine of its own, all but the first with their initial scores
//! perturbed so that they take different orders of decisions, as sources of the model driver.
//! For one model they race ([`RaceForOne`]): the first to find a model or to exhaust the search
//! space answers, and the others stop at their next step. For an optimum they share the best
//! cost found so far ([`SharedBound`]): each hands the driver a model only if it improves on
//! every model handed before, takes up the others' bound at its restarts, and the first to
//! exhaust the search space under its bound proves the optimum ([`race_for_optimum`]).
//!
//! Why: how long a search takes on a heavy-tailed instance depends on its order of decisions
//! (BENCHMARKS.md, "How much the search varies"), and one search of the CUDA engine leaves most of
//! the GPU waiting (block 0 runs the input nogoods' rounds alone): N engines, each on its share
//! of the multiprocessors (`SearchOptions::gpu_share`), run N orders at once.
//!
//! Every search works on the same problem, so a model any of them finds is a model, and a search
//! space one of them exhausts is exhausted for all: under a bound B (its own last model's cost or
//! a better one from the others) exhaustion means no model costs less than B, and the model of
//! cost B is then optimal. Every model is verified before it is reported: a race's answer by the
//! driver, the models handed over ([`parallel`]) by their search in its own thread; the
//! statistics are summed over the searches, as clasp's are. A search whose engine cannot be set up or fails on
//! the way drops out; only when none is left is it an error.

use super::config::{Backend, SearchOptions};
use super::configurations;
use super::core_guided::CoreGuided;
use super::driver::{
    Blocking, Checked, Driver, Ending, Event, Found, OwnedWants, Source, Tally, Task, Wants,
};
use super::exchange::{Exchange, SharedBound};
use super::farm::{FarmSource, Job};
use super::handover::{self, Inbox, Item, Outbox};
use super::search::{Next, Search};
use super::split::{Coordinator, Guide};
use super::verify::Kept;
use super::{Report, SolveError};
use crate::engine::EngineStats;
use crate::nogoods::Lit;
use crate::stop::{Stop, StopToken};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, Once};

/// What the searches share: the flag that stops them (in `stop`, with the run's limits), the
/// search that answered (or proved the optimum) first, and in an optimization the best cost.
struct Race {
    cancel: Arc<AtomicBool>,
    stop: StopToken,
    winner: AtomicU32,
    bound: Option<Arc<SharedBound>>,
    /// The searches' configurations, and their nogood exchange (`None`: no sharing).
    configurations: Vec<SearchOptions>,
    exchange: Option<Arc<Exchange>>,
    /// Split mode: the parts of the space.
    split: Option<Arc<Coordinator>>,
}

/// No search has won yet.
const NONE: u32 = u32::MAX;

impl Race {
    fn new(d: &Driver<'_>, bound: Option<Arc<SharedBound>>, mode: Mode) -> Race {
        Race::racing(d, bound, mode, false)
    }

    /// A race whose searches race the GPU search farm too (`beside_farm`: it takes the
    /// exchange's last port).
    fn racing(d: &Driver<'_>, bound: Option<Arc<SharedBound>>, mode: Mode, beside_farm: bool) -> Race {
        let cancel = Arc::new(AtomicBool::new(false));
        let o = d.opts;
        Race {
            stop: o.stop.with_cancel(Arc::clone(&cancel)),
            cancel,
            winner: AtomicU32::new(NONE),
            bound,
            configurations: configurations::portfolio(
                &o.search,
                &o.portfolio,
                o.threads,
                o.search_backend() != Backend::Cpu,
            ),
            exchange: o.distribute.map(|_| Exchange::new(o.threads + u32::from(beside_farm))),
            split: (mode == Mode::Split).then(|| Coordinator::new(o.threads)),
        }
    }

    /// Whether the space is exhausted: in compete mode one search has exhausted it, in split
    /// mode every part has been.
    fn exhausted(&self) -> bool {
        match &self.split {
            Some(c) => c.is_done(),
            None => self.winner().is_some(),
        }
    }

    /// Takes the win for search `i` if nobody has it, and stops the others.
    fn win(&self, i: u32) -> bool {
        let won = self.winner.compare_exchange(NONE, i, Ordering::AcqRel, Ordering::Relaxed).is_ok();
        if won {
            self.cancel();
        }
        won
    }

    fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    fn winner(&self) -> Option<u32> {
        Some(self.winner.load(Ordering::Relaxed)).filter(|&w| w != NONE)
    }
}

/// How one search ended: its last step, its statistics and engine.
struct Finish {
    next: Next,
    stats: EngineStats,
    engine: &'static str,
}

impl Finish {
    fn of(s: &mut Search<'_>, next: Next) -> Finish {
        Finish { next, stats: s.stats(), engine: s.engine.name() }
    }

    /// A search stopped while its engine was set up.
    fn stopped(race: &Race) -> Finish {
        Finish {
            next: Next::Interrupted(race.stop.reached().unwrap_or(Stop::Signal)),
            stats: EngineStats::default(),
            engine: "none",
        }
    }
}

/// The perturbation key of search `i` of a run seeded with `seed`: none for the first (it searches
/// as a single search would), a distinct nonzero key for each other.
pub fn perturb_key(seed: u64, i: u32) -> u64 {
    if i == 0 {
        return 0;
    }
    let mut h = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(i);
    h = (h ^ (h >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h | 1
}

/// Says once per process that a parallel run's `task` runs one search (only the searches for one
/// model and for an optimum run in parallel).
pub fn one_search(task: &str) {
    static SAID: Once = Once::new();
    SAID.call_once(|| {
        log::warn!("--parallel-mode: {task} runs one search (--parallel-mode=N,split divides it among N)")
    });
}

/// Search `i` of `d.opts.threads`, set up: its configuration, perturbation and share of the GPU,
/// the race's stop token, bound and exchange; `None` when its set-up was stopped.
fn start<'a>(d: &Driver<'a>, i: u32, race: &Race) -> Result<Option<Search<'a>>, SolveError> {
    let mut opts = race.configurations[i as usize].clone();
    opts.perturb = perturb_key(d.opts.seed, i);
    // Searches are dealt out over the devices (Driver::search): each device's share.
    opts.gpu_share = if d.opts.search_backend() == Backend::Cpu {
        d.opts.threads
    } else {
        d.opts.threads.div_ceil(d.gpu_devices().len() as u32)
    };
    opts.share = d.opts.distribute.filter(|_| race.exchange.is_some());
    if race.split.is_some() {
        // A guiding path is decided before anything else: the CUDA engine's kernel must not
        // decide at its fixpoints on its own (the search decides the path there).
        opts.gpu_decisions = 0;
    }
    let Some(mut s) = d.search(&opts, i, &race.stop)? else { return Ok(None) };
    s.shared_bound = race.bound.clone();
    s.exchange = race.exchange.as_ref().map(|x| x.port(i));
    s.guide = race.split.as_ref().map(|c| Guide::new(Arc::clone(c)));
    Ok(Some(s))
}

/// Runs `search(i)` for every search in a thread of its own, and `main` on this thread
/// meanwhile; returns the searches' results, in order, and `main`'s.
fn in_threads<T: Send, R>(
    n: u32,
    search: impl Fn(u32) -> Result<T, SolveError> + Sync,
    main: impl FnOnce() -> R,
) -> (Vec<Result<T, SolveError>>, R) {
    std::thread::scope(|scope| {
        let search = &search;
        let handles: Vec<_> = (0..n).map(|i| scope.spawn(move || search(i))).collect();
        let r = main();
        let results =
            handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect();
        (results, r)
    })
}

/// The searches that ran, with their statistics in the tally, and the engine of the winner (or
/// of the first). A search that could not be set up or failed left the race to the others; only
/// when none could go on is it an error.
fn gather(
    results: Vec<Result<Finish, SolveError>>,
    race: &Race,
    tally: &mut Tally,
) -> Result<Vec<Option<Finish>>, SolveError> {
    let mut finishes = Vec::with_capacity(results.len());
    let mut first_error = None;
    tally.searches.clear();
    for (i, r) in (0u32..).zip(results) {
        match r {
            Ok(f) => {
                tally.stats += &f.stats;
                tally.searches.push(f.stats.clone());
                finishes.push(Some(f));
            }
            Err(e) => {
                log::warn!("--parallel-mode: search {i} dropped out: {e}");
                first_error.get_or_insert(e);
                tally.searches.push(EngineStats::default());
                finishes.push(None);
            }
        }
    }
    if let Some(e) = first_error.filter(|_| finishes.iter().all(Option::is_none)) {
        return Err(e);
    }
    let won = race.winner();
    tally.threads = Some((finishes.len() as u32, won));
    let engine_of = |i: usize| finishes.get(i).and_then(|f| f.as_ref()).map(|f| f.engine);
    tally.engine = won
        .and_then(|w| engine_of(w as usize))
        .or_else(|| finishes.iter().flatten().next().map(|f| f.engine))
        .unwrap_or("none");
    log::info!(
        "parallel search: {} searches, {}",
        finishes.len(),
        won.map_or("none answered".into(), |w| format!("search {w} answered"))
    );
    Ok(finishes)
}

/// The race for one model, as a source: the winner's model, or its proof that there is none.
pub(super) struct RaceForOne {
    /// Once run: the searches' statistics, engine and winner, for `finish`.
    done: Option<Tally>,
    /// The GPU search farm's task where it races the (CPU) searches, from this thread, through
    /// their exchange; the farm once set up (as the searches start).
    farm_job: Option<Job>,
    farm: Option<FarmSource>,
}

impl RaceForOne {
    pub fn new() -> Self {
        RaceForOne { done: None, farm_job: None, farm: None }
    }

    /// The race of `-t N` CPU searches and the GPU search farm (`--gpu-mode=farm`, set up for
    /// `job` while they search), sharing nogoods where `--distribute` says so: the farm is the
    /// search after the N.
    pub fn beside_farm(job: Job) -> Self {
        RaceForOne { done: None, farm_job: Some(job), farm: None }
    }
}

impl Source for RaceForOne {
    fn next(&mut self, d: &Driver<'_>, wants: &Wants<'_>) -> Result<Event, SolveError> {
        if self.done.is_some() {
            return Ok(Event::Exhausted);
        }
        let race = Race::racing(d, None, Mode::Compete, self.farm_job.is_some());
        let model: Mutex<Option<Found>> = Mutex::new(None);
        let n = d.opts.threads;
        let (results, farm_next) = in_threads(
            d.opts.threads,
            |i| {
                let Some(mut s) = start(d, i, &race)? else { return Ok(Finish::stopped(&race)) };
                let next = loop {
                    match s.next_model()? {
                        Next::Model => {
                            // Read before winning: a model the engine fails to give is searched again.
                            let Some(f) = s.read(|e| d.read(e, wants))? else { continue };
                            if race.win(i) {
                                *model.lock().unwrap_or_else(|e| e.into_inner()) = Some(f);
                            }
                            break Next::Model;
                        }
                        Next::Exhausted => {
                            race.win(i);
                            break Next::Exhausted;
                        }
                        stop @ Next::Interrupted(_) => break stop,
                    }
                };
                Ok(Finish::of(&mut s, next))
            },
            || self.farm_job.map_or(Ok(None), |job| race_farm(d, wants, job, &mut self.farm, &race, &model)),
        );
        let farm_next = farm_next?;
        let mut tally = Tally::new();
        let finishes = match gather(results, &race, &mut tally) {
            // Every CPU search failed: the farm's answer, if it has one, stands.
            Err(_) if farm_next.is_some_and(|f| f != Next::Interrupted(Stop::Cancelled)) => {
                (0..n).map(|_| None).collect()
            }
            r => r?,
        };
        if let Some(farm) = self.farm.as_mut() {
            farm_tally(farm, n, race.winner(), &mut tally);
        }
        let next_of = |w: u32| if w == n { farm_next } else { finishes[w as usize].as_ref().map(|f| f.next) };
        let event = match race.winner() {
            Some(w) => match next_of(w) {
                Some(Next::Model) => Event::Model(
                    model.into_inner().unwrap_or_else(|e| e.into_inner()).expect("the winner's model"),
                ),
                _ => Event::Exhausted,
            },
            // Nobody answered: every search stopped at the time limit or a signal.
            None => Event::Stopped(
                first_stop(&finishes)
                    .or(match farm_next {
                        Some(Next::Interrupted(stop)) if stop != Stop::Cancelled => Some(stop),
                        _ => None,
                    })
                    .unwrap_or(Stop::Signal),
            ),
        };
        self.done = Some(tally);
        Ok(event)
    }

    fn add_nogood(&mut self, _: &[Lit]) -> Result<bool, SolveError> {
        Ok(true)
    }

    fn set_cost_bound(&mut self, _: Option<Vec<i64>>, _: bool) -> Result<(), SolveError> {
        Ok(())
    }

    fn finish(&mut self, tally: &mut Tally) {
        if let Some(t) = self.done.take() {
            tally.stats += &t.stats;
            tally.engine = t.engine;
            tally.threads = t.threads;
            tally.searches = t.searches;
        }
    }
}

/// The farm's run in a race (search `n`, after the N CPU searches), set up into `slot`: its model
/// or proof, which wins if it comes first; `None` where the farm did not run or failed on the way
/// (the CPU searches race on). A farm that cannot be set up stops the race with the error (with
/// `--backend=auto` it has declined already, with a warning).
fn race_farm(
    d: &Driver<'_>,
    wants: &Wants<'_>,
    job: Job,
    slot: &mut Option<FarmSource>,
    race: &Race,
    model: &Mutex<Option<Found>>,
) -> Result<Option<Next>, SolveError> {
    let n = d.opts.threads;
    let t0 = std::time::Instant::now();
    let farm = match FarmSource::new_until(d, job, &race.stop) {
        Ok(Some(farm)) => {
            log::info!("search farm: joined the race after {:.3}s", t0.elapsed().as_secs_f64());
            slot.insert(farm)
        }
        Ok(None) => return Ok(None),
        Err(e) => {
            race.cancel();
            return Err(e);
        }
    };
    farm.port = race.exchange.as_ref().map(|x| x.port(n));
    Ok(match farm.one(d, wants) {
        Ok(Event::Model(f)) => {
            if race.win(n) {
                *model.lock().unwrap_or_else(|e| e.into_inner()) = Some(f);
            }
            Some(Next::Model)
        }
        Ok(Event::Exhausted) => {
            race.win(n);
            Some(Next::Exhausted)
        }
        Ok(Event::Stopped(stop)) => Some(Next::Interrupted(stop)),
        Ok(Event::Counted(_)) => None,
        Err(e) => {
            log::warn!("--parallel-mode: the search farm dropped out: {e}");
            None
        }
    })
}

/// The farm's statistics in a race's tally: its searches counted after the N CPU searches (the
/// winner too), its engine where it won.
fn farm_tally(farm: &mut FarmSource, n: u32, winner: Option<u32>, tally: &mut Tally) {
    let mut t = Tally::new();
    farm.finish(&mut t);
    tally.stats += &t.stats;
    let searches = t.threads.map_or(0, |(k, _)| k);
    let winner = winner.map(|w| if w == n { n + farm.winner().unwrap_or(0) } else { w });
    if winner.is_some_and(|w| w >= n) {
        tally.engine = t.engine;
    }
    tally.threads = Some((n + searches, winner));
}

/// Why the searches stopped, where none answered: the first stop that is not the race's own.
fn first_stop(finishes: &[Option<Finish>]) -> Option<Stop> {
    finishes.iter().flatten().find_map(|f| match f.next {
        Next::Interrupted(stop) if stop != Stop::Cancelled => Some(stop),
        _ => None,
    })
}

/// How the searches of a parallel run divide their work.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Each searches the whole space; the first to exhaust it answers for all.
    Compete,
    /// They divide the space by guiding paths (`split.rs`); it is exhausted when every part is.
    Split,
}

/// What the searches hand over: models, in the order they were found (or, optimizing, in the
/// order of their improvements), as a source; it has no more when every search has ended:
/// exhausted if the space was (one search exhausted it in compete mode, every part in split
/// mode). A projection that two parts found is handed over once.
struct Handed<'r> {
    inbox: Inbox,
    race: &'r Race,
    projections: Option<std::collections::HashSet<Vec<Lit>>>,
}

impl Source for Handed<'_> {
    fn next(&mut self, _: &Driver<'_>, _: &Wants<'_>) -> Result<Event, SolveError> {
        loop {
            return Ok(match self.inbox.recv() {
                Some(Item::Model(m)) => {
                    if let Some(seen) = self.projections.as_mut()
                        && !seen.insert(m.blocking.clone())
                    {
                        continue;
                    }
                    Event::Model(m)
                }
                Some(Item::Counted(k)) => Event::Counted(k),
                // Every search has ended (and dropped its outbox).
                None if self.race.exhausted() => Event::Exhausted,
                None => Event::Stopped(self.race.stop.reached().unwrap_or(Stop::Signal)),
            });
        }
    }

    /// The searches exclude the models they hand over themselves.
    fn add_nogood(&mut self, _: &[Lit]) -> Result<bool, SolveError> {
        Ok(true)
    }

    /// The searches bound themselves: each model they hand over has improved the shared bound.
    fn set_cost_bound(&mut self, _: Option<Vec<i64>>, _: bool) -> Result<(), SolveError> {
        Ok(())
    }

    fn finish(&mut self, _: &mut Tally) {
        // Past the model limit or a stop the searches are stopping; what they still send is not
        // reported.
        self.race.cancel();
    }
}

/// The searches of `d.opts.threads` hand `task` their models, each verified by its search: every model
/// (each search excludes what it hands over, in its part in split mode), or in an optimization
/// (a shared bound: `task` wants costs and no blocking) those better than every model before.
/// `bound` bounds every search from its start (optN's optimal models: the optimum, not strict).
pub(super) fn parallel(
    d: &Driver<'_>,
    tally: &mut Tally,
    task: &mut dyn Task,
    report: &mut dyn Report,
    mode: Mode,
    bound: Option<Vec<i64>>,
) -> Result<Ending, SolveError> {
    let owned = OwnedWants::of(&task.wants());
    let wants = owned.view();
    let optimizing = matches!(wants.blocking, Blocking::Not);
    let shared = optimizing.then(|| Arc::new(SharedBound::default()));
    let race = Race::new(d, shared.clone(), mode);
    let projections = matches!(wants.blocking, Blocking::Projection(_)).then(std::collections::HashSet::new);
    // Models that neither the task nor the report needs to see are only counted (`-q -n 0`).
    let count_only = task.takes_counts() && !report.wants_models();
    // An outbox for each search: the source has no more when the last search has ended and
    // dropped its own (`handover.rs`).
    let (outboxes, inbox) = handover::channel(d.opts.threads);
    let outboxes: Mutex<Vec<Option<Outbox>>> = Mutex::new(outboxes.into_iter().map(Some).collect());
    let mut main_tally = Tally::new();
    let first = bound.as_deref();
    // In a race for an optimum, the first search may optimize by cores (`core_guided.rs`).
    let cores = optimizing && mode == Mode::Compete && first.is_none() && CoreGuided::wanted(d);
    let (results, ending) = in_threads(
        d.opts.threads,
        |i| {
            let out = outboxes.lock().unwrap_or_else(|e| e.into_inner())[i as usize].take();
            let out = out.expect("one outbox per search");
            match (i, &race.bound) {
                (0, Some(shared)) if cores => core_models(d, &race, shared, &wants, out),
                _ => search_models(d, i, &race, &wants, first, out, count_only),
            }
        },
        || {
            let r = d.drive(&mut main_tally, &mut Handed { inbox, race: &race, projections }, task, report);
            race.cancel();
            r
        },
    );
    let ending = ending?;
    tally.first_model = tally.first_model.or(main_tally.first_model);
    gather(results, &race, tally)?;
    Ok(ending)
}

/// A model of search `i`, checked here, in parallel with the other searches, before it is handed
/// over; or the stop that cut the check short.
fn verified(
    d: &Driver<'_>,
    mut f: Found,
    i: u32,
    kept: &mut Kept,
    stop: &StopToken,
) -> Result<Result<Found, Stop>, SolveError> {
    f.source = i as usize;
    if let Some(stop) = d.verify_in_search(&f.atoms, kept, stop)? {
        return Ok(Err(stop));
    }
    f.verified = true;
    Ok(Ok(f))
}

/// Offers a model's cost as the race's best: an improvement goes to the driver at once (the
/// others' bound follows the driver's). The bound its search takes from now on.
fn offer(d: &Driver<'_>, shared: &SharedBound, f: Found, out: &mut Outbox) -> Vec<i64> {
    let costs = f.costs.clone().expect("costs read");
    shared.offer(d.without_offset(&costs), || {
        out.send(f);
        out.flush();
    })
}

/// The first search of a race for an optimum, by cores: its models, each better than every one
/// before, handed over, until it proves the optimum or is stopped. It shares the best cost, not
/// its nogoods (they name its relaxation variables, which the others do not have).
fn core_models(
    d: &Driver<'_>,
    race: &Race,
    shared: &Arc<SharedBound>,
    wants: &Wants<'_>,
    mut out: Outbox,
) -> Result<Finish, SolveError> {
    let mut cg = CoreGuided::new(d, &race.stop)?;
    cg.share_bound(Arc::clone(shared));
    let mut kept = Kept::default();
    let next = loop {
        cg.take_shared_bound()?;
        match cg.next(d, wants)? {
            Event::Model(f) => {
                let f = match verified(d, f, 0, &mut kept, &race.stop)? {
                    Ok(f) => f,
                    Err(stop) => break Next::Interrupted(stop),
                };
                cg.set_cost_bound(Some(offer(d, shared, f, &mut out)), true)?;
            }
            Event::Exhausted => {
                race.win(0);
                break Next::Exhausted;
            }
            Event::Stopped(stop) => break Next::Interrupted(stop),
            Event::Counted(_) => {
                return Err(SolveError::Internal("counted models in an optimization".into()));
            }
        }
    };
    let (stats, engine) = cg.stats();
    Ok(Finish { next, stats, engine })
}

/// Search `i` of a parallel run: its models, handed over (see [`parallel`]), until its space (or
/// in split mode every part) is exhausted, or it is stopped.
fn search_models(
    d: &Driver<'_>,
    i: u32,
    race: &Race,
    wants: &Wants<'_>,
    bound: Option<&[i64]>,
    mut out: Outbox,
    count_only: bool,
) -> Result<Finish, SolveError> {
    let started = start(d, i, race);
    if !matches!(started, Ok(Some(_))) {
        // Never took a part: it leaves the others to it.
        if let Some(c) = &race.split {
            c.leave(Vec::new());
        }
    }
    let Some(mut s) = started? else { return Ok(Finish::stopped(race)) };
    if bound.is_some() {
        s.set_cost_bound(bound.map(<[i64]>::to_vec), false)?;
    }
    // A bound the others found while this engine was set up.
    s.take_shared_bound()?;
    // Split mode backtracks from its models where the engine can (the others record them).
    let backtrack = matches!(wants.blocking, Blocking::Backtrack(None)) && s.can_backtrack();
    let mut kept = Kept::default();
    // Where models are only counted, each is read into one buffer.
    let mut atoms = Vec::new();
    let wants = if backtrack { Wants { blocking: Blocking::Not, ..*wants } } else { *wants };
    let next = loop {
        match s.next_model()? {
            // (Backtracking excludes the optimizations, which share a bound.)
            Next::Model if backtrack && count_only => {
                match d.read_and_verify(&mut s, &mut atoms, &mut kept, &race.stop, false)? {
                    Checked::AnswerSet => out.count(),
                    Checked::Again => {}
                    Checked::Stopped(stop) => break Next::Interrupted(stop),
                }
            }
            Next::Model => {
                let Some(f) = s.read(|e| d.read(e, &wants))? else { continue };
                let f = match verified(d, f, i, &mut kept, &race.stop)? {
                    Ok(f) => f,
                    Err(stop) => break Next::Interrupted(stop),
                };
                match race.bound.as_deref() {
                    Some(shared) => s.set_cost_bound(Some(offer(d, shared, f, &mut out)), true)?,
                    None if backtrack => {
                        s.exclude_by_backtracking()?;
                        out.send(f);
                    }
                    None => {
                        let blocking = f.blocking.clone();
                        out.send(f);
                        if !s.block(&blocking)? {
                            race.win(i);
                            break Next::Exhausted;
                        }
                    }
                }
            }
            Next::Exhausted => {
                race.win(i);
                break Next::Exhausted;
            }
            stop @ Next::Interrupted(_) => break stop,
        }
    };
    Ok(Finish::of(&mut s, next))
}

#[cfg(test)]
mod tests {
    use super::perturb_key;

    #[test]
    fn the_first_search_is_unperturbed_and_the_others_differ() {
        assert_eq!(perturb_key(1, 0), 0);
        let keys: Vec<u64> = (1..64).map(|i| perturb_key(1, i)).collect();
        assert!(keys.iter().all(|&k| k != 0));
        let mut distinct = keys.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), keys.len());
        assert_ne!(perturb_key(1, 1), perturb_key(2, 1), "the seed changes the keys");
    }
}
