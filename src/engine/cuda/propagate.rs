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
use super::device::{DResult, Device, err};
use super::kernels::Kernel;
use super::layout::{Control, EVENT_LEARN, LEARNED_GROUPS, NO_CONFLICT};
use cudarc::driver::{LaunchConfig, PushKernelArg};

impl CudaEngine {
    /// One round driven by the host: frontier-driven input nogoods by class (or, with an empty
    /// frontier, the learned groups), weight constraints, then the merge, from the control
    /// block `c`. Returns the control block after it.
    fn round(&mut self, c: &Control) -> DResult<Control> {
        let d = &mut self.dev;
        let tpb = self.tpb;
        let (qhead, qend) = (c.qhead, c.qend);
        let frontier = (qend - qhead) as usize;
        let kernels = [Kernel::PropBin, Kernel::PropTern, Kernel::PropLong];
        if frontier > 0 {
            for (c, &k) in kernels.iter().enumerate() {
                if self.class_sizes[c] == 0 {
                    continue;
                }
                let cfg = d.cfg(frontier, tpb);
                let (occ_start, occ) = &d.occ[c];
                launch!(d, k, cfg; &d.val, &mut d.prop, &mut d.prop_list, &mut d.prop_reason, &mut d.ctl,
                    &d.trail, &qhead, &qend, occ_start, occ, &d.ng_lits)?;
            }
        }
        for g in 0..LEARNED_GROUPS {
            let count = d.groups[g].count;
            if count == 0 || frontier > 0 {
                continue;
            }
            let cfg = d.cfg(Device::blocks(count as usize, tpb), tpb);
            let group = g as u32;
            let grp = &d.groups[g];
            launch!(d, Kernel::PropLearned, cfg; &d.val, &mut d.prop, &mut d.prop_list, &mut d.prop_reason,
                &mut d.ctl, &grp.start, &grp.lits, &count, &group)?;
        }
        if self.weights > 0 {
            if frontier > 0 {
                let cfg = d.cfg(frontier, tpb);
                launch!(d, Kernel::WeightMark, cfg; &mut d.ctl, &d.trail, &qhead, &qend, &d.w_occ_start, &d.w_occ,
                    &mut d.dirty, &mut d.dirty_list)?;
            }
            // A warp per weight constraint.
            let cfg = d.cfg(Device::blocks(self.weights * 32, tpb), tpb);
            launch!(d, Kernel::WeightCheck, cfg; &d.val, &mut d.prop, &mut d.prop_list, &mut d.prop_reason,
                &mut d.ctl, &mut d.dirty, &d.dirty_list, &d.w_head, &d.w_bound, &d.w_start, &d.w_lits, &d.w_weights)?;
        }
        let nv = self.p.num_vars as usize;
        let cfg = d.cfg(Device::blocks(nv, tpb), tpb);
        let base = c.trail_len;
        launch!(d, Kernel::Merge, cfg; &mut d.val, &mut d.prop, &d.prop_list, &d.prop_reason, &mut d.ctl,
            &mut d.trail, &mut d.trail_pos, &mut d.reason, &base)?;
        if d.deps.is_some() {
            let db = d.db();
            let words = d.words;
            let deps_ptr = d.deps_ptr();
            launch!(d, Kernel::Deps, cfg; &d.val, &d.trail, &d.trail_pos, &d.reason, &mut d.ctl, &deps_ptr,
                &words, &base, &db)?;
        }
        launch!(d, Kernel::RoundEnd, d.cfg(1, 1); &mut d.ctl)?;
        d.read_ctl()
    }

    /// Runs rounds to the fixpoint (or a conflict) in one cooperative launch.
    /// It may also make up to `decide_ahead` decisions at the fixpoints it reaches, and analyse up
    /// to `learn_ahead` conflicts (no more than the search loop's budget) (fixpoint.cu); the
    /// caller takes them in ([`CudaEngine::device_events`]).
    fn fixpoint(&mut self, (blocks, threads): (u32, u32)) -> DResult<Control> {
        // Room for the levels it may open (the host's level is an upper bound while an analysis
        // is pending: that only backjumps).
        self.dev.ensure_level(self.ctl.level + self.decide_ahead, self.p.num_vars, self.tpb)?;
        // Its analyses: room for their nogoods, and activity bumps that stay below the rescaling.
        let mut learn = u64::from(self.learn_ahead).min(self.conflict_budget) as u32;
        if learn > 0 && self.inc * (1.0f32 / 0.95).powi(learn as i32) > 1e30 {
            learn = 0;
        }
        if learn > 0 {
            // The host's counts do not include a queued analysis' nogood yet: room for it too.
            self.dev.reserve_learning_for(learn + self.learn_pending as u32, self.p.num_vars + 1)?;
        }
        let d = &mut self.dev;
        let mut args = d.fix_args(self.class_sizes, self.weights, true, self.entries);
        args.decide = self.decide_ahead;
        args.learn = learn;
        args.pending = self.learn_pending as u32;
        args.inc = self.inc;
        let db = d.db();
        let cfg = LaunchConfig { shared_mem_bytes: d.fix_smem(), ..d.cfg(blocks as usize, threads) };
        let mut b = d.stream.launch_builder(d.k.get(d.fix_kernel));
        b.arg(&args).arg(&db);
        d.mirror.arm();
        // SAFETY: the arguments match the propagation kernels' signature; the grid does not
        // exceed the resident blocks the occupancy query allows (Device::cooperative_grid).
        unsafe { b.launch_cooperative(cfg) }.map_err(err(d.fix_kernel.name()))?;
        // The propagation kernel publishes the control block.
        d.mirror.wait(&d.stream)
    }

    /// Host-driven rounds from the host's control block until a conflict or the fixpoint of all
    /// nogoods; returns the control block at the end.
    fn host_rounds(&mut self) -> DResult<Control> {
        let mut c = self.ctl;
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
                self.level_start.push(e);
                self.stats.decisions += 1;
                self.decided_on_device += 1;
                continue;
            }
            let len = c.an_len[an];
            if !(pending && an == 0) {
                // What was propagated since the last backjump's assertion (or the launch).
                self.stats.propagations += u64::from(c.an_trail[an].saturating_sub(self.ctl.trail_len));
                self.stats.conflicts += 1;
                self.resolved_here += 1;
                self.conflict_budget = self.conflict_budget.saturating_sub(1);
                self.learned_on_device += 1;
                self.bump_inc()?;
            }
            if self.reference.is_some() {
                self.check_stored_against_reference(len, c)?;
            }
            self.analysis_applied(len, e & !EVENT_LEARN);
            an += 1;
        }
        debug_assert_eq!(self.level_start.len(), c.level as usize + 1, "levels after the launch");
        if c.events > 0 {
            log::trace!("{} events on the device, up to level {}", c.events, c.level);
        }
        self.check_fill()?;
        self.check_ground_rows()
    }

    /// The device's propagation to the fixpoint of all nogoods; false on a conflict.
    fn device_fixpoint(&mut self) -> DResult<bool> {
        if self.conflict || self.unsat {
            return Ok(false);
        }
        if !(self.pending || self.ctl.qhead < self.ctl.qend || self.ctl.ndirty > 0) {
            return Ok(true);
        }
        let c = match self.coop {
            Some(grid) => self.fixpoint(grid)?,
            None => {
                // The host drives the rounds from its mirror, which must be current.
                self.settle_learning()?;
                self.host_rounds()?
            }
        };
        if self.coop.is_some() {
            // The analysis queued before this propagation and the kernel's own decisions and
            // analyses, as the control block after it tells; or the end of the search, when one
            // of the analyses met a conflict at level 0.
            let pending = std::mem::take(&mut self.learn_pending);
            self.device_events(&c, pending)?;
            match c.unsat {
                0 => {}
                1 => {
                    self.unsat = true;
                    self.ctl = c;
                    return Ok(false);
                }
                _ => return Err("conflict analysis found no literal to resolve (internal error)".into()),
            }
        }
        self.pending = false;
        let before = (self.ctl.trail_len, self.ctl.rounds);
        self.ctl = c;
        self.changed();
        self.stats.propagations += u64::from(self.ctl.trail_len - before.0);
        self.stats.rounds += u64::from(self.ctl.rounds.wrapping_sub(before.1));
        if self.ctl.conflict != NO_CONFLICT {
            self.conflict = true;
            return Ok(false);
        }
        if self.coop.is_some() {
            // propagate_fix_k ranked the decisions at this fixpoint.
            self.ranked = Some(self.ctl.ranked);
        }
        Ok(true)
    }
}
