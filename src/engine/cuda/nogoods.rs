//! Nogoods that reach the device from outside the propagation kernels: learned ones stored into
//! their length group and asserted, and the host's nogoods (blocking, loop nogoods). Each comes
//! with its LBD, which deletion ([`super::reduce`]) ranks by.

use super::CudaEngine;
use super::device::{DResult, err};
use super::kernels::Kernel;
use super::layout::{LEARNED_GROUPS, R_UNIT, group_of, learned_reason, reason};
use crate::nogoods::Lit;
use cudarc::driver::PushKernelArg;

/// The LBD of a nogood from the host ([`crate::engine::lbd`]): the decision levels of its
/// assigned literals (by `level`), one more for its unassigned ones.
pub(super) fn lbd_of(lits: &[Lit], level: impl Fn(Lit) -> Option<u32>) -> u32 {
    crate::engine::lbd(lits.iter().map(|&l| level(l).unwrap_or(u32::MAX)))
}

impl CudaEngine {
    /// Makes room in the group of a nogood of `len` literals; returns the group, the offset and
    /// index the nogood will have there, and the reason code that names it.
    fn learned_slot(&mut self, len: u32) -> DResult<(usize, u32, u32, u32)> {
        let g = group_of(len as usize);
        self.dev.reserve(g, 1, len)?;
        let grp = &self.dev.groups[g];
        let (offset, index) = (grp.used, grp.count);
        Ok((g, offset, index, learned_reason(g, index)))
    }

    /// Counts the nogood just written into group `g` (by the host or a learning kernel).
    pub(super) fn learned_stored(&mut self, g: usize, len: u32) {
        let grp = &mut self.dev.groups[g];
        grp.used += len;
        grp.count += 1;
        self.learned += 1;
    }

    /// Stores the nogood in `dev.learned` (its first `len` entries) into its group, with `lbd`;
    /// returns the reason code that names it.
    pub(super) fn store_learned(&mut self, len: u32, lbd: u32) -> DResult<u32> {
        let (g, offset, index, code) = self.learned_slot(len)?;
        let d = &mut self.dev;
        let cfg = d.cfg(1, 256);
        let grp = &mut d.groups[g];
        let mut b = d.stream.launch_builder(d.k.get(Kernel::AppendLearned));
        b.arg(&d.learned).arg(&len).arg(&mut grp.lits).arg(&mut grp.start).arg(&mut grp.lbd);
        b.arg(&offset).arg(&index).arg(&lbd);
        // SAFETY: arguments in the order of append_learned_k's signature.
        unsafe { b.launch(cfg) }.map_err(err("append_learned_k"))?;
        self.learned_stored(g, len);
        self.dev.upload_fill()?;
        Ok(code)
    }

    /// Asserts the complement of `dev.learned[0]` at the current level with `code` as reason.
    pub(super) fn assert_learned(&mut self, len: u32, code: u32) -> DResult<()> {
        let d = &mut self.dev;
        let deps = d.deps_ptr();
        let words = d.words;
        launch!(d, Kernel::Assert, d.cfg(1, 1); &mut d.ctl, &mut d.val, &mut d.trail, &mut d.trail_pos,
            &mut d.reason, &d.learned, &len, &code, &deps, &words)?;
        self.asserted();
        Ok(())
    }

    /// The host mirror follows an assertion: one more literal, the new frontier.
    pub(super) fn asserted(&mut self) {
        self.ctl.trail_len += 1;
        self.ctl.qhead = self.ctl.trail_len - 1;
        self.ctl.qend = self.ctl.trail_len;
        self.pending = true;
        self.changed();
    }

    /// Adds a nogood from the host (blocking, loop nogoods): stored as learned; violated ones
    /// become the conflict, unit ones are asserted at their level.
    pub(super) fn add_host_nogood(&mut self, lits: &[Lit]) -> DResult<bool> {
        if self.unsat {
            return Ok(false);
        }
        let val = self.snapshot()?.0.clone();
        let mut ng: Vec<Lit> = Vec::with_capacity(lits.len());
        for &l in lits {
            match (Self::value_in(&val, l), Self::level_in(&val, l)) {
                (Some(true), 0) => {}
                (Some(false), 0) => return Ok(true),
                _ => ng.push(l),
            }
        }
        ng.sort_unstable();
        ng.dedup();
        if ng.windows(2).any(|w| w[0] == !w[1]) {
            return Ok(true);
        }
        let is_true = |l: &Lit| Self::value_in(&val, *l) == Some(true);
        ng.sort_by_key(|l| if is_true(l) { (1u8, u32::MAX - Self::level_in(&val, *l)) } else { (0, 0) });
        let non_true = ng.iter().filter(|l| !is_true(l)).count();
        if ng.is_empty() {
            self.unsat = true;
            return Ok(false);
        }
        if self.conflict && ng.len() == 1 {
            // A conflict is pending: no backjump now; {l} is stored as {l, T0}.
            ng.push(Lit::TRUE);
        }
        let upload: Vec<u32> = ng.iter().map(|l| l.0).collect();
        self.dev
            .stream
            .memcpy_htod(&upload, &mut self.dev.learned.slice_mut(..upload.len()))
            .map_err(err("upload"))?;
        let len = ng.len() as u32;
        if ng.len() == 1 && !self.conflict {
            // Level-0 values were handled above: the literal is free at level 0.
            self.backjump(0)?;
            self.assert_learned(1, reason(R_UNIT, 0))?;
            return Ok(true);
        }
        let unit = !self.conflict && non_true == 1 && Self::value_in(&val, ng[0]).is_none();
        if unit {
            self.backjump(Self::level_in(&val, ng[1]))?;
        }
        let lbd = lbd_of(&ng, |l| Self::value_in(&val, l).map(|_| Self::level_in(&val, l)));
        let code = self.store_learned(len, lbd)?;
        self.permanent.push(code);
        if non_true == 0 && !self.conflict {
            let d = &mut self.dev;
            launch!(d, Kernel::SetConflict, d.cfg(1, 1); &mut d.ctl, &code)?;
            self.ctl.conflict = code;
            self.conflict = true;
        } else if unit {
            self.assert_learned(len, code)?;
        }
        Ok(true)
    }

    /// Adds loop nogoods (from the completion's check or the eager one) in one upload per length
    /// group, as learned nogoods: the next sweep makes them unit (their atoms become false at
    /// the current level, with the loop nogood as reason). Literals true at level 0 must be left
    /// out already. `lbd`: their LBDs (see [`lbd_of`]). `violated`: the one whose literals are all
    /// true, which becomes the conflict. `permanent`: kept by deletion.
    pub(super) fn add_loop_nogoods(
        &mut self,
        nogoods: &[Vec<Lit>],
        lbd: &[u32],
        violated: Option<usize>,
        permanent: bool,
    ) -> DResult<()> {
        debug_assert_eq!(nogoods.len(), lbd.len());
        if nogoods.iter().any(|ng| ng.is_empty()) {
            self.unsat = true;
            return Ok(());
        }
        if let Some(unit) = nogoods.iter().find(|ng| ng.len() == 1) {
            // Free at level 0: assert its complement there (a backjump); the others are found
            // again after it.
            self.add_host_nogood(unit)?;
            return Ok(());
        }
        let mut conflict_code = None;
        for g in 0..LEARNED_GROUPS {
            let members: Vec<usize> =
                (0..nogoods.len()).filter(|&i| group_of(nogoods[i].len()) == g).collect();
            if members.is_empty() {
                continue;
            }
            let total: usize = members.iter().map(|&i| nogoods[i].len()).sum();
            self.dev.reserve(g, members.len() as u32, total as u32)?;
            let d = &mut self.dev;
            let grp = &mut d.groups[g];
            let (mut starts, mut lits) = (Vec::with_capacity(members.len()), Vec::with_capacity(total));
            let lbds: Vec<u32> = members.iter().map(|&i| lbd[i]).collect();
            for (k, &i) in members.iter().enumerate() {
                lits.extend(nogoods[i].iter().map(|l| l.0));
                starts.push(grp.used + lits.len() as u32);
                let code = learned_reason(g, grp.count + k as u32);
                if permanent {
                    self.permanent.push(code);
                }
                if violated == Some(i) {
                    conflict_code = Some(code);
                }
            }
            let (used, count) = (grp.used as usize, grp.count as usize);
            d.stream
                .memcpy_htod(&lits, &mut grp.lits.slice_mut(used..used + total))
                .map_err(err("upload"))?;
            d.stream
                .memcpy_htod(&starts, &mut grp.start.slice_mut(count + 1..count + 1 + members.len()))
                .map_err(err("upload"))?;
            d.stream
                .memcpy_htod(&lbds, &mut grp.lbd.slice_mut(count..count + members.len()))
                .map_err(err("upload"))?;
            grp.used += total as u32;
            grp.count += members.len() as u32;
            self.learned += members.len() as u64;
        }
        self.dev.upload_fill()?;
        if let Some(code) = conflict_code.filter(|_| !self.conflict) {
            let d = &mut self.dev;
            launch!(d, Kernel::SetConflict, d.cfg(1, 1); &mut d.ctl, &code)?;
            self.ctl.conflict = code;
            self.conflict = true;
        }
        self.pending = true;
        self.ranked = None;
        Ok(())
    }
}
