//! Nogoods that reach the device from outside the propagation kernels: learned ones stored into
//! their length group and asserted, and the host's nogoods (blocking, loop nogoods). Each comes
//! with its LBD, which deletion ([`super::reduce`]) ranks by.

use super::CudaEngine;
use super::args::{AppendLearnedArgs, AssertArgs, SetConflictArgs};
use super::device::{DResult, err};
use super::launch::cfg;
use super::layout::{LEARNED_GROUPS, R_UNIT, group_of, learned_reason, reason};
use crate::nogoods::Lit;
use crate::solve::config::Deletion;

/// The LBD of a nogood from the host ([`crate::engine::lbd`]): the decision levels of its
/// assigned literals (by `level`), one more for its unassigned ones.
pub(super) fn lbd_of(lits: &[Lit], level: impl Fn(Lit) -> Option<u32>) -> u32 {
    crate::engine::lbd(lits.iter().map(|&l| level(l).unwrap_or(u32::MAX)))
}

/// The host's bookkeeping of the learned nogoods (which live on the device, [`super::groups`]).
/// Invariant: every code in `permanent` names a nogood in the groups at its current place
/// (deletion, which keeps those nogoods, rewrites the codes of the ones it moves); `count` counts
/// every nogood stored into a group (deletion does not lower it).
pub struct LearnedNogoods {
    /// The learned nogoods that exist as reason codes (for statistics).
    pub count: u64,
    /// Reason codes of nogoods from the host (blocking, loop): never deleted.
    pub permanent: Vec<u32>,
    /// `--deletion` (by LBD, or none).
    pub deletion: Deletion,
    /// Deletion was asked for; done at the next restart (level 0, where no learned nogood is the
    /// reason of anything the analysis looks at).
    pub reduce_due: bool,
}

impl CudaEngine {
    /// Makes room in the group of a nogood of `len` literals; returns the group, the offset and
    /// index the nogood will have there, and the reason code that names it.
    fn learned_slot(&mut self, len: u32) -> DResult<(usize, u32, u32, u32)> {
        let g = group_of(len as usize);
        self.dev.groups.reserve(g, 1, len)?;
        let grp = &self.dev.groups[g];
        let (offset, index) = (grp.used, grp.count);
        Ok((g, offset, index, learned_reason(g, index)))
    }

    /// Counts the nogood just written into group `g` (by the host or a learning kernel).
    pub(super) fn learned_stored(&mut self, g: usize, len: u32) {
        let grp = &mut self.dev.groups[g];
        grp.used += len;
        grp.count += 1;
        self.learned.count += 1;
    }

    /// Stores the nogood in `dev.analysis.learned` (its first `len` entries) into its group, with
    /// `lbd`; returns the reason code that names it.
    pub(super) fn store_learned(&mut self, len: u32, lbd: u32) -> DResult<u32> {
        let (g, offset, index, code) = self.learned_slot(len)?;
        let d = &mut self.dev;
        let grp = &mut d.groups[g];
        let args = AppendLearnedArgs {
            learned: &d.analysis.learned,
            len,
            g_lits: &mut grp.lits,
            g_start: &mut grp.start,
            g_lbd: &mut grp.lbd,
            offset,
            index,
            lbd,
        };
        d.gpu.launch(cfg(1, 256), args)?;
        self.learned_stored(g, len);
        self.dev.groups.upload_fill()?;
        Ok(code)
    }

    /// Asserts the complement of `dev.analysis.learned[0]` at the current level with `code` as
    /// reason.
    pub(super) fn assert_learned(&mut self, len: u32, code: u32) -> DResult<()> {
        let d = &mut self.dev;
        let deps = d.deps.ptr(&d.gpu);
        let words = d.deps.words;
        let a = &mut d.assignment;
        let args = AssertArgs {
            ctl: &mut a.ctl,
            val: &mut a.val,
            trail: &mut a.trail,
            trail_pos: &mut a.trail_pos,
            reason: &mut a.reason,
            learned: &d.analysis.learned,
            len,
            reason_code: code,
            deps,
            words,
        };
        d.gpu.launch(cfg(1, 1), args)?;
        self.asserted();
        Ok(())
    }

    /// The host mirror follows an assertion: one more literal, the new frontier.
    pub(super) fn asserted(&mut self) {
        let m = &mut self.mirror;
        m.ctl.trail_len += 1;
        m.ctl.qhead = m.ctl.trail_len - 1;
        m.ctl.qend = m.ctl.trail_len;
        m.pending = true;
        self.changed();
    }

    /// Adds a nogood from the host (blocking, loop nogoods): stored as learned; violated ones
    /// become the conflict, unit ones are asserted at their level.
    pub(super) fn add_host_nogood(&mut self, lits: &[Lit]) -> DResult<bool> {
        if self.mirror.unsat {
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
            self.mirror.unsat = true;
            return Ok(false);
        }
        if self.mirror.conflict && ng.len() == 1 {
            // A conflict is pending: no backjump now; {l} is stored as {l, T0}.
            ng.push(Lit::TRUE);
        }
        let upload: Vec<u32> = ng.iter().map(|l| l.0).collect();
        self.dev
            .gpu
            .stream
            .memcpy_htod(&upload, &mut self.dev.analysis.learned.slice_mut(..upload.len()))
            .map_err(err("upload"))?;
        let len = ng.len() as u32;
        if ng.len() == 1 && !self.mirror.conflict {
            // Level-0 values were handled above: the literal is free at level 0.
            self.backjump(0)?;
            self.assert_learned(1, reason(R_UNIT, 0))?;
            return Ok(true);
        }
        let unit = !self.mirror.conflict && non_true == 1 && Self::value_in(&val, ng[0]).is_none();
        if unit {
            self.backjump(Self::level_in(&val, ng[1]))?;
        }
        let lbd = lbd_of(&ng, |l| Self::value_in(&val, l).map(|_| Self::level_in(&val, l)));
        let code = self.store_learned(len, lbd)?;
        self.learned.permanent.push(code);
        if non_true == 0 && !self.mirror.conflict {
            let d = &mut self.dev;
            d.gpu.launch(cfg(1, 1), SetConflictArgs { ctl: &mut d.assignment.ctl, r: code })?;
            self.mirror.ctl.conflict = code;
            self.mirror.conflict = true;
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
            self.mirror.unsat = true;
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
            self.dev.groups.reserve(g, members.len() as u32, total as u32)?;
            let d = &mut self.dev;
            let grp = &mut d.groups[g];
            let (mut starts, mut lits) = (Vec::with_capacity(members.len()), Vec::with_capacity(total));
            let lbds: Vec<u32> = members.iter().map(|&i| lbd[i]).collect();
            for (k, &i) in members.iter().enumerate() {
                lits.extend(nogoods[i].iter().map(|l| l.0));
                starts.push(grp.used + lits.len() as u32);
                let code = learned_reason(g, grp.count + k as u32);
                if permanent {
                    self.learned.permanent.push(code);
                }
                if violated == Some(i) {
                    conflict_code = Some(code);
                }
            }
            let (used, count) = (grp.used as usize, grp.count as usize);
            d.gpu
                .stream
                .memcpy_htod(&lits, &mut grp.lits.slice_mut(used..used + total))
                .map_err(err("upload"))?;
            d.gpu
                .stream
                .memcpy_htod(&starts, &mut grp.start.slice_mut(count + 1..count + 1 + members.len()))
                .map_err(err("upload"))?;
            d.gpu
                .stream
                .memcpy_htod(&lbds, &mut grp.lbd.slice_mut(count..count + members.len()))
                .map_err(err("upload"))?;
            grp.used += total as u32;
            grp.count += members.len() as u32;
            self.learned.count += members.len() as u64;
        }
        self.dev.groups.upload_fill()?;
        if let Some(code) = conflict_code.filter(|_| !self.mirror.conflict) {
            let d = &mut self.dev;
            d.gpu.launch(cfg(1, 1), SetConflictArgs { ctl: &mut d.assignment.ctl, r: code })?;
            self.mirror.ctl.conflict = code;
            self.mirror.conflict = true;
        }
        self.mirror.pending = true;
        self.decisions.ranked = None;
        Ok(())
    }
}
