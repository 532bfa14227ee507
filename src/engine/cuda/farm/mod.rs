//! The search farm (issue #26): many whole searches on one GPU, a warp each, in one persistent
//! kernel (kernels/farm.cu, farm_learn.cu, farm_search.cu: decisions, propagation, 1-UIP
//! analysis, backjumps, restarts, deletion and an exchange of short learned nogoods, all on the
//! device). The host uploads the problem
//! once, launches the kernel a time slice at a time and reads the control words in between: the
//! first search to find a model wins, and a search that proves there is none ends the farm.
//!
//! The host does not grow with the searches: one thread drives them all, and its work between
//! slices is a read of the eight control words and of each search's status word.

pub mod tables;

#[cfg(test)]
mod emu;

use super::device::{DResult, Device, err, ptr};
use super::kernels::Kernels;
use super::launch::{Gpu, cfg};
use super::layout::FarmArgs;
use crate::engine::EngineStats;
use crate::nogoods::Problem;
use crate::stop::StopToken;
use cudarc::driver::CudaSlice;
use tables::{Buf, CTL_UNSAT, CTL_WINNER, FAILED, NONE, RUNNING, SEARCH_WORDS, Word};
pub use tables::{FarmConfig, FarmTables};

/// Searches a block holds (a warp each).
const WARPS_PER_BLOCK: u32 = 4;

/// What the farm has come to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FarmState {
    /// Searches are still running.
    Running,
    /// Search `s` found a total assignment.
    Model(u32),
    /// A search proved that there is no model.
    Unsat,
    /// Every search failed (a learned nogood broke an invariant): the farm cannot answer.
    Failed,
}

/// The farm on the device: its buffers (in the order of [`tables::FarmTables::bufs`]) and the
/// kernel's arguments.
pub struct Farm {
    gpu: Gpu,
    bufs: Vec<CudaSlice<u32>>,
    args: FarmArgs,
    pub searches: u32,
    nvars: usize,
}

/// The searches the device's memory has room for, at most `want` (and at least 1 if any fit).
fn searches_that_fit(p: &Problem, c: &FarmConfig, want: u32) -> DResult<u32> {
    let (free, _) = cudarc::driver::result::mem_get_info().map_err(err("memory query"))?;
    let per = tables::bytes_per_search(p, c).max(1);
    let shared = 4 * (p.store.lits.len() + p.store.occ.len() + 8 * p.weights.lits.len()) as u64;
    let room = (free as u64 / 10 * 7).saturating_sub(shared) / per;
    if room == 0 {
        return Err(format!("the farm does not fit the device's memory ({} MB free)", free >> 20));
    }
    Ok(want.min(room.min(u64::from(u32::MAX)) as u32))
}

impl Farm {
    /// The device's multiprocessors (the default number of searches is a multiple).
    pub fn multiprocessors() -> DResult<u32> {
        use cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT;
        let (ctx, _) = Kernels::shared()?;
        ctx.attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).map(|x| x as u32).map_err(err("device query"))
    }

    /// Sets the farm up for `p` (fewer searches than asked where memory is short); `Ok(None)`
    /// when `stop` came first.
    pub fn new_until(p: &Problem, c: &FarmConfig, stop: &StopToken) -> DResult<Option<Farm>> {
        if let Some(why) = tables::unsupported(p) {
            return Err(why.into());
        }
        if !Device::load_kernels_until(stop)? {
            return Ok(None);
        }
        let (ctx, kernels) = Kernels::shared()?;
        // SAFETY: the farm uses one stream, so cross-stream event tracking is not needed.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.new_stream().map_err(err("stream creation"))?;
        let mut c = c.clone();
        c.searches = searches_that_fit(p, &c, c.searches.max(1))?;
        let t = FarmTables::new(p, &c);
        let mut bufs = Vec::with_capacity(t.bufs.len());
        let mut args = t.args;
        for (i, b) in t.bufs.iter().enumerate() {
            if stop.reached().is_some() {
                return Ok(None);
            }
            let slice = match b {
                Buf::Words(w) if !w.is_empty() => stream.clone_htod(w).map_err(err("upload"))?,
                _ => stream.alloc_zeros::<u32>(b.len().max(1)).map_err(err("allocation"))?,
            };
            args.ptrs[i] = ptr(&slice, &stream);
            bufs.push(slice);
        }
        let gpu = Gpu { ctx, stream, kernels, tpb: 32 * WARPS_PER_BLOCK };
        Ok(Some(Farm { gpu, bufs, args, searches: c.searches, nvars: p.num_vars as usize }))
    }

    fn read(&self, name: &str, from: usize, len: usize) -> DResult<Vec<u32>> {
        let b = &self.bufs[FarmTables::index(name)];
        self.gpu.stream.clone_dtoh(&b.slice(from..from + len)).map_err(err("read-back"))
    }

    /// Runs every search for one time slice and says where the farm stands.
    pub fn run_slice(&mut self) -> DResult<FarmState> {
        let blocks = self.searches.div_ceil(WARPS_PER_BLOCK) as usize;
        let a = super::args::FarmSearchArgs { a: self.args };
        self.gpu.launch(cfg(blocks, 32 * WARPS_PER_BLOCK), a)?;
        self.gpu.stream.synchronize().map_err(err("the farm's time slice"))?;
        let ctl = self.read("ctl", 0, tables::CONTROL_WORDS)?;
        if ctl[CTL_WINNER] != NONE {
            return Ok(FarmState::Model(ctl[CTL_WINNER]));
        }
        if ctl[CTL_UNSAT] != 0 {
            return Ok(FarmState::Unsat);
        }
        let st = self.read("st", 0, self.searches as usize * SEARCH_WORDS)?;
        let running = st.chunks(SEARCH_WORDS).any(|w| w[Word::Status as usize] == RUNNING);
        Ok(if running { FarmState::Running } else { FarmState::Failed })
    }

    /// Search `s`'s values, a word a variable (1 true, 2 false).
    pub fn values(&self, s: u32) -> DResult<Vec<u32>> {
        self.read("val", s as usize * self.nvars, self.nvars)
    }

    /// Each search's counters, and how many failed.
    pub fn stats(&self) -> DResult<(Vec<EngineStats>, u32)> {
        let st = self.read("st", 0, self.searches as usize * SEARCH_WORDS)?;
        let wide = |w: &[u32], k: Word| u64::from(w[k as usize]) | u64::from(w[k as usize + 1]) << 32;
        let failed = st.chunks(SEARCH_WORDS).filter(|w| w[Word::Status as usize] == FAILED).count() as u32;
        let stats = st
            .chunks(SEARCH_WORDS)
            .map(|w| EngineStats {
                decisions: wide(w, Word::Decisions),
                conflicts: wide(w, Word::Conflicts),
                propagations: wide(w, Word::Props),
                restarts: u64::from(w[Word::Restarts as usize]),
                learned: wide(w, Word::Conflicts),
                exported: u64::from(w[Word::Exported as usize]),
                imported: u64::from(w[Word::Imported as usize]),
                ..Default::default()
            })
            .collect();
        let parts = [
            ("propagation", Word::TimePropagate),
            ("analysis", Word::TimeAnalyze),
            ("backjumps", Word::TimeBackjump),
            ("restarts", Word::TimeRestart),
            ("decisions", Word::TimeDecide),
        ];
        let cycles: Vec<u64> =
            parts.iter().map(|&(_, w)| st.chunks(SEARCH_WORDS).map(|x| wide(x, w)).sum()).collect();
        let total = cycles.iter().sum::<u64>().max(1);
        let shares: Vec<String> = parts
            .iter()
            .zip(&cycles)
            .map(|((name, _), &c)| format!("{name} {:.1}%", 100.0 * c as f64 / total as f64))
            .collect();
        log::info!("search farm: the searches' time in {}", shares.join(", "));
        Ok((stats, failed))
    }
}
