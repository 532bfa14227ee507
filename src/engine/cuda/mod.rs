//! The CUDA engine: the paper's solver on an NVIDIA GPU, implementing the same [`Engine`] trait
//! as the CPU engine, so the one search loop drives it.
//!
//! On the device: the assignment and trail, all nogoods (input ones in the length-sorted CSR
//! layout, uploaded once; learned ones in four length groups), the weight constraints (and the
//! cost bound, folded into one weight constraint), propagation in rounds, decisions, backjumps
//! and both learning schemes. Per propagation and per conflict only the control block (112
//! bytes, which the kernels write into pinned host memory, see [`mirror`]) comes back. More
//! crosses the bus only where the search needs the host: in a program that is not tight, the
//! trail entries added since the last fixpoint (the host's unfounded-set check hands back loop
//! nogoods, see [`crate::engine::loops`]); the assignment at a total assignment (the answer set).
//!
//! By concern. The [`Device`] holds the device's memory in named parts (the
//! buffers of [`buffers`], the learned groups of [`groups`], the dependency bitmaps of
//! [`forward`], the plans of [`smem`], the pinned control block of [`mirror`]) and where kernels
//! run ([`launch`]: every launch takes one of the typed argument structs of [`args`], written
//! once per kernel signature). [`CudaEngine`] adds the host's state, each part in the module of
//! its concern: the mirror of the device's search state (`host_mirror.rs`), what propagate_fix_k
//! may do on its own (`budget.rs`), the analysis (`analyze.rs`), the learned nogoods' bookkeeping
//! (`nogoods.rs`, deletion in `reduce.rs`), the ranked decisions (`decide.rs`), the unfounded-set
//! checks (`unfounded.rs`) and the time split (`timing.rs`).

pub mod args;
pub mod buffers;
pub mod device;
pub mod farm;
pub mod forward;
pub mod groups;
pub mod kernels;
pub mod launch;
pub mod layout;
pub mod mirror;
pub mod release;
pub mod smem;

mod analyze;
mod budget;
mod decide;
mod host_mirror;
mod nogoods;
mod propagate;
mod reduce;
mod timing;
mod unfounded;

use self::args::{BackjumpArgs, InitUnitsArgs, MarkDirtyArgs, SetLevelArgs};
use self::budget::Budgets;
use self::device::{DResult, Device, DeviceOptions, err};
use self::host_mirror::HostMirror;
use self::launch::cfg;
use self::layout::{DECIDE_MAX, LEARN_MAX, NO_CONFLICT, Tables};
use self::timing::Timing;
use super::signs::Signs;
use super::{Completion, Engine, EngineError, EngineResult, EngineStats};
use crate::nogoods::{Lit, Problem};
use crate::solve::config::{Decisions, Deletion, GpuRounds, Learning, SearchOptions};
use crate::stop::StopToken;
use std::sync::Arc;

/// The CUDA engine (see the module docs): the device, and the host's state by concern.
pub struct CudaEngine {
    p: Arc<Problem>,
    dev: Device,
    mirror: HostMirror,
    budgets: Budgets,
    analysis: analyze::Analysis,
    learned: nogoods::LearnedNogoods,
    decisions: decide::DecisionTables,
    unfounded: unfounded::UnfoundedChecks,
    stats: EngineStats,
    timing: Timing,
}

/// The CUDA devices there are, or why none can be used.
pub fn device_count() -> Result<u32, String> {
    Device::count()
}

/// A device error as the search sees it.
fn failed(e: String) -> EngineError {
    EngineError(format!("CUDA engine: {e}"))
}

/// Why the CUDA engine could not be set up: the device's fault or the program's.
#[derive(Debug)]
pub enum SetupError {
    /// The device cannot run it: no driver, device or NVRTC, kernels that do not load, no memory.
    Device(String),
    /// The program holds what the engine cannot take (costs beyond its folded bound).
    Program(String),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Device(m) | SetupError::Program(m) => f.write_str(m),
        }
    }
}

impl CudaEngine {
    /// Sets up the device, or says why it cannot (no driver, no device, no NVRTC, no memory; or a
    /// program it cannot take).
    pub fn new(p: Arc<Problem>, opts: &SearchOptions) -> Result<Self, SetupError> {
        Self::new_until(p, opts, &StopToken::never()).map(|e| e.expect("never stopped"))
    }

    /// [`new`](Self::new), polling `stop` between the parts it builds; `Ok(None)` when it
    /// stopped. The program's tables come first, so that what the engine cannot take of a program
    /// is said as such, with a device or without.
    pub fn new_until(
        p: Arc<Problem>,
        opts: &SearchOptions,
        stop: &StopToken,
    ) -> Result<Option<Self>, SetupError> {
        let signs =
            (opts.decisions == Decisions::Vars).then(|| Signs::new(&p, opts.sign_def, opts.random.seed));
        let t = Tables::new(&p, signs.as_ref()).map_err(SetupError::Program)?;
        if !Device::load_kernels_until(&[opts.gpu_device], stop).map_err(SetupError::Device)? {
            return Ok(None);
        }
        Self::on_device(p, opts, stop, &t).map_err(SetupError::Device)
    }

    /// The device's part of [`new_until`](Self::new_until), once the tables are made and the
    /// kernels loaded: every failure here is the device's.
    fn on_device(
        p: Arc<Problem>,
        opts: &SearchOptions,
        stop: &StopToken,
        t: &Tables,
    ) -> DResult<Option<Self>> {
        if stop.reached().is_some() {
            return Ok(None);
        }
        let scores: Vec<f32> = crate::engine::scores::initial_scores(&p, opts.heuristic, false, opts.perturb)
            .iter()
            .map(|&x| x as f32)
            .collect();
        // propagate_fix_k analyses conflicts itself where it also decides (tight programs, rounds
        // driven by the device); under resolution learning with a plan for the analysis' shared
        // memory (SmemPlans::fix_res).
        let analyses = p.is_tight() && opts.gpu_rounds == GpuRounds::Device && opts.gpu_conflicts > 0;
        let fwd = opts.learning == Learning::Fwd;
        let shared = opts.gpu_shared_kib * 1024;
        let tpb = opts.tpb.clamp(32, 1024) / 32 * 32;
        let dev_opts = DeviceOptions {
            fwd,
            shared_limit: shared,
            analyses: analyses && !fwd,
            own_stream: opts.gpu_share > 1,
            tpb,
            ordinal: opts.gpu_device,
        };
        let mut dev = Device::new(t, p.num_vars, &scores, &dev_opts)?;
        if stop.reached().is_some() {
            return Ok(None);
        }
        if matches!(opts.deletion, Deletion::Activity | Deletion::Tiered) {
            log::warn!(
                "the CUDA engine keeps no activity or uses of nogoods: --deletion={} deletes by LBD",
                opts.deletion
            );
        }
        dev.coop.grid = match opts.gpu_rounds {
            GpuRounds::Device => {
                let blocks =
                    dev.cooperative_grid(opts.gpu_blocks_per_sm, opts.gpu_block_threads, opts.gpu_share);
                if blocks.is_none() {
                    log::warn!("no cooperative launch on this device: propagation rounds driven by the host");
                }
                blocks
            }
            GpuRounds::Host => None,
        };
        let nweights = t.w_head.len();
        let plan = dev.smem.fix;
        log::debug!(
            "CUDA propagation rounds: {}",
            dev.coop.grid.map_or("host".into(), |(b, t)| format!(
                "device, {b} blocks of {t} threads, block 0's values in {}",
                if plan.words > 0 {
                    let marks = if plan.weights > 0 {
                        format!(
                            ", marks for {nweights} weight constraints and {} wide nogoods too",
                            dev.input.nwide
                        )
                    } else {
                        String::new()
                    };
                    format!("{} bytes of shared memory{marks}", plan.bytes())
                } else {
                    "global memory".into()
                }
            ))
        );
        // Under resolution learning without the seen bitmaps in its shared memory (too many
        // variables) it analyses none.
        let learn_ahead = match dev.coop.grid {
            Some(_) if analyses && (fwd || dev.smem.fix_res.seen_words > 0) => {
                opts.gpu_conflicts.min(LEARN_MAX as u32)
            }
            _ => 0,
        };
        let decide_ahead = if p.is_tight() { opts.gpu_decisions.min(DECIDE_MAX as u32) } else { 0 };
        let mut e = CudaEngine {
            dev,
            mirror: HostMirror::default(),
            budgets: Budgets::new(decide_ahead, learn_ahead),
            analysis: analyze::Analysis { learning: opts.learning, inc: 1.0, reference: None },
            learned: nogoods::LearnedNogoods {
                count: 0,
                permanent: Vec::new(),
                deletion: opts.deletion,
                reduce_due: false,
            },
            decisions: decide::DecisionTables::new(t),
            unfounded: unfounded::UnfoundedChecks {
                loops: crate::engine::loops::Loops::new(&p),
                eager: (!p.is_tight()).then(|| unfounded::HostUnfounded::new(&p)),
            },
            stats: EngineStats::default(),
            timing: Timing::default(),
            p,
        };
        e.initial_propagation()?;
        Ok(Some(e))
    }

    /// The paper's initial propagation: one thread per unit nogood.
    fn initial_propagation(&mut self) -> DResult<()> {
        let d = &mut self.dev;
        let n = self.p.store.units.len() as u32;
        if n > 0 {
            let a = &mut d.assignment;
            let args = InitUnitsArgs {
                val: &mut a.val,
                prop: &mut a.prop,
                prop_list: &mut a.prop_list,
                prop_reason: &mut a.prop_reason,
                ctl: &mut a.ctl,
                trail: &mut a.trail,
                trail_pos: &mut a.trail_pos,
                reason: &mut a.reason,
                units: &d.input.units,
                n,
            };
            d.gpu.launch(cfg(1, 1024), args)?;
        }
        self.mirror.ctl = d.read_ctl()?;
        Ok(())
    }

    /// Something changed on the device: the snapshot and the ranked decision are stale.
    fn changed(&mut self) {
        self.mirror.forget_snapshot();
        self.decisions.ranked = None;
    }

    /// Reads the assignment and trail (cached until the next change).
    fn snapshot(&self) -> DResult<&(Vec<i32>, Vec<u32>)> {
        debug_assert!(!self.mirror.learn_pending, "a snapshot before the last analysis was applied");
        if let Some(s) = self.mirror.snapshot.get() {
            return Ok(s);
        }
        let s = &self.dev.gpu.stream;
        let val = s.clone_dtoh(&self.dev.assignment.val).map_err(err("read-back"))?;
        let trail = s.clone_dtoh(&self.dev.assignment.trail).map_err(err("read-back"))?;
        Ok(self.mirror.snapshot.get_or_init(|| (val, trail)))
    }

    fn value_in(val: &[i32], l: Lit) -> Option<bool> {
        match val[l.var() as usize] {
            0 => None,
            x => Some((x > 0) == l.is_pos()),
        }
    }

    fn level_in(val: &[i32], l: Lit) -> u32 {
        (val[l.var() as usize].unsigned_abs()).saturating_sub(1)
    }

    /// Backtracks to `level` on the device.
    fn backjump(&mut self, level: u32) -> DResult<()> {
        if level >= self.mirror.ctl.level {
            return Ok(());
        }
        let from = self.mirror.level_start[level as usize + 1];
        let to = self.mirror.ctl.trail_len;
        let d = &mut self.dev;
        if to > from {
            let a = &mut d.assignment;
            let args = BackjumpArgs { val: &mut a.val, trail: &a.trail, from, to };
            d.gpu.launch(d.gpu.per_item((to - from) as usize), args)?;
        }
        d.gpu.launch(cfg(1, 1), SetLevelArgs { ctl: &mut d.assignment.ctl, level, len: from })?;
        self.backjumped(level);
        Ok(())
    }

    /// The host's side of a backjump to `level` (below the current one) that the device made:
    /// the levels, the control mirror and the unfounded-set mirror.
    fn backjumped(&mut self, level: u32) {
        let from = self.mirror.level_start[level as usize + 1];
        if let Some(u) = &mut self.unfounded.eager {
            u.backtrack(level, from);
        }
        let m = &mut self.mirror;
        m.level_start.truncate(level as usize + 1);
        m.ctl.level = level;
        m.ctl.trail_len = from;
        m.ctl.qhead = from;
        m.ctl.qend = from;
        m.ctl.conflict = NO_CONFLICT;
        self.changed();
    }
}

impl Drop for CudaEngine {
    /// Says where the time went (`-V`): host wall time per operation, and for device-driven
    /// rounds the device time in input rounds and in sweeps of the learned nogoods.
    fn drop(&mut self) {
        self.timing.log(&self.stats, &self.mirror.ctl, &self.budgets, self.dev.coop.kernel);
    }
}

impl Engine for CudaEngine {
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn propagate(&mut self) -> EngineResult<bool> {
        let t = std::time::Instant::now();
        let r = self.try_propagate().map_err(failed);
        self.timing.propagate += t.elapsed();
        r
    }

    fn decision_level(&self) -> u32 {
        self.mirror.ctl.level
    }

    fn resolve_conflict(&mut self) -> EngineResult<bool> {
        self.decisions.ranked = None;
        let t = std::time::Instant::now();
        let r = self.try_resolve().map_err(failed);
        self.timing.resolve += t.elapsed();
        r
    }

    fn decide(&mut self) -> EngineResult<Option<Lit>> {
        let t = std::time::Instant::now();
        let r = self.try_decide().map_err(failed);
        self.timing.decide += t.elapsed();
        r
    }

    fn assume(&mut self, l: Lit) -> EngineResult<()> {
        self.decisions.ranked = None;
        self.settle_learning().and_then(|_| self.force_decision(l)).map_err(failed)
    }

    fn complete(&mut self) -> EngineResult<Completion> {
        self.decisions.ranked = None;
        self.settle_learning().and_then(|_| self.try_complete()).map_err(failed)
    }

    fn atom_values(&self, out: &mut Vec<bool>) -> EngineResult<()> {
        let val = &self.snapshot().map_err(failed)?.0;
        out.clear();
        out.extend((0..=self.p.num_atoms as usize).map(|v| val[v] > 0));
        Ok(())
    }

    fn lit_value(&self, l: Lit) -> EngineResult<Option<bool>> {
        Ok(Self::value_in(&self.snapshot().map_err(failed)?.0, l))
    }

    fn fixed_value(&self, l: Lit) -> EngineResult<Option<bool>> {
        let val = &self.snapshot().map_err(failed)?.0;
        Ok(Self::value_in(val, l).filter(|_| Self::level_in(val, l) == 0))
    }

    fn decisions(&self) -> EngineResult<Vec<Lit>> {
        let trail = &self.snapshot().map_err(failed)?.1;
        Ok(self.mirror.level_start[1..].iter().map(|&p| Lit(trail[p as usize])).collect())
    }

    fn add_nogood(&mut self, lits: &[Lit]) -> EngineResult<bool> {
        self.decisions.ranked = None;
        self.settle_learning().and_then(|_| self.add_host_nogood(lits)).map_err(failed)
    }

    fn set_cost_bound(&mut self, bound: Option<Vec<i64>>, strict: bool) -> EngineResult<()> {
        self.decisions.ranked = None;
        let Some((slot, mult, total)) = self.dev.weights.cost_slot.clone() else { return Ok(()) };
        self.settle_learning().map_err(failed)?;
        // Cost N(c) = sum(M_k * c_k); the slot holds sum(M * w * [not l]) >= total - K.
        let value = match bound {
            None => 0,
            Some(b) => {
                let n: i64 = b.iter().zip(&mult).map(|(x, m)| x * m).sum();
                let k = if strict { n - 1 } else { n };
                total - k
            }
        };
        let d = &mut self.dev;
        let w = &mut d.weights;
        let res = d
            .gpu
            .stream
            .memcpy_htod(&[value], &mut w.w_bound.slice_mut(slot as usize..slot as usize + 1))
            .map_err(err("upload"))
            .and_then(|_| {
                let args = MarkDirtyArgs {
                    ctl: &mut d.assignment.ctl,
                    dirty: &mut w.dirty,
                    dirty_list: &mut w.dirty_list,
                    c: slot,
                };
                d.gpu.launch(cfg(1, 1), args)
            });
        res.map_err(failed)?;
        self.mirror.ctl.ndirty += 1;
        self.mirror.pending = true;
        Ok(())
    }

    fn restart(&mut self) -> EngineResult<()> {
        self.decisions.ranked = None;
        self.stats.restarts += 1;
        self.settle_learning().and_then(|_| self.backjump(0)).map_err(failed)?;
        if self.learned.reduce_due {
            self.learned.reduce_due = false;
            self.reduce().map_err(failed)?;
        }
        Ok(())
    }

    fn reduce_learned(&mut self) {
        self.learned.reduce_due = true;
    }

    fn learned_count(&self) -> usize {
        self.learned.count as usize
    }

    fn set_conflict_budget(&mut self, conflicts: u64) {
        self.budgets.conflict_budget = conflicts;
    }

    fn take_resolved(&mut self) -> u64 {
        std::mem::take(&mut self.budgets.resolved_here)
    }

    fn stats(&mut self) -> EngineStats {
        // An analysis launched before the search was interrupted counts, as on the CPU engine.
        if let Err(e) = self.settle_learning() {
            log::warn!("CUDA engine: the statistics lack the last conflict analysis ({e})");
        }
        self.stats.clone()
    }
}
