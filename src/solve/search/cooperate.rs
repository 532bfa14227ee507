//! What a search of a parallel run gives and takes (`exchange.rs`): the nogoods it learned go out
//! after each conflict; the others' nogoods and the shared best cost come in at each restart and,
//! between restarts, every [`INTEGRATE_EVERY`] propagation fixpoints; its conflicts and restarts
//! go into the run's progress.

use super::{INTEGRATE_EVERY, Search};
use crate::engine::EngineResult;
use crate::solve::SolveError;

impl Search<'_> {
    /// Bounds the costs of further models by the shared bound, if another search improved it
    /// since this one last looked.
    pub fn take_shared_bound(&mut self) -> Result<(), SolveError> {
        if let Some(bound) = self.shared_bound.as_ref().and_then(|b| b.newer(&mut self.bound_seen)) {
            self.set_cost_bound(Some(bound), true)?;
        }
        Ok(())
    }

    /// Gives the other searches what the engine learned for them.
    pub(super) fn send(&mut self) -> EngineResult<()> {
        if let Some(port) = self.exchange.as_mut() {
            self.engine.take_exports(&mut self.outgoing);
            port.export(&mut self.outgoing);
        }
        Ok(())
    }

    /// Adds this search's conflicts and restarts since the last time to the run's progress.
    pub(super) fn count_progress(&mut self) {
        if let Some(p) = &self.progress {
            let st = self.engine.stats();
            // A replaced engine (the CPU's for a failed GPU) counts from 0 again.
            p.add_search(
                st.conflicts.saturating_sub(self.counted.0),
                st.restarts.saturating_sub(self.counted.1),
            );
            self.counted = (st.conflicts, st.restarts);
        }
    }

    /// Whether the others' nogoods and bound are to be taken in at this fixpoint, between
    /// restarts: every [`INTEGRATE_EVERY`] fixpoints, as clasp integrates at propagation
    /// fixpoints at any level. Not while enumerating by backtracking (nothing may go below its
    /// backtrack level, and a part's search shares only at restarts).
    pub(super) fn integrate_due(&mut self) -> bool {
        if self.exchange.is_none() && self.shared_bound.is_none() || self.backtracking {
            return false;
        }
        self.since_integrate += 1;
        if self.since_integrate < INTEGRATE_EVERY {
            return false;
        }
        self.since_integrate = 0;
        true
    }

    /// Takes in what the other searches learned (after a restart, or at a fixpoint between:
    /// the engine adds each nogood under the current assignment); false if no model is left.
    pub(super) fn receive(&mut self) -> EngineResult<bool> {
        let Some(port) = self.exchange.as_mut() else { return Ok(true) };
        let engine = &mut self.engine;
        let mut failed = None;
        let ok = port.import(|ng, lbd| match engine.import(ng, lbd) {
            Ok(ok) => ok,
            Err(e) => {
                failed = Some(e);
                false
            }
        });
        failed.map_or(Ok(ok), Err)
    }

    /// The engine's statistics, this search's exchange and its candidate check.
    pub fn stats(&mut self) -> crate::engine::EngineStats {
        let mut st = self.engine.stats();
        if let Some(check) = self.check.as_mut() {
            check.add_stats(&mut st);
        }
        if let Some(port) = &self.exchange {
            st.exported += port.exported;
            st.imported += port.imported;
        }
        st
    }
}
