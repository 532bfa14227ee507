//! Parallel search (clasp's `--parallel-mode=N,compete`): N searches of one problem race for a
//! model, each in a thread of its own with an engine of its own, all but the first with their
//! initial scores perturbed so that they take different orders of decisions. The first to find a
//! model or to exhaust the search space answers; the others stop at their next step.
//!
//! Why: how long a search takes on a heavy-tailed instance depends on its order of decisions
//! (BENCHMARKS.md, "How much the search varies"), and one search of the CUDA engine leaves most of
//! the GPU waiting (block 0 runs the input nogoods' rounds alone): N engines, each on its share
//! of the multiprocessors (`SearchOptions::gpu_share`), run N orders at once.
//!
//! Every search works on the same problem, so a model any of them finds is a model, and a search
//! space any of them exhausts is exhausted for all. The winner's model is verified like any other
//! before it is reported; the statistics are summed over the searches, as clasp's are.

use super::limits::Stop;
use super::search::Next;
use super::{Driver, ModelEvent, Outcome, Report, SolveOptions};
use crate::engine::EngineStats;
use crate::nogoods::Unsupported;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Once};

/// What one search of the race brought back.
struct Finish {
    /// Which search (0 to N - 1).
    search: u32,
    next: Next,
    /// The model and its costs, kept only by the winner.
    model: Option<(Vec<bool>, Vec<i64>)>,
    stats: EngineStats,
    engine: &'static str,
}

/// No search has won yet.
const NONE: u32 = u32::MAX;

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

/// Says once per process, with `-V`, that a task with more than one search answers through one
/// (only the search for one model races).
pub fn one_search(opts: &SolveOptions, task: &str) {
    static SAID: Once = Once::new();
    if opts.threads > 1 {
        SAID.call_once(|| {
            log::warn!(
                "--parallel-mode: {task} runs one search (only the search for one model runs in parallel)"
            )
        });
    }
}

impl Driver<'_> {
    /// The search for one model by `opts.threads` searches in competition: the winner's model
    /// (verified) is reported, or its proof that there is none.
    pub(super) fn race(&mut self, report: &mut dyn Report, with_costs: bool) -> Result<Outcome, Unsupported> {
        let n = self.opts.threads;
        let cancel = Arc::new(AtomicBool::new(false));
        let winner = AtomicU32::new(NONE);
        let this = &*self;
        let results: Vec<Result<Finish, Unsupported>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..n)
                .map(|i| {
                    let (cancel, winner) = (Arc::clone(&cancel), &winner);
                    scope.spawn(move || this.run_one(i, n, with_costs, &cancel, winner))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
        });
        // A search whose engine could not be set up (say, out of device memory) leaves the race
        // to the others; only when none could is it an error.
        let mut finishes = Vec::with_capacity(results.len());
        let mut first_error = None;
        for (i, r) in results.into_iter().enumerate() {
            match r {
                Ok(f) => finishes.push(f),
                Err(e) => {
                    log::warn!("--parallel-mode: search {i} could not start: {}", e.0);
                    first_error.get_or_insert(e);
                }
            }
        }
        if finishes.is_empty() {
            return Err(first_error.expect("no searches and no error"));
        }
        for f in &finishes {
            self.stats += &f.stats;
        }
        let won = winner.load(Ordering::Relaxed);
        let (next, engine, model) = match finishes.iter_mut().find(|f| f.search == won) {
            Some(f) => (f.next, f.engine, f.model.take()),
            // Nobody answered: every search stopped at the time limit or a signal.
            None => (finishes[0].next, finishes[0].engine, None),
        };
        log::info!(
            "parallel search: {n} searches, {}",
            if won == NONE { "none answered".into() } else { format!("search {won} answered") }
        );
        let mut outcome = match (next, model) {
            (Next::Model, Some((atoms, costs))) => {
                let m = self.checked(atoms);
                let costs = with_costs.then_some(costs);
                report.model(&ModelEvent {
                    number: 1,
                    atoms: &m,
                    costs: costs.as_deref(),
                    consequences: None,
                    selected: None,
                });
                self.outcome(engine, 1, false, None, costs, false, 0, None)
            }
            (Next::Exhausted, _) => self.outcome(engine, 0, true, None, None, false, 0, None),
            (Next::Interrupted(stop), _) => {
                // Cancelled only after another answered; without a winner the stop is the
                // limit's or a signal's.
                debug_assert_ne!(stop, Stop::Cancelled);
                self.outcome(engine, 0, false, Some(stop), None, false, 0, None)
            }
            (Next::Model, None) => unreachable!("the winner keeps its model"),
        };
        outcome.threads = Some((n, (won != NONE).then_some(won)));
        Ok(outcome)
    }

    /// Search `i` of `n`: runs to its first answer (or until another search wins) and, if it is
    /// the first to answer, takes the win and stops the others.
    fn run_one(
        &self,
        i: u32,
        n: u32,
        with_costs: bool,
        cancel: &Arc<AtomicBool>,
        winner: &AtomicU32,
    ) -> Result<Finish, Unsupported> {
        let mut opts = self.opts.search.clone();
        opts.perturb = perturb_key(self.opts.seed, i);
        opts.gpu_share = n;
        let mut s = self.search_with(&opts)?;
        s.cancel = Some(Arc::clone(cancel));
        let next = s.next_model();
        let answered = matches!(next, Next::Model | Next::Exhausted);
        let won = answered && winner.compare_exchange(NONE, i, Ordering::AcqRel, Ordering::Relaxed).is_ok();
        if won {
            cancel.store(true, Ordering::Relaxed);
        }
        let model = (won && next == Next::Model).then(|| {
            let costs = if with_costs { self.costs(&s) } else { Vec::new() };
            (s.engine.atom_values(), costs)
        });
        Ok(Finish { search: i, next, model, stats: s.engine.stats(), engine: s.engine.name() })
    }
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
