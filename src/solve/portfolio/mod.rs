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

use super::SolveError;
use super::config::{Backend, SearchOptions};
use super::configurations;
use super::driver::{Driver, Tally};
use super::exchange::{Exchange, SharedBound};
use super::search::{Next, Search};
use super::split::{Coordinator, Guide};
use crate::engine::EngineStats;
use crate::stop::{Stop, StopToken};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Once};

mod checks_aside;
mod farm_member;
mod handed;
mod race_for_one;
pub(super) use farm_member::devices as farm_devices;
pub(super) use handed::parallel;
pub(super) use race_for_one::RaceForOne;

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
    /// A race whose searches race `farms` GPU search farms too (they take the exchange's last
    /// ports). Split searches with no shared bound, enumerating more than one model, divide the
    /// space to enumerate it: each takes the base configuration unless configurations are given
    /// ([`configurations::portfolio`]).
    fn racing(d: &Driver<'_>, bound: Option<Arc<SharedBound>>, mode: Mode, farms: u32) -> Race {
        let cancel = Arc::new(AtomicBool::new(false));
        let o = d.opts;
        let dividing = mode == Mode::Split && bound.is_none() && o.several_models() && !o.many;
        Race {
            stop: o.stop.with_cancel(Arc::clone(&cancel)),
            cancel,
            winner: AtomicU32::new(NONE),
            bound,
            configurations: configurations::portfolio(
                &o.search,
                o.pinned,
                &o.portfolio,
                o.threads,
                o.search_backend() != Backend::Cpu,
                dividing,
            ),
            exchange: o.distribute.map(|_| Exchange::new(o.threads + farms)),
            // A farm joins split mode once its device is open (`farm_member.rs`).
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

/// How the searches of a parallel run divide their work.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Each searches the whole space; the first to exhaust it answers for all.
    Compete,
    /// They divide the space by guiding paths (`split.rs`); it is exhausted when every part is.
    Split,
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
