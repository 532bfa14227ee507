//! The search loop, written once over [`Engine`] (the paper's Algorithm 1): propagate; on a
//! conflict learn and backjump (or stop at level 0); otherwise decide an applicable rule, or
//! complete the assignment when none is left. Restarts, deletion of learned nogoods and the
//! limits are scheduled here, the same for every engine.

use super::limits::{Limits, Stop};
use super::minimality::Minimality;
use super::portfolio::SharedBound;
use crate::cli::Restarts;
use crate::engine::{Completion, Engine};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What the search reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A total assignment that passed every propagator (a candidate answer set).
    Model,
    /// No (more) answer sets.
    Exhausted,
    /// A limit or a signal stopped the search.
    Interrupted(Stop),
}

/// When to restart: after `limit` conflicts, following the Luby sequence or a geometric series.
pub struct RestartSchedule {
    policy: Restarts,
    index: u32,
    limit: u64,
    since: u64,
}

/// The i-th element (1-based) of the Luby sequence 1 1 2 1 1 2 4 ...
pub fn luby(mut i: u64) -> u64 {
    loop {
        let k = 64 - i.leading_zeros() as u64;
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

impl RestartSchedule {
    pub fn new(policy: Restarts) -> Self {
        let mut s = RestartSchedule { policy, index: 0, limit: u64::MAX, since: 0 };
        s.advance();
        s
    }

    fn advance(&mut self) {
        self.index += 1;
        self.since = 0;
        self.limit = match self.policy {
            Restarts::Luby(unit) => unit.saturating_mul(luby(self.index as u64)),
            Restarts::Geometric(n, f) => (n as f64 * f.powi(self.index as i32 - 1)).min(1e18) as u64,
            Restarts::No => u64::MAX,
        };
    }

    /// Conflicts until the restart: the `left()`-th call of `conflict` returns true.
    pub fn left(&self) -> u64 {
        self.limit - self.since
    }

    /// Counts `n` conflicts resolved without the loop, fewer than `left()`.
    pub fn skip(&mut self, n: u64) {
        debug_assert!(n < self.left(), "a restart skipped");
        self.since += n;
    }

    /// Counts a conflict; true when a restart is due.
    pub fn conflict(&mut self) -> bool {
        self.since += 1;
        if self.since >= self.limit {
            self.advance();
            return true;
        }
        false
    }
}

pub struct Search<'e> {
    pub engine: Box<dyn Engine + 'e>,
    /// For programs with head cycles: the check every total assignment must pass.
    pub minimality: Option<Minimality<'e>>,
    restarts: RestartSchedule,
    conflicts: u64,
    next_reduce: u64,
    reduce_step: u64,
    limits: Limits,
    ticks: u64,
    /// Set by another search of a parallel run that answered first (solve/portfolio.rs): this
    /// one then stops at its next step.
    pub cancel: Option<Arc<AtomicBool>>,
    /// The best cost of a parallel optimization's searches, taken up at each restart (at level
    /// 0), and the version of it taken up last.
    pub shared_bound: Option<Arc<SharedBound>>,
    bound_seen: u64,
}

impl<'e> Search<'e> {
    pub fn new(engine: Box<dyn Engine + 'e>, restarts: Restarts, limits: Limits) -> Self {
        Search {
            engine,
            minimality: None,
            restarts: RestartSchedule::new(restarts),
            conflicts: 0,
            next_reduce: 2000,
            reduce_step: 300,
            limits,
            ticks: 0,
            cancel: None,
            shared_bound: None,
            bound_seen: 0,
        }
    }

    /// Bounds the costs of further models by the shared bound, if another search improved it
    /// since this one last looked.
    pub fn take_shared_bound(&mut self) {
        if let Some(bound) = self.shared_bound.as_ref().and_then(|b| b.newer(&mut self.bound_seen)) {
            self.engine.set_cost_bound(Some(bound), true);
        }
    }

    /// Runs until the next total assignment, exhaustion or a limit.
    pub fn next_model(&mut self) -> Next {
        loop {
            self.ticks += 1;
            if self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Next::Interrupted(Stop::Cancelled);
            }
            if self.ticks.is_multiple_of(512)
                && let Some(stop) = self.limits.reached()
            {
                return Next::Interrupted(stop);
            }
            // The engine may resolve conflicts inside propagate, up to the next restart or
            // deletion (exclusive: the conflict that makes one due comes back here).
            let due = self.restarts.left().min(self.next_reduce.saturating_sub(self.conflicts));
            self.engine.set_conflict_budget(due.saturating_sub(1));
            let ok = self.engine.propagate();
            let resolved = self.engine.take_resolved();
            if resolved > 0 {
                self.conflicts += resolved;
                self.restarts.skip(resolved);
            }
            if !ok {
                if !self.engine.resolve_conflict() {
                    return Next::Exhausted;
                }
                self.conflicts += 1;
                if self.restarts.conflict() {
                    self.engine.restart();
                    self.take_shared_bound();
                }
                if self.conflicts >= self.next_reduce {
                    self.next_reduce = self.conflicts + self.reduce_step + 2000;
                    self.reduce_step += 300;
                    self.engine.reduce_learned();
                }
                continue;
            }
            if self.engine.decide().is_some() {
                continue;
            }
            if self.engine.complete() == Completion::Total {
                let Some(check) = self.minimality.as_mut() else { return Next::Model };
                let nogoods = check.check(&self.engine.atom_values());
                if nogoods.is_empty() {
                    return Next::Model;
                }
                for ng in nogoods {
                    if !self.engine.add_nogood(&ng) {
                        return Next::Exhausted;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence() {
        let s: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(s, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn geometric_schedule() {
        let mut r = RestartSchedule::new(Restarts::Geometric(2, 2.0));
        let fired: Vec<bool> = (0..6).map(|_| r.conflict()).collect();
        // Limits 2, 4, 8, ...: restarts after conflicts 2 and 6.
        assert_eq!(fired, vec![false, true, false, false, false, true]);
    }
}
