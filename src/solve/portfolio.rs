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
//! cost B is then optimal. Models are verified by the driver like any other; the statistics are
//! summed over the searches, as clasp's are. A search whose engine cannot be set up or fails on
//! the way drops out; only when none is left is it an error.

use super::config::{Backend, SearchOptions};
use super::configurations;
use super::driver::{Driver, Ending, Event, Found, Source, Tally, Task, Wants};
use super::exchange::{Exchange, SharedBound};
use super::search::{Next, Search};
use super::{Report, SolveError};
use crate::engine::EngineStats;
use crate::nogoods::Lit;
use crate::stop::{Stop, StopToken};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Sender, channel};
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
}

/// No search has won yet.
const NONE: u32 = u32::MAX;

impl Race {
    fn new(d: &Driver<'_>, bound: Option<Arc<SharedBound>>) -> Race {
        let cancel = Arc::new(AtomicBool::new(false));
        let o = d.opts;
        Race {
            stop: o.stop.with_cancel(Arc::clone(&cancel)),
            cancel,
            winner: AtomicU32::new(NONE),
            bound,
            configurations: configurations::portfolio(&o.search, &o.portfolio, o.threads, o.backend != Backend::Cpu),
            exchange: o.distribute.map(|_| Exchange::new(o.threads)),
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
        log::warn!(
            "--parallel-mode: {task} runs one search (only the searches for one model or an optimum run in parallel)"
        )
    });
}

/// Search `i` of `d.opts.threads`, set up: its configuration, perturbation and share of the GPU,
/// the race's stop token, bound and exchange; `None` when its set-up was stopped.
fn start<'a>(d: &Driver<'a>, i: u32, race: &Race) -> Result<Option<Search<'a>>, SolveError> {
    let mut opts = race.configurations[i as usize].clone();
    opts.perturb = perturb_key(d.opts.seed, i);
    opts.gpu_share = d.opts.threads;
    opts.share = d.opts.distribute.filter(|_| race.exchange.is_some());
    let Some(mut s) = d.search(&opts, i, &race.stop)? else { return Ok(None) };
    s.shared_bound = race.bound.clone();
    s.exchange = race.exchange.as_ref().map(|x| x.port(i));
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
    for (i, r) in (0u32..).zip(results) {
        match r {
            Ok(f) => {
                tally.stats += &f.stats;
                finishes.push(Some(f));
            }
            Err(e) => {
                log::warn!("--parallel-mode: search {i} dropped out: {e}");
                first_error.get_or_insert(e);
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
}

impl RaceForOne {
    pub fn new() -> Self {
        RaceForOne { done: None }
    }
}

impl Source for RaceForOne {
    fn next(&mut self, d: &Driver<'_>, wants: &Wants<'_>) -> Result<Event, SolveError> {
        if self.done.is_some() {
            return Ok(Event::Exhausted);
        }
        let race = Race::new(d, None);
        let model: Mutex<Option<Found>> = Mutex::new(None);
        let (results, ()) = in_threads(
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
            || (),
        );
        let mut tally = Tally::new();
        let finishes = gather(results, &race, &mut tally)?;
        let event = match race.winner() {
            Some(w) => match finishes[w as usize].as_ref().map(|f| f.next) {
                Some(Next::Model) => Event::Model(
                    model.into_inner().unwrap_or_else(|e| e.into_inner()).expect("the winner's model"),
                ),
                _ => Event::Exhausted,
            },
            // Nobody answered: every search stopped at the time limit or a signal.
            None => Event::Stopped(first_stop(&finishes).unwrap_or(Stop::Signal)),
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
        }
    }
}

/// Why the searches stopped, where none answered: the first stop that is not the race's own.
fn first_stop(finishes: &[Option<Finish>]) -> Option<Stop> {
    finishes.iter().flatten().find_map(|f| match f.next {
        Next::Interrupted(stop) if stop != Stop::Cancelled => Some(stop),
        _ => None,
    })
}

/// A model a search of an optimization hands to the driver's thread.
struct Improved {
    atoms: Vec<bool>,
    costs: Vec<i64>,
}

/// The models the searches of an optimization hand over, in the order of their improvements, as
/// a source; it has no more when every search has ended: exhausted if one of them proved the
/// optimum (or that there is no model).
struct Improvements<'r> {
    rx: std::sync::mpsc::Receiver<Improved>,
    race: &'r Race,
}

impl Source for Improvements<'_> {
    fn next(&mut self, _: &Driver<'_>, _: &Wants<'_>) -> Result<Event, SolveError> {
        Ok(match self.rx.recv() {
            Ok(m) => Event::Model(Found {
                atoms: m.atoms,
                costs: Some(m.costs),
                blocking: Vec::new(),
                fixed: Vec::new(),
            }),
            // Every search has ended (and dropped its sender).
            Err(_) if self.race.winner().is_some() => Event::Exhausted,
            Err(_) => Event::Stopped(self.race.stop.reached().unwrap_or(Stop::Signal)),
        })
    }

    fn add_nogood(&mut self, _: &[Lit]) -> Result<bool, SolveError> {
        Err(SolveError::Internal("a race for an optimum takes no nogoods from its task".into()))
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

/// Branch and bound by `d.opts.threads` searches sharing their best cost: every model better
/// than those before is verified and handed to `task`, in order; the first search to exhaust
/// its space proves the last one optimal (or, with none, that there is no model).
pub(super) fn race_for_optimum(
    d: &Driver<'_>,
    tally: &mut Tally,
    task: &mut dyn Task,
    report: &mut dyn Report,
) -> Result<Ending, SolveError> {
    let bound = Arc::new(SharedBound::default());
    let race = Race::new(d, Some(Arc::clone(&bound)));
    // A sender for each search: the source has no more when the last search has ended and
    // dropped its own.
    let (tx, rx) = channel::<Improved>();
    let senders: Mutex<Vec<Option<Sender<Improved>>>> =
        Mutex::new((0..d.opts.threads).map(|_| Some(tx.clone())).collect());
    drop(tx);
    let mut main_tally = Tally::new();
    let (results, ending) = in_threads(
        d.opts.threads,
        |i| {
            let tx = senders.lock().unwrap_or_else(|e| e.into_inner())[i as usize].take();
            optimize_one(d, i, &race, &bound, tx.expect("one sender per search"))
        },
        || {
            let r = d.drive(&mut main_tally, &mut Improvements { rx, race: &race }, task, report);
            race.cancel();
            r
        },
    );
    let ending = ending?;
    tally.first_model = tally.first_model.or(main_tally.first_model);
    gather(results, &race, tally)?;
    Ok(ending)
}

/// Search `i` of an optimization: models until it exhausts its space (and proves the optimum,
/// if first), or is stopped.
fn optimize_one(
    d: &Driver<'_>,
    i: u32,
    race: &Race,
    bound: &SharedBound,
    tx: Sender<Improved>,
) -> Result<Finish, SolveError> {
    let Some(mut s) = start(d, i, race)? else { return Ok(Finish::stopped(race)) };
    // A bound the others found while this engine was set up.
    s.take_shared_bound()?;
    let wants = Wants { costs: true, blocking: super::driver::Blocking::Not, fixed: None };
    let next = loop {
        match s.next_model()? {
            Next::Model => {
                let Some(f) = s.read(|e| d.read(e, &wants))? else { continue };
                let costs = f.costs.expect("costs read");
                let tight = bound.offer(d.without_offset(&costs), || {
                    // The driver's thread outlives every search; once it stops listening, what is
                    // sent is dropped.
                    let _ = tx.send(Improved { atoms: f.atoms, costs: costs.clone() });
                });
                s.set_cost_bound(Some(tight), true)?;
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
