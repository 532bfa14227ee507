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

pub mod device;
pub mod kernels;
pub mod layout;
pub mod mirror;
pub mod smem;

use self::device::{DResult, Device, err};
use self::kernels::Kernel;
use self::layout::{Control, DECIDE_MAX, LEARN_MAX, NO_CONFLICT, Tables};
use super::{Completion, Engine, EngineError, EngineResult, EngineStats};
use crate::nogoods::{Lit, Problem};
use crate::solve::config::{Decisions, Deletion, GpuRounds, Learning, SearchOptions};
use cudarc::driver::PushKernelArg;
use std::sync::Arc;

/// Launches a kernel with the given configuration and arguments.
macro_rules! launch {
    ($dev:expr, $k:expr, $cfg:expr; $($arg:expr),* $(,)?) => {{
        let cfg = $cfg;
        let mut b = $dev.stream.launch_builder($dev.k.get($k));
        $( b.arg($arg); )*
        // SAFETY: every call site passes the arguments in the order of the kernel's signature.
        unsafe { b.launch(cfg) }.map_err(err($k.name()))
    }};
}

// After the macro, which they use.
mod analyze;
mod decide;
mod nogoods;
mod propagate;
mod reduce;
mod unfounded;

pub struct CudaEngine {
    p: Arc<Problem>,
    dev: Device,
    tables_cost: Option<(u32, Vec<i64>, i64)>,
    learning: Learning,
    tpb: u32,
    /// The grid (blocks, threads) of propagate_fix_k when the device drives the propagation
    /// rounds, else None.
    coop: Option<(u32, u32)>,
    /// Decisions propagate_fix_k may make at its fixpoints before it returns (`--gpu-decisions`;
    /// 0 for programs that are not tight, whose fixpoints the host checks).
    decide_ahead: u32,
    /// The decisions propagate_fix_k made (for `-V`).
    decided_on_device: u64,
    /// Conflicts propagate_fix_k may analyse itself before it returns one (`--gpu-conflicts`;
    /// 0 for programs that are not tight, and under resolution learning where its analyses have
    /// no shared memory for the seen bitmaps).
    learn_ahead: u32,
    /// How many conflicts the search loop lets `propagate` resolve itself (its restart and
    /// deletion schedules), the ones resolved since it last asked, and in all (for `-V`).
    conflict_budget: u64,
    resolved_here: u64,
    learned_on_device: u64,
    /// Host mirror of the control block after the last read-back.
    ctl: Control,
    /// Trail length at the start of each level (index = level).
    level_start: Vec<u32>,
    /// Work for the next propagate: the frontier, or dirty weight constraints.
    pending: bool,
    conflict: bool,
    unsat: bool,
    /// A learning kernel was launched and the host has not applied its outcome yet: the host's
    /// mirror (`ctl`, `level_start`, the groups' counts) is as before the analysis until
    /// [`CudaEngine::learned_applied`] runs with a control block published after it.
    learn_pending: bool,
    /// The assignment and trail last copied to the host, while still current.
    snapshot: std::cell::OnceCell<(Vec<i32>, Vec<u32>)>,
    inc: f32,
    stats: EngineStats,
    /// Host wall time in propagate, decide and resolve_conflict, and within propagate in the
    /// host's unfounded-set check (logged when the engine ends).
    wall: [std::time::Duration; 4],
    class_sizes: [usize; 3],
    weights: usize,
    entries: u32,
    /// The learned nogoods that exist as reason codes (for statistics).
    learned: u64,
    /// The decision propagate_fix_k ranked at the fixpoint it reached (its key; 0: no rule is
    /// applicable), while nothing has changed since: decide applies it without a ranking launch.
    ranked: Option<u64>,
    /// Host copies of the decision entries (body, choice head) and body literals, to turn a
    /// ranked key into its literal.
    e_body: Vec<u32>,
    e_head: Vec<u32>,
    b_lit: Vec<u32>,
    /// Tests only: full assignments of every answer set; each learned nogood is checked against
    /// them and an unsound one stops the run with its conflict's details.
    reference: Option<Vec<Vec<bool>>>,
    loops: crate::engine::loops::Loops,
    /// Programs that are not tight: the host's eager unfounded-set check at each fixpoint.
    host_ufs: Option<unfounded::HostUnfounded>,
    /// Reason codes of nogoods from the host (blocking, loop): never deleted.
    permanent: Vec<u32>,
    deletion: Deletion,
    /// Deletion was asked for; done at the next restart (level 0, where no learned nogood is
    /// the reason of anything the analysis looks at).
    reduce_due: bool,
}

/// A device error as the search sees it.
fn failed(e: String) -> EngineError {
    EngineError(format!("CUDA engine: {e}"))
}

impl CudaEngine {
    /// Sets up the device, or says why it cannot (no driver, no device, no NVRTC, no memory).
    pub fn new(p: Arc<Problem>, opts: &SearchOptions) -> Result<Self, String> {
        let t = Tables::new(&p)?;
        let scores: Vec<f32> = crate::engine::scores::initial_scores(&p, opts.heuristic, opts.perturb)
            .iter()
            .map(|&x| x as f32)
            .collect();
        // propagate_fix_k analyses conflicts itself where it also decides (tight programs, rounds
        // driven by the device); under resolution learning with a plan for the analysis' shared
        // memory (Device::fix_res).
        let analyses = p.is_tight() && opts.gpu_rounds == GpuRounds::Device && opts.gpu_conflicts > 0;
        let fwd = opts.learning == Learning::Fwd;
        let shared = opts.gpu_shared_kib * 1024;
        let dev = Device::new(&t, p.num_vars, &scores, fwd, shared, analyses && !fwd, opts.gpu_share > 1)?;
        let tpb = opts.tpb.clamp(32, 1024) / 32 * 32;
        if opts.decisions == Decisions::Vars {
            log::warn!(
                "the CUDA engine decides on applicable rules only: --decisions=vars is the CPU engine's"
            );
        }
        if opts.deletion == Deletion::Activity {
            log::warn!("the CUDA engine keeps no activity of nogoods: --deletion=activity deletes by LBD");
        }
        let coop = match opts.gpu_rounds {
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
        log::debug!(
            "CUDA propagation rounds: {}",
            coop.map_or("host".into(), |(b, t)| format!(
                "device, {b} blocks of {t} threads, block 0's values in {}",
                if dev.shared.words > 0 {
                    let marks = if dev.shared.weights > 0 {
                        format!(
                            ", marks for {nweights} weight constraints and {} wide nogoods too",
                            dev.nwide
                        )
                    } else {
                        String::new()
                    };
                    format!("{} bytes of shared memory{marks}", dev.shared.bytes())
                } else {
                    "global memory".into()
                }
            ))
        );
        // Under resolution learning without the seen bitmaps in its shared memory (too many
        // variables) it analyses none.
        let learn_ahead = match coop {
            Some(_) if analyses && (fwd || dev.fix_res.seen_words > 0) => {
                opts.gpu_conflicts.min(LEARN_MAX as u32)
            }
            _ => 0,
        };
        let mut e = CudaEngine {
            dev,
            tables_cost: t.cost_slot.clone(),
            learning: opts.learning,
            tpb,
            coop,
            decide_ahead: if p.is_tight() { opts.gpu_decisions.min(DECIDE_MAX as u32) } else { 0 },
            decided_on_device: 0,
            learn_ahead,
            conflict_budget: 0,
            resolved_here: 0,
            learned_on_device: 0,
            ctl: Control::default(),
            level_start: vec![0],
            pending: true,
            conflict: false,
            unsat: false,
            learn_pending: false,
            snapshot: std::cell::OnceCell::new(),
            inc: 1.0,
            stats: EngineStats::default(),
            wall: Default::default(),
            class_sizes: t.class_sizes,
            weights: t.w_head.len(),
            entries: t.e_body.len() as u32,
            ranked: None,
            e_body: t.e_body.clone(),
            e_head: t.e_head.clone(),
            b_lit: t.b_lit.clone(),
            learned: 0,
            reference: None,
            loops: crate::engine::loops::Loops::new(&p),
            host_ufs: (!p.is_tight()).then(|| unfounded::HostUnfounded::new(&p)),
            permanent: Vec::new(),
            deletion: opts.deletion,
            reduce_due: false,
            p,
        };
        e.initial_propagation()?;
        Ok(e)
    }

    /// The paper's initial propagation: one thread per unit nogood.
    fn initial_propagation(&mut self) -> DResult<()> {
        let d = &mut self.dev;
        let n = self.p.store.units.len() as u32;
        if n > 0 {
            launch!(d, Kernel::InitUnits, d.cfg(1, 1024); &mut d.val, &mut d.prop, &mut d.prop_list, &mut d.prop_reason,
                &mut d.ctl, &mut d.trail, &mut d.trail_pos, &mut d.reason, &d.units, &n)?;
        }
        self.ctl = d.read_ctl()?;
        Ok(())
    }

    fn changed(&mut self) {
        self.snapshot = std::cell::OnceCell::new();
        self.ranked = None;
    }

    /// Reads the assignment and trail (cached until the next change).
    fn snapshot(&self) -> DResult<&(Vec<i32>, Vec<u32>)> {
        debug_assert!(!self.learn_pending, "a snapshot before the last analysis was applied");
        if let Some(s) = self.snapshot.get() {
            return Ok(s);
        }
        let s = &self.dev.stream;
        let val = s.clone_dtoh(&self.dev.val).map_err(err("read-back"))?;
        let trail = s.clone_dtoh(&self.dev.trail).map_err(err("read-back"))?;
        Ok(self.snapshot.get_or_init(|| (val, trail)))
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
        if level >= self.ctl.level {
            return Ok(());
        }
        let from = self.level_start[level as usize + 1];
        let to = self.ctl.trail_len;
        let d = &mut self.dev;
        if to > from {
            let cfg = d.cfg(Device::blocks((to - from) as usize, self.tpb), self.tpb);
            launch!(d, Kernel::Backjump, cfg; &mut d.val, &d.trail, &from, &to)?;
        }
        launch!(d, Kernel::SetLevel, d.cfg(1, 1); &mut d.ctl, &level, &from)?;
        self.backjumped(level);
        Ok(())
    }

    /// The host's side of a backjump to `level` (below the current one) that the device made:
    /// the levels, the control mirror and the unfounded-set mirror.
    fn backjumped(&mut self, level: u32) {
        let from = self.level_start[level as usize + 1];
        if let Some(u) = &mut self.host_ufs {
            u.backtrack(level, from);
        }
        self.level_start.truncate(level as usize + 1);
        self.ctl.level = level;
        self.ctl.trail_len = from;
        self.ctl.qhead = from;
        self.ctl.qend = from;
        self.ctl.conflict = NO_CONFLICT;
        self.changed();
    }
}

impl Drop for CudaEngine {
    /// Says where the time went (`-V`): host wall time per operation, and for device-driven
    /// rounds the device time in input rounds and in sweeps of the learned nogoods.
    fn drop(&mut self) {
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        log::info!(
            "CUDA engine time: propagate {:.1} ms ({} rounds; device: input rounds {:.1} ms, {} sweeps {:.1} ms), \
             decide {:.1} ms ({} decisions, {} of them by {k}), resolve {:.1} ms ({} conflicts, {} of them analysed by \
             {k}; device: analysis {:.1} ms); unfounded-set checks {:.1} ms ({} found)",
            ms(self.wall[0]),
            self.stats.rounds,
            self.ctl.ns_input as f64 / 1e6,
            self.ctl.sweeps,
            self.ctl.ns_sweep as f64 / 1e6,
            ms(self.wall[1]),
            self.stats.decisions,
            self.decided_on_device,
            ms(self.wall[2]),
            self.stats.conflicts,
            self.learned_on_device,
            self.ctl.ns_learn as f64 / 1e6,
            ms(self.wall[3]),
            self.stats.unfounded_sets,
            k = self.dev.fix_kernel.name(),
        );
    }
}

impl Engine for CudaEngine {
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn propagate(&mut self) -> EngineResult<bool> {
        let t = std::time::Instant::now();
        let r = self.try_propagate().map_err(failed);
        self.wall[0] += t.elapsed();
        r
    }

    fn decision_level(&self) -> u32 {
        self.ctl.level
    }

    fn resolve_conflict(&mut self) -> EngineResult<bool> {
        self.ranked = None;
        let t = std::time::Instant::now();
        let r = self.try_resolve().map_err(failed);
        self.wall[2] += t.elapsed();
        r
    }

    fn decide(&mut self) -> EngineResult<Option<Lit>> {
        let t = std::time::Instant::now();
        let r = self.try_decide().map_err(failed);
        self.wall[1] += t.elapsed();
        r
    }

    fn complete(&mut self) -> EngineResult<Completion> {
        self.ranked = None;
        self.settle_learning().and_then(|_| self.try_complete()).map_err(failed)
    }

    fn atom_values(&self) -> EngineResult<Vec<bool>> {
        let val = &self.snapshot().map_err(failed)?.0;
        Ok((0..=self.p.num_atoms as usize).map(|v| val[v] > 0).collect())
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
        Ok(self.level_start[1..].iter().map(|&p| Lit(trail[p as usize])).collect())
    }

    fn add_nogood(&mut self, lits: &[Lit]) -> EngineResult<bool> {
        self.ranked = None;
        self.settle_learning().and_then(|_| self.add_host_nogood(lits)).map_err(failed)
    }

    fn set_cost_bound(&mut self, bound: Option<Vec<i64>>, strict: bool) -> EngineResult<()> {
        self.ranked = None;
        let Some((slot, mult, total)) = self.tables_cost.clone() else { return Ok(()) };
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
        let res = d
            .stream
            .memcpy_htod(&[value], &mut d.w_bound.slice_mut(slot as usize..slot as usize + 1))
            .map_err(err("upload"))
            .and_then(|_| launch!(d, Kernel::MarkDirty, d.cfg(1, 1); &mut d.ctl, &mut d.dirty, &mut d.dirty_list, &slot));
        res.map_err(failed)?;
        self.ctl.ndirty += 1;
        self.pending = true;
        Ok(())
    }

    fn restart(&mut self) -> EngineResult<()> {
        self.ranked = None;
        self.stats.restarts += 1;
        self.settle_learning().and_then(|_| self.backjump(0)).map_err(failed)?;
        if self.reduce_due {
            self.reduce_due = false;
            self.reduce().map_err(failed)?;
        }
        Ok(())
    }

    fn reduce_learned(&mut self) {
        self.reduce_due = true;
    }

    fn learned_count(&self) -> usize {
        self.learned as usize
    }

    fn set_conflict_budget(&mut self, conflicts: u64) {
        self.conflict_budget = conflicts;
    }

    fn take_resolved(&mut self) -> u64 {
        std::mem::take(&mut self.resolved_here)
    }

    fn stats(&mut self) -> EngineStats {
        // An analysis launched before the search was interrupted counts, as on the CPU engine.
        if let Err(e) = self.settle_learning() {
            log::warn!("CUDA engine: the statistics lack the last conflict analysis ({e})");
        }
        self.stats.clone()
    }
}
