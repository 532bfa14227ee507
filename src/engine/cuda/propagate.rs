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
use super::layout::{Control, LEARNED_GROUPS, NO_CONFLICT};
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
    /// It may also make up to `decide_ahead` decisions at the fixpoints it reaches
    /// (fixpoint.cu); the caller takes them in ([`CudaEngine::device_decisions`]).
    fn fixpoint(&mut self, (blocks, threads): (u32, u32)) -> DResult<Control> {
        // Room for the levels it may open (the host's level is an upper bound while an analysis
        // is pending: that only backjumps).
        self.dev.ensure_level(self.ctl.level + self.decide_ahead, self.p.num_vars, self.tpb)?;
        let d = &mut self.dev;
        let mut args = d.fix_args(self.class_sizes, self.weights, true, self.entries);
        args.decide = self.decide_ahead;
        let db = d.db();
        let cfg = LaunchConfig { shared_mem_bytes: d.shared.bytes(), ..d.cfg(blocks as usize, threads) };
        let mut b = d.stream.launch_builder(d.k.get(Kernel::PropagateFix));
        b.arg(&args).arg(&db);
        d.mirror.arm();
        // SAFETY: the arguments match propagate_fix_k's signature; the grid does not exceed the
        // resident blocks the occupancy query allows (Device::cooperative_grid).
        unsafe { b.launch_cooperative(cfg) }.map_err(err(Kernel::PropagateFix.name()))?;
        // propagate_fix_k publishes the control block.
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

    /// The host's side of the decisions propagate_fix_k made (after the analysis queued before
    /// it, whose backjump the host has applied): their levels' starts, and the count.
    fn device_decisions(&mut self, c: &Control) {
        let made = c.made as usize;
        debug_assert!(made <= self.decide_ahead as usize);
        debug_assert_eq!(
            self.level_start.len() + made,
            c.level as usize + 1,
            "levels before and after the launch"
        );
        self.level_start.extend_from_slice(&c.dec_pos[..made]);
        self.stats.decisions += made as u64;
        self.decided_on_device += made as u64;
        if made > 0 {
            log::trace!("{made} decisions on the device, up to level {}", c.level);
        }
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
        // The analysis queued before this propagation, as the control block after it tells.
        if self.learn_pending {
            self.learned_applied(&c)?;
            if self.unsat {
                self.ctl = c;
                return Ok(false);
            }
        }
        if self.coop.is_some() {
            self.device_decisions(&c);
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
