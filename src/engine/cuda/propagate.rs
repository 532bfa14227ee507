//! Unit propagation on the device, driven one of two ways: by the device (`propagate_fix_k`, one
//! cooperative launch runs the rounds to the fixpoint) or by the host (a launch per step of a
//! round and a read-back of the control block after each). Both run the same device functions
//! of `kernels/propagate.cu`, so they propagate alike; only the launch overhead differs.
//!
//! A round with a frontier checks the input nogoods and weight constraints the frontier touches;
//! the learned nogoods, which have no occurrence lists, are swept (one thread each) only in a
//! round with an empty frontier, that is at the fixpoint of the input nogoods. Propagation ends
//! after a sweep that merged nothing: then every nogood has been checked against the final
//! assignment. Sweeping at every round instead cost a pass over all learned nogoods per round.

use super::CudaEngine;
use super::args::{
    DepsArgs, FixpointArgs, MergeArgs, PropClassArgs, PropLearnedArgs, RoundEndArgs, WeightCheckArgs,
    WeightMarkArgs,
};
use super::device::DResult;
use super::kernels::Kernel;
use super::launch::cfg;
use super::layout::{Control, EVENT_LEARN, LEARNED_GROUPS, NO_CONFLICT};
use cudarc::driver::LaunchConfig;

impl CudaEngine {
    /// One round driven by the host: frontier-driven input nogoods by class (or, with an empty
    /// frontier, the learned groups), weight constraints, then the merge, from the control
    /// block `c`. Returns the control block after it.
    fn round(&mut self, c: &Control) -> DResult<Control> {
        let d = &mut self.dev;
        let tpb = d.gpu.tpb;
        let (qhead, qend) = (c.qhead, c.qend);
        let frontier = (qend - qhead) as usize;
        let kernels = [Kernel::PropBin, Kernel::PropTern, Kernel::PropLong];
        if frontier > 0 {
            for (c, &k) in kernels.iter().enumerate() {
                if d.input.class_sizes[c] == 0 {
                    continue;
                }
                let (occ_start, occ) = &d.input.occ[c];
                let a = &mut d.assignment;
                let args = PropClassArgs {
                    val: &a.val,
                    prop: &mut a.prop,
                    prop_list: &mut a.prop_list,
                    prop_reason: &mut a.prop_reason,
                    ctl: &mut a.ctl,
                    trail: &a.trail,
                    qhead,
                    qend,
                    occ_start,
                    occ,
                    ng_lits: &d.input.ng_lits,
                };
                d.gpu.launch_kernel(k, cfg(frontier, tpb), args)?;
            }
        }
        for g in 0..LEARNED_GROUPS {
            let count = d.groups[g].count;
            if count == 0 || frontier > 0 {
                continue;
            }
            let grp = &d.groups[g];
            let a = &mut d.assignment;
            let args = PropLearnedArgs {
                val: &a.val,
                prop: &mut a.prop,
                prop_list: &mut a.prop_list,
                prop_reason: &mut a.prop_reason,
                ctl: &mut a.ctl,
                start: &grp.start,
                lits: &grp.lits,
                count,
                group: g as u32,
            };
            d.gpu.launch(d.gpu.per_item(count as usize), args)?;
        }
        if d.weights.count > 0 {
            let (a, w) = (&mut d.assignment, &mut d.weights);
            if frontier > 0 {
                let args = WeightMarkArgs {
                    ctl: &mut a.ctl,
                    trail: &a.trail,
                    qhead,
                    qend,
                    occ_start: &w.w_occ_start,
                    occ: &w.w_occ,
                    dirty: &mut w.dirty,
                    dirty_list: &mut w.dirty_list,
                };
                d.gpu.launch(cfg(frontier, tpb), args)?;
            }
            // A warp per weight constraint.
            let args = WeightCheckArgs {
                val: &a.val,
                prop: &mut a.prop,
                prop_list: &mut a.prop_list,
                prop_reason: &mut a.prop_reason,
                ctl: &mut a.ctl,
                dirty: &mut w.dirty,
                dirty_list: &mut w.dirty_list,
                head: &w.w_head,
                bound: &w.w_bound,
                start: &w.w_start,
                lits: &w.w_lits,
                weights: &w.w_weights,
            };
            d.gpu.launch(d.gpu.per_item(w.count * 32), args)?;
        }
        let nv = self.p.num_vars as usize;
        let merge_cfg = d.gpu.per_item(nv);
        let base = c.trail_len;
        let a = &mut d.assignment;
        let args = MergeArgs {
            val: &mut a.val,
            prop: &mut a.prop,
            prop_list: &mut a.prop_list,
            prop_reason: &mut a.prop_reason,
            ctl: &mut a.ctl,
            trail: &mut a.trail,
            trail_pos: &mut a.trail_pos,
            reason: &mut a.reason,
            base,
        };
        d.gpu.launch(merge_cfg, args)?;
        if d.deps.table.is_some() {
            let db = d.db();
            let words = d.deps.words;
            let deps = d.deps.ptr(&d.gpu);
            let a = &mut d.assignment;
            let args = DepsArgs {
                val: &a.val,
                trail: &a.trail,
                trail_pos: &a.trail_pos,
                reason: &a.reason,
                ctl: &mut a.ctl,
                deps,
                words,
                base,
                db,
            };
            d.gpu.launch(merge_cfg, args)?;
        }
        d.gpu.launch(cfg(1, 1), RoundEndArgs { ctl: &mut d.assignment.ctl })?;
        d.read_ctl()
    }

    /// Runs rounds to the fixpoint (or a conflict) in one cooperative launch.
    /// It may also make up to `decide_ahead` decisions at the fixpoints it reaches, and analyse up
    /// to `learn_ahead` conflicts (no more than the search loop's budget) (fixpoint.cu); the
    /// caller takes them in ([`CudaEngine::device_events`]).
    fn fixpoint(&mut self, (blocks, threads): (u32, u32)) -> DResult<Control> {
        let b = &self.budgets;
        // Room for the levels it may open (the host's level is an upper bound while an analysis
        // is pending: that only backjumps).
        self.dev.deps.ensure_level(&self.dev.gpu, self.mirror.ctl.level + b.decide_ahead, self.p.num_vars)?;
        // Its analyses: room for their nogoods, and activity bumps that stay below the rescaling.
        let mut learn = u64::from(b.learn_ahead).min(b.conflict_budget) as u32;
        if learn > 0 && self.analysis.inc * (1.0f32 / 0.95).powi(learn as i32) > 1e30 {
            learn = 0;
        }
        if learn > 0 {
            // The host's counts do not include a queued analysis' nogood yet: room for it too.
            self.dev
                .groups
                .reserve_learning_for(learn + self.mirror.learn_pending as u32, self.p.num_vars + 1)?;
        }
        let d = &mut self.dev;
        let mut a = d.fix_args(true, self.decisions.entries);
        a.decide = b.decide_ahead;
        a.learn = learn;
        a.pending = self.mirror.learn_pending as u32;
        a.inc = self.analysis.inc;
        let db = d.db();
        let grid = LaunchConfig { shared_mem_bytes: d.smem.fix_bytes(), ..cfg(blocks as usize, threads) };
        d.ctl_mirror.arm();
        d.gpu.launch_cooperative(d.coop.kernel, grid, FixpointArgs { a, db })?;
        // The propagation kernel publishes the control block.
        d.ctl_mirror.wait(&d.gpu.stream)
    }

    /// Host-driven rounds from the host's control block until a conflict or the fixpoint of all
    /// nogoods; returns the control block at the end.
    fn host_rounds(&mut self) -> DResult<Control> {
        let mut c = self.mirror.ctl;
        loop {
            let swept = c.qhead == c.qend;
            let before = c.trail_len;
            c = self.round(&c)?;
            log::trace!(
                "round: trail {} -> {}, frontier {}..{}, level {}, conflict {:#x}/{}",
                before,
                c.trail_len,
                c.qhead,
                c.qend,
                c.level,
                c.conflict,
                c.conflict_aux
            );
            // A round that merged nothing (round_end_k leaves no dirty weight constraint) is a
            // fixpoint of the input nogoods, and of all nogoods if it swept the learned ones.
            if c.conflict != NO_CONFLICT || (swept && c.qhead == c.qend) {
                return Ok(c);
            }
        }
    }

    /// Propagation to the fixpoint of all nogoods and, in programs that are not tight, of the
    /// host's unfounded-set check; false on a conflict.
    pub(super) fn try_propagate(&mut self) -> DResult<bool> {
        loop {
            if !self.device_fixpoint()? {
                return Ok(false);
            }
            if !self.propagate_unfounded()? {
                return Ok(true);
            }
        }
    }

    /// The host's side of what propagate_fix_k did, in order: the analysis queued before it
    /// (first, when `pending`: counted as a conflict when it was launched), then its own
    /// decisions and analyses (whose levels, backjumps, nogoods and activity bumps the host
    /// mirrors).
    fn device_events(&mut self, c: &Control, pending: bool) -> DResult<()> {
        let mut an = 0;
        for &e in &c.event[..c.events as usize] {
            if e & EVENT_LEARN == 0 {
                self.mirror.level_start.push(e);
                self.stats.decisions += 1;
                self.budgets.decided_on_device += 1;
                continue;
            }
            let len = c.an_len[an];
            if !(pending && an == 0) {
                // What was propagated since the last backjump's assertion (or the launch).
                self.stats.propagations +=
                    u64::from(c.an_trail[an].saturating_sub(self.mirror.ctl.trail_len));
                self.stats.conflicts += 1;
                self.budgets.resolved_here += 1;
                self.budgets.conflict_budget = self.budgets.conflict_budget.saturating_sub(1);
                self.budgets.learned_on_device += 1;
                self.bump_inc()?;
            }
            if self.analysis.reference.is_some() {
                self.check_stored_against_reference(len, c)?;
            }
            self.analysis_applied(len, e & !EVENT_LEARN);
            an += 1;
        }
        debug_assert_eq!(self.mirror.level_start.len(), c.level as usize + 1, "levels after the launch");
        if c.events > 0 {
            log::trace!("{} events on the device, up to level {}", c.events, c.level);
        }
        self.check_fill()?;
        self.check_ground_rows()
    }

    /// The device's propagation to the fixpoint of all nogoods; false on a conflict.
    fn device_fixpoint(&mut self) -> DResult<bool> {
        let m = &self.mirror;
        if m.conflict || m.unsat {
            return Ok(false);
        }
        if !(m.pending || m.ctl.qhead < m.ctl.qend || m.ctl.ndirty > 0) {
            return Ok(true);
        }
        let c = match self.dev.coop.grid {
            Some(grid) => self.fixpoint(grid)?,
            None => {
                // The host drives the rounds from its mirror, which must be current.
                self.settle_learning()?;
                self.host_rounds()?
            }
        };
        if self.dev.coop.grid.is_some() {
            // The analysis queued before this propagation and the kernel's own decisions and
            // analyses, as the control block after it tells; or the end of the search, when one
            // of the analyses met a conflict at level 0.
            let pending = std::mem::take(&mut self.mirror.learn_pending);
            self.device_events(&c, pending)?;
            match c.unsat {
                0 => {}
                1 => {
                    self.mirror.unsat = true;
                    self.mirror.ctl = c;
                    return Ok(false);
                }
                _ => return Err("conflict analysis found no literal to resolve (internal error)".into()),
            }
        }
        self.mirror.pending = false;
        let before = (self.mirror.ctl.trail_len, self.mirror.ctl.rounds);
        self.mirror.ctl = c;
        self.changed();
        self.stats.propagations += u64::from(self.mirror.ctl.trail_len - before.0);
        self.stats.rounds += u64::from(self.mirror.ctl.rounds.wrapping_sub(before.1));
        if self.mirror.ctl.conflict != NO_CONFLICT {
            self.mirror.conflict = true;
            return Ok(false);
        }
        if self.dev.coop.grid.is_some() {
            // propagate_fix_k ranked the decisions at this fixpoint.
            self.decisions.ranked = Some(self.mirror.ctl.ranked);
        }
        Ok(true)
    }
}
