//! Decisions and completion for the CUDA engine: the decision propagate_fix_k ranked at its
//! fixpoint (applied with force_decision_k, no read-back) or, after host-driven rounds, by
//! decide_k; the whole-database check before a total assignment is accepted; and the completion's
//! fallbacks when no rule is applicable (the host's unfounded-set check from scratch, then an
//! unassigned atom decided false).

use super::device::{DResult, Device, err};
use super::kernels::Kernel;
use super::layout::{LEARNED_GROUPS, NO_CONFLICT, R_LEARNED};
use super::{CudaEngine, nogoods};
use crate::engine::Completion;
use crate::nogoods::Lit;
use cudarc::driver::PushKernelArg;

impl CudaEngine {
    /// Runs the whole-database check (the safety net before accepting a total assignment).
    fn check_total(&mut self) -> DResult<bool> {
        let d = &mut self.dev;
        let tpb = self.tpb;
        let n_input = self.p.store.len() as u32;
        if n_input > 0 {
            let cfg = d.cfg(Device::blocks(n_input as usize, tpb), tpb);
            let (kind, group) = (2u32, 0u32);
            launch!(d, Kernel::CheckNogoods, cfg; &d.val, &mut d.ctl, &d.ng_start, &d.ng_lits, &n_input, &kind, &group)?;
        }
        for g in 0..LEARNED_GROUPS {
            let count = d.groups[g].count;
            if count > 0 {
                let cfg = d.cfg(Device::blocks(count as usize, tpb), tpb);
                let (kind, group) = (R_LEARNED, g as u32);
                let grp = &d.groups[g];
                launch!(d, Kernel::CheckNogoods, cfg; &d.val, &mut d.ctl, &grp.start, &grp.lits, &count, &kind, &group)?;
            }
        }
        if self.weights > 0 {
            let cfg = d.cfg(Device::blocks(self.weights, tpb), tpb);
            let db = d.db();
            let count = self.weights as u32;
            launch!(d, Kernel::CheckWeights, cfg; &d.val, &mut d.ctl, &count, &db)?;
        }
        self.ctl = d.read_ctl()?;
        Ok(self.ctl.conflict == NO_CONFLICT)
    }

    pub(super) fn try_decide(&mut self) -> DResult<Option<Lit>> {
        if let Some(key) = self.ranked.take() {
            if key == 0 {
                return Ok(None);
            }
            let e = (u32::MAX - key as u32) as usize;
            let lit = match self.e_head[e] {
                NO_CONFLICT => Lit(self.b_lit[self.e_body[e] as usize]),
                h => Lit::pos(h),
            };
            self.force_decision(lit)?;
            log::trace!("decision {lit:?} at level {} (ranked at the fixpoint)", self.ctl.level);
            return Ok(Some(lit));
        }
        let lv = self.ctl.level + 1;
        self.dev.ensure_level(lv, self.p.num_vars, self.tpb)?;
        let d = &mut self.dev;
        let n_entries = self.entries;
        let cfg = d.cfg(Device::blocks(n_entries as usize, self.tpb), self.tpb);
        launch!(d, Kernel::Decide, cfg; &d.val, &mut d.ctl, &d.e_body, &d.e_head, &n_entries, &d.b_lit, &d.def_start,
            &d.def_lits, &d.def_weights, &d.bound, &d.score)?;
        let deps = d.deps_ptr();
        let words = d.words;
        launch!(d, Kernel::ApplyDecision, d.cfg(1, 1); &mut d.ctl, &mut d.val, &mut d.trail, &mut d.trail_pos,
            &mut d.reason, &mut d.level_start, &d.e_body, &d.e_head, &d.b_lit, &deps, &words)?;
        let c = d.read_ctl()?;
        if c.decided == NO_CONFLICT {
            return Ok(None);
        }
        self.level_start.push(self.ctl.trail_len);
        self.ctl = c;
        self.stats.decisions += 1;
        log::trace!("decision {:?} at level {} (trail {})", Lit(c.decided), c.level, c.trail_len);
        self.changed();
        Ok(Some(Lit(c.decided)))
    }

    fn force_decision(&mut self, l: Lit) -> DResult<()> {
        let lv = self.ctl.level + 1;
        self.dev.ensure_level(lv, self.p.num_vars, self.tpb)?;
        let d = &mut self.dev;
        let deps = d.deps_ptr();
        let words = d.words;
        launch!(d, Kernel::ForceDecision, d.cfg(1, 1); &mut d.ctl, &mut d.val, &mut d.trail, &mut d.trail_pos,
            &mut d.reason, &mut d.level_start, &l.0, &deps, &words)?;
        // The host mirror follows force_decision_k: no read-back.
        let pos = self.ctl.trail_len;
        self.level_start.push(pos);
        self.ctl.level += 1;
        self.ctl.trail_len = pos + 1;
        self.ctl.qhead = pos;
        self.ctl.qend = pos + 1;
        self.ctl.decided = l.0;
        self.stats.decisions += 1;
        self.changed();
        Ok(())
    }

    /// The host's unfounded-set check of the current assignment, from scratch (the safety net
    /// behind the eager check): loop nogoods for what it finds are added (true), or nothing is
    /// unfounded (false).
    fn add_unfounded_loops(&mut self) -> DResult<bool> {
        let val = &self.snapshot()?.0;
        let found = self.loops.unfounded_nogoods(&self.p, |l| Self::value_in(val, l));
        if found.is_empty() {
            return Ok(false);
        }
        // Level 0: a literal false there satisfies the nogood for good; a true one is left out.
        let fixed = |l: Lit| Self::value_in(val, l).filter(|_| Self::level_in(val, l) == 0);
        let nogoods: Vec<Vec<Lit>> = found
            .into_iter()
            .filter(|ng| !ng.iter().any(|&l| fixed(l) == Some(false)))
            .map(|ng| ng.into_iter().filter(|&l| fixed(l).is_none()).collect())
            .collect();
        let violated = nogoods.iter().position(|ng| ng.iter().all(|&l| Self::value_in(val, l) == Some(true)));
        let level = |l: Lit| Self::value_in(val, l).map(|_| Self::level_in(val, l));
        let lbd: Vec<u32> = nogoods.iter().map(|ng| nogoods::lbd_of(ng, level)).collect();
        self.stats.unfounded_sets += 1;
        self.add_loop_nogoods(&nogoods, &lbd, violated, true)?;
        Ok(true)
    }

    pub(super) fn try_complete(&mut self) -> DResult<Completion> {
        let nv = self.p.num_vars;
        if self.ctl.trail_len == nv {
            if !self.check_total()? {
                log::debug!("the whole-database check found a missed conflict");
                self.conflict = true;
                return Ok(Completion::Falsified);
            }
            if !self.p.is_tight() && self.add_unfounded_loops()? {
                return Ok(Completion::Falsified);
            }
            return Ok(Completion::Total);
        }
        self.stats.completions += 1;
        if self.add_unfounded_loops()? {
            return Ok(Completion::Falsified);
        }
        let val = &self.snapshot()?.0;
        let v = (1..nv).find(|&v| val[v as usize] == 0).expect("not total");
        log::warn!("no applicable rule and no unfounded set; deciding F{v}");
        self.force_decision(Lit::neg(v))?;
        Ok(Completion::Decided)
    }
}
