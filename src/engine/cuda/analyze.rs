//! Conflict analysis on the device (learn_res_k or learn_fwd_k, which also backjump and store
//! and assert the nogood), the host's side of it (applied when it next reads the control block),
//! and the tests' soundness check of every learned nogood against known models.

use super::CudaEngine;
use super::args::{LearnFwdArgs, LearnResArgs, RescaleArgs};
use super::device::{DResult, err};
use super::launch::cfg;
use super::layout::{Control, group_of};
use crate::nogoods::Lit;
use crate::solve::config::Learning;
use cudarc::driver::LaunchConfig;

/// The warps of learn_res_k, which share out a batch's long reasons. Measured on the H200 with 1,
/// 8 and 32 warps: 32 made Labyrinth_0073's analyses 4.9x faster than one warp (its reasons are
/// loop nogoods of hundreds of literals), 8 made them 3.3x faster; on tight programs both gave
/// from no change (GraphColouring_0006) to 1.7x (ppm-200).
const RES_WARPS: u32 = 32;

/// How conflicts are analysed: the learning scheme, the activity bump of the next analysis, and
/// (tests only) the answer sets every learned nogood is checked against.
/// Invariant: `inc` stays at most 1e30 ([`CudaEngine::bump_inc`] rescales the scores, and `inc`,
/// before it would exceed that).
pub struct Analysis {
    pub learning: Learning,
    pub inc: f32,
    /// Tests only: full assignments of every answer set; each learned nogood is checked against
    /// them and an unsound one stops the run with its conflict's details.
    pub reference: Option<Vec<Vec<bool>>>,
}

impl CudaEngine {
    /// Launches conflict analysis. The learning kernel also backjumps and stores and asserts the
    /// nogood it learns, so the host need not wait for it: the next propagation is queued behind
    /// it, and the control block that propagation publishes says what the analysis did
    /// ([`CudaEngine::learned_applied`]). Where the host needs that at once (it drives the rounds,
    /// checks learned nogoods against known models, or logs them), it waits here.
    pub(super) fn try_resolve(&mut self) -> DResult<bool> {
        self.stats.conflicts += 1;
        if self.mirror.unsat {
            return Ok(false);
        }
        debug_assert!(!self.mirror.learn_pending, "a conflict before the last analysis was applied");
        self.dev.groups.reserve_learning(self.p.num_vars + 1)?;
        let d = &mut self.dev;
        let db = d.db();
        let inc = self.analysis.inc;
        let threads = 1024.min(d.gpu.tpb.max(256));
        let host = d.ctl_mirror.dev;
        d.ctl_mirror.arm();
        match self.analysis.learning {
            Learning::Res => {
                let plan = d.smem.learn_res;
                let grid = LaunchConfig { shared_mem_bytes: plan.bytes(), ..cfg(1, 32 * RES_WARPS) };
                // Differs from the stamps of the last 2^32 - 2 analyses (and from 0, the initial stamp).
                let tag = (self.stats.conflicts as u32).max(1);
                let (a, x) = (&mut d.assignment, &mut d.analysis);
                let args = LearnResArgs {
                    ctl: &mut a.ctl,
                    val: &mut a.val,
                    trail: &mut a.trail,
                    trail_pos: &mut a.trail_pos,
                    reason: &mut a.reason,
                    level_start: &a.level_start,
                    seen: &mut x.seen,
                    touched: &mut x.touched,
                    learned: &mut x.learned,
                    score: &mut d.decide.score,
                    inc,
                    g_bits: &mut x.res_bits,
                    db,
                    host,
                    seg_cap: plan.seg_cap,
                    seen_words: plan.seen_words,
                    mark_words: plan.mark_words,
                    pool_cap: plan.pool_cap,
                    level_stamp: &mut x.level_stamp,
                    tag,
                };
                d.gpu.launch(grid, args)?;
            }
            Learning::Fwd => {
                let deps = d.deps.ptr(&d.gpu);
                let words = d.deps.words;
                let a = &mut d.assignment;
                let args = LearnFwdArgs {
                    ctl: &mut a.ctl,
                    val: &mut a.val,
                    trail: &mut a.trail,
                    trail_pos: &mut a.trail_pos,
                    reason: &mut a.reason,
                    level_start: &a.level_start,
                    deps,
                    words,
                    learned: &mut d.analysis.learned,
                    score: &mut d.decide.score,
                    inc,
                    db,
                    host,
                };
                d.gpu.launch(cfg(1, threads), args)?;
            }
        }
        self.mirror.conflict = false;
        self.mirror.learn_pending = true;
        self.mirror.pending = true;
        self.changed();
        self.bump_inc()?;
        if self.dev.coop.grid.is_none()
            || self.analysis.reference.is_some()
            || log::log_enabled!(log::Level::Trace)
        {
            self.settle_learning()?;
            return Ok(!self.mirror.unsat);
        }
        Ok(true)
    }

    /// The activity bump of the next analysis (1/0.95 times the last); the scores are rescaled
    /// before they could overflow.
    pub(super) fn bump_inc(&mut self) -> DResult<()> {
        self.analysis.inc *= 1.0 / 0.95;
        if self.analysis.inc > 1e30 {
            let d = &mut self.dev;
            let n = self.p.num_vars;
            let factor = 1e-30f32;
            d.gpu
                .launch(d.gpu.per_item(n as usize), RescaleArgs { score: &mut d.decide.score, n, factor })?;
            self.analysis.inc *= 1e-30;
        }
        Ok(())
    }

    /// Waits for the analysis launched last, if the host has not applied it yet, and applies it.
    /// Every operation that reads the host's mirror of the search state calls this first.
    pub(super) fn settle_learning(&mut self) -> DResult<()> {
        if !self.mirror.learn_pending {
            return Ok(());
        }
        // The learning kernel publishes the control block, and nothing publishing was queued since.
        let c = self.dev.ctl_mirror.wait(&self.dev.gpu.stream)?;
        self.learned_applied(&c)
    }

    /// The host's side of the last analysis, from a control block published after it (by the
    /// learning kernel or by the propagation queued behind it, which leaves the analysis' fields
    /// alone): the verdict, the statistics, and the host's mirror of the backjump, the stored
    /// nogood and its assertion.
    pub(super) fn learned_applied(&mut self, c: &Control) -> DResult<()> {
        self.mirror.learn_pending = false;
        match c.unsat {
            0 => {}
            1 => {
                self.mirror.unsat = true;
                return Ok(());
            }
            _ => return Err("conflict analysis found no literal to resolve (internal error)".into()),
        }
        let len = c.learned_len;
        if log::log_enabled!(log::Level::Trace) {
            let l: Vec<Lit> =
                self.dev.gpu.stream.clone_dtoh(&self.dev.analysis.learned).map_err(err("read-back"))?
                    [..len as usize]
                    .iter()
                    .map(|&x| Lit(x))
                    .collect();
            log::trace!(
                "conflict {:#x}/{} at level {} (current {}): learned {l:?} (LBD {}), backjump to {}",
                c.conflict,
                c.conflict_aux,
                c.conflict_level,
                self.mirror.ctl.level,
                c.lbd,
                c.bj_level
            );
        }
        if self.analysis.reference.is_some() {
            let lits =
                self.dev.gpu.stream.clone_dtoh(&self.dev.analysis.learned).map_err(err("read-back"))?;
            self.check_against_reference(&lits[..len as usize], c);
        }
        self.analysis_applied(len, c.bj_level);
        self.check_fill()?;
        self.check_ground_rows()
    }

    /// The host's mirror of one analysis the device made (learn_res_k, learn_fwd_k or
    /// propagate_fix_k): the statistics, the backjump, the stored nogood and its assertion.
    pub(super) fn analysis_applied(&mut self, len: u32, bj_level: u32) {
        self.stats.learned += 1;
        self.stats.learned_literals += u64::from(len);
        self.backjumped(bj_level);
        if len > 1 {
            self.learned_stored(group_of(len as usize), len);
        }
        self.asserted();
    }

    /// Debug builds: the device's counts of the learned groups are the host's.
    pub(super) fn check_fill(&self) -> DResult<()> {
        if cfg!(debug_assertions) {
            let fill = self.dev.gpu.stream.clone_dtoh(&self.dev.groups.lg_fill).map_err(err("read-back"))?;
            assert_eq!(fill, self.dev.groups.fill(), "the device's group counts differ from the host's");
        }
        Ok(())
    }

    /// Debug builds, forward learning: the dependency row of every variable assigned at level 0 is
    /// empty (the invariant stated with `FixArgs::deps` in common.cuh, on which deps_d relies when
    /// it ORs a reason's rows without looking at their levels).
    pub(super) fn check_ground_rows(&self) -> DResult<()> {
        let Some(deps) = self.dev.deps.table.as_ref().filter(|_| cfg!(debug_assertions)) else {
            return Ok(());
        };
        let s = &self.dev.gpu.stream;
        let val = s.clone_dtoh(&self.dev.assignment.val).map_err(err("read-back"))?;
        let rows = s.clone_dtoh(deps).map_err(err("read-back"))?;
        let words = self.dev.deps.words as usize;
        for (v, &x) in val.iter().enumerate() {
            if x.abs() == 1 {
                let row = &rows[v * words..(v + 1) * words];
                assert!(row.iter().all(|&w| w == 0), "variable {v}, at level 0, has dependency row {row:?}");
            }
        }
        Ok(())
    }

    /// Tests only: the nogood of `len` literals that propagate_fix_k learned and stored (the next
    /// in its group, before the host counts it) or, for one literal, asserted at level 0 (at the
    /// start of level 1, before the host backjumps), against the known answer sets.
    pub(super) fn check_stored_against_reference(&self, len: u32, c: &Control) -> DResult<()> {
        let s = &self.dev.gpu.stream;
        let lits = if len == 1 {
            let at = self.mirror.level_start[1] as usize;
            let asserted =
                s.clone_dtoh(&self.dev.assignment.trail.slice(at..at + 1)).map_err(err("read-back"))?;
            vec![asserted[0] ^ 1]
        } else {
            let grp = &self.dev.groups[group_of(len as usize)];
            let from = grp.used as usize;
            s.clone_dtoh(&grp.lits.slice(from..from + len as usize)).map_err(err("read-back"))?
        };
        self.check_against_reference(&lits, c);
        Ok(())
    }

    /// Tests only: checks every learned nogood against these full assignments (all variables) of
    /// the answer sets, which no sound nogood may contain.
    pub fn set_reference(&mut self, models: Vec<Vec<bool>>) {
        self.analysis.reference = Some(models);
    }

    /// Tests only: the full assignment (all variables) of the current state.
    pub fn var_values(&mut self) -> DResult<Vec<bool>> {
        Ok(self.snapshot()?.0.iter().map(|&x| x > 0).collect())
    }

    fn check_against_reference(&self, lits: &[u32], c: &Control) {
        let Some(models) = &self.analysis.reference else { return };
        for m in models {
            if lits.iter().all(|&l| m[(l >> 1) as usize] == (l & 1 == 0)) {
                panic!(
                    "unsound learned nogood {:?} (conflict {:#x} aux {} at level {}, current level {}, learning {:?})",
                    lits.iter().map(|&l| Lit(l)).collect::<Vec<_>>(),
                    c.conflict,
                    c.conflict_aux,
                    c.conflict_level,
                    self.mirror.ctl.level,
                    self.analysis.learning
                );
            }
        }
    }
}
