//! Unfounded-set propagation for the CUDA engine, run by the host at each propagation fixpoint
//! of a program that is not tight: the source-pointer check of the CPU engine
//! ([`crate::engine::unfounded`]) over a host mirror of the device's assignment. Only the trail
//! entries added since the last check cross the bus; the atoms the check finds unfounded go back
//! as loop nogoods, which the device's next propagation makes unit.
//!
//! Invariant: the mirror holds the device's trail entries below `synced` at the device's levels,
//! plus the atoms the last check falsified that the device has not reached yet (they are at the
//! current level, so a backjump below it drops them, and a later sync finds them already
//! assigned).

use crate::engine::assignment::{Assignment, Reason};
use crate::engine::unfounded::Unfounded;
use crate::nogoods::{Lit, Problem};

pub struct HostUnfounded {
    a: Assignment,
    ufs: Unfounded,
    /// Device trail positions already in the mirror.
    synced: u32,
}

/// What one check found.
pub enum Found {
    /// Nothing is unfounded.
    Nothing,
    /// Loop nogoods `{T x} ∪ ext` for the atoms `x` of an unfounded set, each unit: the device
    /// makes the atoms false. Literals true at level 0 are left out.
    Unit(Vec<Vec<Lit>>),
    /// A true atom is unfounded: its loop nogood is violated.
    Conflict(Vec<Lit>),
}

impl HostUnfounded {
    pub fn new(p: &Problem) -> Self {
        let mut a = Assignment::new(p.num_vars);
        // Variable 0 is the constant true literal, fixed by the unit nogood {F0} on the device.
        a.assign(Lit::TRUE, Reason::Unit);
        let mut ufs = Unfounded::new(p);
        ufs.on_true(Lit::TRUE);
        HostUnfounded { a, ufs, synced: 0 }
    }

    /// The device trail positions the mirror lacks.
    pub fn unsynced(&self, trail_len: u32) -> std::ops::Range<u32> {
        self.synced..trail_len
    }

    /// Takes in device trail entries from position `synced` on; `level_start` holds the trail
    /// position where each level begins (index = level).
    pub fn sync(&mut self, lits: &[u32], level_start: &[u32]) {
        for (i, &l) in lits.iter().enumerate() {
            let pos = self.synced + i as u32;
            while let Some(&s) = level_start.get(self.a.decision_level() as usize + 1) {
                if s > pos {
                    break;
                }
                self.a.new_level();
            }
            let l = Lit(l);
            match self.a.value(l) {
                0 => {
                    self.a.assign(l, Reason::Unit);
                    self.ufs.on_true(l);
                }
                1 => {}
                _ => debug_assert!(false, "device assigned {l:?} at a fixpoint against the mirror"),
            }
        }
        self.synced += lits.len() as u32;
        debug_assert!(self.a.trail.len() as u32 >= self.synced, "the mirror lost synced entries");
    }

    /// The device backjumped to `level`, its trail now `trail_len` long.
    pub fn backtrack(&mut self, level: u32, trail_len: u32) {
        let ufs = &mut self.ufs;
        self.a.backtrack(level, |_, l| ufs.on_unassign(l.var()));
        ufs.backtrack(level);
        self.synced = self.synced.min(trail_len);
    }

    /// Runs the check over the synced assignment.
    pub fn check(&mut self, p: &Problem) -> Found {
        if !self.ufs.needs_check() {
            return Found::Nothing;
        }
        let mut assigned = Vec::new();
        let ext_of = |a: &Assignment, ext: &[Lit]| -> Vec<Lit> {
            ext.iter().copied().filter(|l| a.level[l.var() as usize] > 0).collect()
        };
        match self.ufs.check(p, &mut self.a, &mut assigned) {
            Err(c) => {
                let mut ng = vec![c.0[0]];
                ng.extend(ext_of(&self.a, &c.0[1..]));
                Found::Conflict(ng)
            }
            Ok(()) if assigned.is_empty() => Found::Nothing,
            Ok(()) => {
                let ext = ext_of(&self.a, &self.ufs.reasons.last().expect("the check's reason").1);
                let nogoods = assigned
                    .iter()
                    .map(|&f| std::iter::once(!f).chain(ext.iter().copied()).collect())
                    .collect();
                Found::Unit(nogoods)
            }
        }
    }
}

/// The host's unfounded-set checks: the eager one at each propagation fixpoint of a program that
/// is not tight (with its mirror of the device's trail), and the loop nogoods of the check from
/// scratch when no rule is applicable or the assignment is total (`CudaEngine::try_complete`).
/// Invariant: `eager` is set exactly for programs that are not tight; its own invariant is the
/// module's.
pub struct UnfoundedChecks {
    pub eager: Option<HostUnfounded>,
    pub loops: crate::engine::loops::Loops,
}

impl super::CudaEngine {
    /// At a fixpoint of a program that is not tight: brings the mirror up to date and runs the
    /// check; true when it added loop nogoods (propagate again).
    pub(super) fn propagate_unfounded(&mut self) -> super::device::DResult<bool> {
        let Some(u) = self.unfounded.eager.as_mut() else { return Ok(false) };
        let t = std::time::Instant::now();
        let range = u.unsynced(self.mirror.ctl.trail_len);
        if !range.is_empty() {
            let lits = self
                .dev
                .gpu
                .stream
                .clone_dtoh(&self.dev.assignment.trail.slice(range.start as usize..range.end as usize))
                .map_err(super::device::err("read-back"))?;
            u.sync(&lits, &self.mirror.level_start);
        }
        let found = u.check(&self.p);
        self.timing.unfounded += t.elapsed();
        let (nogoods, violated) = match found {
            Found::Nothing => return Ok(false),
            Found::Unit(nogoods) => (nogoods, None),
            Found::Conflict(nogood) => (vec![nogood], Some(0)),
        };
        let a = &self.unfounded.eager.as_ref().expect("checked above").a;
        let level = |l: Lit| (a.value(l) != 0).then(|| a.level[l.var() as usize]);
        let lbd: Vec<u32> = nogoods.iter().map(|ng| super::nogoods::lbd_of(ng, level)).collect();
        self.stats.unfounded_sets += 1;
        self.add_loop_nogoods(&nogoods, &lbd, violated, false)?;
        Ok(true)
    }
}
