//! Parallel search (clasp's `--parallel-mode=N,compete`): N searches of one problem, each in a
//! thread of its own with an engine of its own, all but the first with their initial scores
//! perturbed so that they take different orders of decisions. For one model they race: the first
//! to find a model or to exhaust the search space answers, and the others stop at their next
//! step. For an optimum they share the best cost found so far ([`SharedBound`]): each reports a
//! model only if it improves on every model reported before, takes up the others' bound at its
//! restarts, and the first to exhaust the search space under its bound proves the optimum.
//!
//! Why: how long a search takes on a heavy-tailed instance depends on its order of decisions
//! (BENCHMARKS.md, "How much the search varies"), and one search of the CUDA engine leaves most of
//! the GPU waiting (block 0 runs the input nogoods' rounds alone): N engines, each on its share
//! of the multiprocessors (`SearchOptions::gpu_share`), run N orders at once.
//!
//! Every search works on the same problem, so a model any of them finds is a model, and a search
//! space one of them exhausts is exhausted for all: under a bound B (its own last model's cost or
//! a better one from the others) exhaustion means no model costs less than B, and the model of
//! cost B is then optimal. Models are verified like any other before they are reported; the
//! statistics are summed over the searches, as clasp's are.

use super::search::{Next, Search};
use super::{Blocking, BranchAndBound, Driver, ModelEvent, Outcome, Report, SolveError};
use crate::engine::EngineStats;
use crate::stop::{Stop, StopToken};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex, Once};

/// The best cost (without offsets, as engines take bounds) of a parallel optimization's models,
/// and its version, which grows with every improvement. Invariant: `version` changes only under
/// the lock, together with `best`.
pub struct SharedBound {
    best: Mutex<Option<Vec<i64>>>,
    version: AtomicU64,
}

impl SharedBound {
    fn new() -> Self {
        SharedBound { best: Mutex::new(None), version: AtomicU64::new(0) }
    }

    /// The bound, if it changed since version `seen` (which is then brought up to date).
    pub fn newer(&self, seen: &mut u64) -> Option<Vec<i64>> {
        if self.version.load(Ordering::Acquire) == *seen {
            return None;
        }
        let best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        *seen = self.version.load(Ordering::Relaxed);
        best.clone()
    }

    /// Offers a model of cost `costs`: if it is better than the best so far it becomes the best,
    /// and `publish` runs under the lock (so that models are reported in the order of their
    /// improvements). Returns the best after the offer.
    fn offer(&self, costs: Vec<i64>, publish: impl FnOnce()) -> Vec<i64> {
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if best.as_ref().is_none_or(|b| costs < *b) {
            publish();
            *best = Some(costs);
            self.version.fetch_add(1, Ordering::Release);
        }
        best.clone().expect("a best after an offer")
    }
}

/// What the searches share: the flag that stops them, the search that answered (or proved the
/// optimum) first, and in an optimization the best cost.
struct Race {
    cancel: Arc<AtomicBool>,
    /// The run's token, also stopped by `cancel`: every search's.
    stop: StopToken,
    winner: AtomicU32,
    bound: Option<Arc<SharedBound>>,
}

/// No search has won yet.
const NONE: u32 = u32::MAX;

impl Race {
    fn new(run: &StopToken, bound: Option<Arc<SharedBound>>) -> Race {
        let cancel = Arc::new(AtomicBool::new(false));
        Race { stop: run.with_cancel(Arc::clone(&cancel)), cancel, winner: AtomicU32::new(NONE), bound }
    }

    /// Takes the win for search `i` if nobody has it, and stops the others.
    fn win(&self, i: u32) -> bool {
        let won = self.winner.compare_exchange(NONE, i, Ordering::AcqRel, Ordering::Relaxed).is_ok();
        if won {
            self.cancel.store(true, Ordering::Relaxed);
        }
        won
    }

    fn winner(&self) -> Option<u32> {
        Some(self.winner.load(Ordering::Relaxed)).filter(|&w| w != NONE)
    }
}

/// What one search brought back: its last step, the model it answered with (the one-model race's
/// winner only), its statistics and engine.
struct Finish {
    search: u32,
    next: Next,
    model: Option<(Vec<bool>, Vec<i64>)>,
    stats: EngineStats,
    engine: &'static str,
}

impl Finish {
    /// A search stopped while its engine was set up.
    fn stopped(search: u32, race: &Race) -> Finish {
        let why = race.stop.reached().unwrap_or(Stop::Signal);
        Finish {
            search,
            next: Next::Interrupted(why),
            model: None,
            stats: EngineStats::default(),
            engine: "none",
        }
    }
}

/// A model a search of an optimization reports to the driver's thread.
struct Improved {
    atoms: Vec<bool>,
    costs: Vec<i64>,
}

/// What the driver's thread reported of an optimization: the models, the best cost, when the
/// first came, whether the model limit was reached, and the stop that cut a verification short.
struct Reported {
    n: u64,
    best: Option<Vec<i64>>,
    first: Option<f64>,
    at_limit: bool,
    stopped: Option<Stop>,
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

impl Driver<'_> {
    /// The search for one model by `opts.threads` searches in competition: the winner's model
    /// (verified) is reported, or its proof that there is none.
    pub(super) fn race(&mut self, report: &mut dyn Report, with_costs: bool) -> Result<Outcome, SolveError> {
        let race = Race::new(&self.opts.stop, None);
        let (results, ()) = self.in_threads(
            |i| {
                let Some(mut s) = self.start(i, &race)? else { return Ok(Finish::stopped(i, &race)) };
                let mut model = None;
                let next = loop {
                    match s.next_model()? {
                        Next::Model => {
                            // Read before winning: a model the engine fails to give is searched again.
                            let Some(f) = self.found(&mut s, with_costs, Blocking::Not)? else { continue };
                            if race.win(i) {
                                model = Some((f.atoms, f.costs.unwrap_or_default()));
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
                Ok(Finish { search: i, next, model, stats: s.engine.stats(), engine: s.engine.name() })
            },
            || (),
        );
        let (mut finishes, won) = self.gather(results, &race)?;
        let (next, engine, model) = match won {
            Some(w) => {
                let f = finishes.iter_mut().find(|f| f.search == w).expect("the winner's finish");
                (f.next, f.engine, f.model.take())
            }
            // Nobody answered: every search stopped at the time limit or a signal.
            None => (finishes[0].next, finishes[0].engine, None),
        };
        let mut outcome = match (next, model) {
            (Next::Model, Some((atoms, costs))) => match self.verify(&atoms)? {
                Some(stop) => self.outcome(engine, 0, false, Some(stop), None, false, 0, None),
                None => {
                    let costs = with_costs.then_some(costs);
                    self.report(report, &ModelEvent::of_model(1, &atoms, costs.as_deref()))?;
                    self.outcome(engine, 1, false, None, costs, false, 0, None)
                }
            },
            (Next::Exhausted, _) => self.outcome(engine, 0, true, None, None, false, 0, None),
            (Next::Interrupted(stop), _) => self.outcome(engine, 0, false, Some(stop), None, false, 0, None),
            (Next::Model, None) => unreachable!("the winner keeps its model"),
        };
        outcome.threads = Some((self.opts.threads, won));
        Ok(outcome)
    }

    /// Branch and bound by `opts.threads` searches sharing their best cost: every model better
    /// than those before is verified and reported, in order; the first search to exhaust its
    /// space proves the last one optimal (or, with none, that there is no model). Stops at the
    /// model limit unless `all_optimal`.
    pub(super) fn race_for_optimum(
        &mut self,
        report: &mut dyn Report,
        all_optimal: bool,
    ) -> Result<BranchAndBound, SolveError> {
        let bound = Arc::new(SharedBound::new());
        let race = Race::new(&self.opts.stop, Some(Arc::clone(&bound)));
        // A sender for each search: the driver's loop below ends when the last search has ended
        // and dropped its own.
        let (tx, rx) = channel::<Improved>();
        let senders: Mutex<Vec<Option<Sender<Improved>>>> =
            Mutex::new((0..self.opts.threads).map(|_| Some(tx.clone())).collect());
        drop(tx);
        let limit = if all_optimal { None } else { self.limit(0) };
        let start = self.start;
        let (results, main) = self.in_threads(
            |i| {
                let tx = senders.lock().unwrap_or_else(|e| e.into_inner())[i as usize].take();
                self.optimize_one(i, &race, &bound, tx.expect("one sender per search"))
            },
            || {
                let mut r = Reported { n: 0, best: None, first: None, at_limit: false, stopped: None };
                // Until every search has ended (and dropped its sender). Past the model limit or
                // a stop the searches are stopping, and what they still send is not reported.
                for found in rx {
                    if r.at_limit || r.stopped.is_some() {
                        continue;
                    }
                    let reported = self.check_model(&found.atoms).and_then(|stopped| match stopped {
                        Some(stop) => Ok(Some(stop)),
                        None => {
                            r.first.get_or_insert(start.elapsed().as_secs_f64());
                            r.n += 1;
                            self.report(report, &ModelEvent::of_model(r.n, &found.atoms, Some(&found.costs)))
                                .map(|()| None)
                        }
                    });
                    match reported {
                        Ok(Some(stop)) => {
                            r.stopped = Some(stop);
                            race.cancel.store(true, Ordering::Relaxed);
                            continue;
                        }
                        Ok(None) => {}
                        Err(e) => {
                            race.cancel.store(true, Ordering::Relaxed);
                            return Err(e);
                        }
                    }
                    r.best = Some(found.costs);
                    if limit.is_some_and(|k| r.n >= k) {
                        r.at_limit = true;
                        race.cancel.store(true, Ordering::Relaxed);
                    }
                }
                Ok(r)
            },
        );
        let Reported { n, best, first, at_limit, stopped } = main?;
        if let Some(t) = first {
            self.first_model.get_or_insert(t);
        }
        let (finishes, won) = self.gather(results, &race)?;
        let proven = won.is_some() && !at_limit && stopped.is_none();
        let interrupted = match proven || at_limit {
            true => None,
            false => stopped.or_else(|| {
                finishes.iter().find_map(|f| match f.next {
                    Next::Interrupted(stop) if stop != Stop::Cancelled => Some(stop),
                    _ => None,
                })
            }),
        };
        let engine = won.and_then(|w| finishes.iter().find(|f| f.search == w)).unwrap_or(&finishes[0]).engine;
        Ok(BranchAndBound {
            models: n,
            proven: proven && best.is_some(),
            best,
            interrupted,
            engine,
            threads: Some((self.opts.threads, won.filter(|_| proven))),
        })
    }

    /// Search `i` of an optimization: models until it exhausts its space (and proves the
    /// optimum, if first), or is stopped.
    fn optimize_one(
        &self,
        i: u32,
        race: &Race,
        bound: &SharedBound,
        tx: Sender<Improved>,
    ) -> Result<Finish, SolveError> {
        let Some(mut s) = self.start(i, race)? else { return Ok(Finish::stopped(i, race)) };
        // A bound the others found while this engine was set up.
        s.take_shared_bound()?;
        let next = loop {
            match s.next_model()? {
                Next::Model => {
                    let Some(f) = self.found(&mut s, true, Blocking::Not)? else { continue };
                    let costs = f.costs.expect("costs read");
                    let tight = bound.offer(self.without_offset(&costs), || {
                        // The driver's thread outlives every search: a send cannot fail.
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
        Ok(Finish { search: i, next, model: None, stats: s.engine.stats(), engine: s.engine.name() })
    }

    /// Search `i` of `opts.threads`, set up: its own perturbation and share of the GPU, the
    /// race's flag and bound.
    fn start(&self, i: u32, race: &Race) -> Result<Option<Search<'_>>, SolveError> {
        let mut opts = self.opts.search.clone();
        opts.perturb = perturb_key(self.opts.seed, i);
        opts.gpu_share = self.opts.threads;
        let Some(mut s) = self.search_with(&opts, i, &race.stop)? else { return Ok(None) };
        s.shared_bound = race.bound.clone();
        Ok(Some(s))
    }

    /// Runs `search(i)` for every search in a thread of its own, and `main` on this thread
    /// meanwhile; returns the searches' results, in order, and `main`'s.
    fn in_threads<T: Send, R>(
        &self,
        search: impl Fn(u32) -> Result<T, SolveError> + Sync,
        main: impl FnOnce() -> R,
    ) -> (Vec<Result<T, SolveError>>, R) {
        std::thread::scope(|scope| {
            let search = &search;
            let handles: Vec<_> = (0..self.opts.threads).map(|i| scope.spawn(move || search(i))).collect();
            let r = main();
            let results = handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect();
            (results, r)
        })
    }

    /// The searches that ran, with their statistics added to the driver's, and the winner. A
    /// search whose engine could not be set up (say, out of device memory) or failed on the way
    /// left the race to the others; only when none could go on is it an error.
    fn gather(
        &mut self,
        results: Vec<Result<Finish, SolveError>>,
        race: &Race,
    ) -> Result<(Vec<Finish>, Option<u32>), SolveError> {
        let mut finishes = Vec::with_capacity(results.len());
        let mut first_error = None;
        for (i, r) in (0u32..).zip(results) {
            match r {
                Ok(f) => {
                    self.stats += &f.stats;
                    finishes.push(f);
                }
                Err(e) => {
                    log::warn!("--parallel-mode: search {i} dropped out: {e}");
                    first_error.get_or_insert(e);
                }
            }
        }
        if let Some(e) = first_error.filter(|_| finishes.is_empty()) {
            return Err(e);
        }
        let won = race.winner();
        log::info!(
            "parallel search: {} searches, {}",
            self.opts.threads,
            won.map_or("none answered".into(), |w| format!("search {w} answered"))
        );
        Ok((finishes, won))
    }
}

#[cfg(test)]
mod tests {
    use super::{SharedBound, perturb_key};

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

    #[test]
    fn the_shared_bound_only_improves_and_says_when() {
        let b = SharedBound::new();
        let mut seen = 0;
        assert_eq!(b.newer(&mut seen), None);
        let mut published = Vec::new();
        assert_eq!(b.offer(vec![5, 2], || published.push(1)), vec![5, 2]);
        assert_eq!(b.offer(vec![5, 3], || published.push(2)), vec![5, 2], "worse: not taken");
        assert_eq!(b.offer(vec![4, 9], || published.push(3)), vec![4, 9], "better at the first level");
        assert_eq!(published, vec![1, 3]);
        assert_eq!(b.newer(&mut seen), Some(vec![4, 9]));
        assert_eq!(b.newer(&mut seen), None, "nothing new since");
    }
}
