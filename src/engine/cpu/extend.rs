//! The engine over an extended problem (core-guided optimization's relaxation variables,
//! `nogoods/relaxation.rs`): an engine built over the new problem takes over what this one
//! learned, its scores and its cost bound.

use super::CpuEngine;
use crate::nogoods::{Lit, Problem};
use crate::stop::{Interrupted, StopToken};
use std::sync::Arc;

impl CpuEngine {
    /// An engine over `p`, which extends this engine's problem by variables and weight
    /// constraints, knowing what this one knows: its level-0 literals, learned nogoods (with
    /// their LBDs), scores, saved phases, cost bound and statistics. This one is left at level 0.
    /// Polls `stop` while the new engine is built.
    pub(super) fn extended(&mut self, p: Arc<Problem>, stop: &StopToken) -> Result<CpuEngine, Interrupted> {
        debug_assert!(p.num_vars >= self.p.num_vars && p.num_atoms == self.p.num_atoms);
        debug_assert!(self.floor == 0 && self.part_root.is_none(), "backtracking and parts do not extend");
        self.conflict.clear();
        self.undo_to(0);
        let mut e = CpuEngine::new_until(p, &self.opts, stop)?;
        e.stats = self.stats.clone();
        e.ufs.found = self.ufs.found;
        e.nogood_inc = self.nogood_inc;
        e.analysed = self.analysed;
        e.dec.inherit(&self.dec);
        if self.alternation.is_some() {
            e.alternation = self.alternation.clone();
            e.rebuild_decider();
        }
        if self.look.is_none() {
            // A lookahead that ended stays ended.
            e.look = None;
        }
        let (bound, strict) = self.cost.bound();
        e.cost.set_bound(bound, strict);
        if self.unsat {
            e.unsat = true;
            e.conflict = vec![Lit::TRUE];
            return Ok(e);
        }
        for &l in &self.a.trail {
            if l.var() != 0 && !e.add_external_nogood(&[!l], None) {
                return Ok(e);
            }
        }
        for (ng, lbd) in self.db.learned_nogoods() {
            if !e.add_external_nogood(ng, Some(lbd)) {
                return Ok(e);
            }
        }
        Ok(e)
    }
}
