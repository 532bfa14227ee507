//! The search farm (issue #26): many whole searches on one GPU, a warp each, in one persistent
//! kernel (kernels/farm.cu, farm_learn.cu, farm_unfounded.cu, farm_search.cu: decisions,
//! propagation, unfounded-set checks, 1-UIP analysis, backjumps, restarts, deletion and an
//! exchange of short learned nogoods, all on the device). The host uploads the problem
//! once, launches the kernel a time slice at a time and reads the control words in between: the
//! first search to find a model wins, and a search that proves there is none ends the farm.
//!
//! The host does not grow with the searches: one thread drives them all, and its work between
//! slices is a read of the eight control words and of each search's status word. In
//! enumeration ([`FarmConfig::enumerate`]) the searches write their models to a ring on the
//! device, which the host reads between slices ([`Farm::take_models`]). Farms on
//! several devices run their slices at once (each launched before any is waited for), and the
//! host relays their exchanged nogoods between slices ([`ring`]).

pub mod ring;
pub mod tables;

#[cfg(test)]
mod emu;

use super::device::{DResult, Device, err, ptr};
use super::kernels::{Kernel, Kernels};
use super::launch::{Gpu, cfg};
use super::layout::FarmArgs;
use crate::engine::EngineStats;
use crate::nogoods::Problem;
use crate::stop::StopToken;
use cudarc::driver::sys::CUevent_flags::CU_EVENT_BLOCKING_SYNC;
use cudarc::driver::{CudaEvent, CudaSlice, LaunchConfig};
use tables::{
    Buf, CTL_CUBE_NEXT, CTL_CUBES_DONE, CTL_MHEAD, CTL_MREAD, CTL_UNSAT, CTL_WINNER, CTL_XHEAD, FAILED, NONE,
    RUNNING, SEARCH_WORDS, SHARED_ORDER, Word, XLEN,
};
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
    /// Every search failed (a learned nogood broke an invariant), or in enumeration one did: the
    /// farm cannot answer.
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
    /// The device (its ordinal).
    pub ordinal: u32,
    /// The control words as the last slice left them.
    ctl: Vec<u32>,
    /// The exchange numbers the host has read up to ([`Farm::exports`]).
    xread: u32,
    /// The atoms (enumeration: a model's words in the ring hold `0..=atoms`).
    atoms: u32,
    /// Recorded after each slice's launch; its wait blocks the host thread instead of spinning
    /// on a core through the slice (the context's default, which took a core from each CPU
    /// search of a machine that runs many solvers at once).
    slice_done: CudaEvent,
}

/// The searches the device's memory has room for, at most `want` (and at least 1 if any fit).
fn searches_that_fit(gpu: &Gpu, p: &Problem, c: &FarmConfig, want: u32) -> DResult<u32> {
    let (free, _) = gpu.ctx.mem_get_info().map_err(err("memory query"))?;
    let per = tables::bytes_per_search(p, c).max(1);
    let (mwords, mcap) = c.ring_size(p.num_atoms);
    // The occurrence lists: a word a counted occurrence, two a binary nogood's (at most).
    let shared = 4 * (p.store.lits.len() + 2 * p.store.occ.len() + 8 * p.weights.lits.len()) as u64
        + 4 * u64::from(mwords) * u64::from(mcap);
    let room = (free as u64 / 10 * 7).saturating_sub(shared) / per;
    if room == 0 {
        return Err(format!("the farm does not fit the device's memory ({} MB free)", free >> 20));
    }
    Ok(want.min(room.min(u64::from(u32::MAX)) as u32))
}

/// Words of shared memory a search may keep its arrays in ([`tables::shared_plan`]) while the
/// blocks of `searches` are all resident at once: the multiprocessor's shared memory, less what
/// the kernel and the driver keep, shared among the blocks it holds (none where the registers
/// already keep them from being resident together).
fn shared_words(gpu: &Gpu, searches: u32) -> DResult<u32> {
    use cudarc::driver::sys::CUdevice_attribute::{
        CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN as OPTIN,
        CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT as SMS,
    };
    use cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES as MAX_DYNAMIC;
    let k = gpu.kernels.get(Kernel::FarmSearch);
    let sms = gpu.ctx.attribute(SMS).map_err(err("device query"))?.max(1) as u32;
    let optin = gpu.ctx.attribute(OPTIN).map_err(err("device query"))?.max(0) as usize;
    let statics = k.shared_size_bytes().map_err(err("kernel query"))?.max(0) as usize;
    let per_sm = searches.div_ceil(WARPS_PER_BLOCK).div_ceil(sms);
    gpu.ctx.bind_to_thread().map_err(err("context"))?;
    let room = k.occupancy_available_dynamic_smem_per_block(per_sm, 32 * WARPS_PER_BLOCK).unwrap_or(0);
    let bytes = room.min(optin.saturating_sub(statics));
    // The kernel's limit only rises: farms on one device share the kernel, and each launches
    // with its own budget.
    let limit = k.get_attribute(MAX_DYNAMIC).map_err(err("kernel query"))?.max(0) as usize;
    if bytes > limit {
        k.set_attribute(MAX_DYNAMIC, bytes as i32).map_err(err("kernel attribute"))?;
    }
    Ok((bytes / 4 / WARPS_PER_BLOCK as usize) as u32)
}

impl Farm {
    /// Device `ordinal`'s multiprocessors (the default number of searches is a multiple), asked
    /// of the driver without opening the device.
    pub fn multiprocessors(ordinal: u32) -> DResult<u32> {
        use cudarc::driver::result::device;
        use cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT;
        Device::check_ordinals(&[ordinal])?;
        let dev = device::get(ordinal as i32).map_err(err("device query"))?;
        // SAFETY: `dev` is a device the driver gave, and the attribute an integer one.
        let n = unsafe { device::get_attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) };
        n.map(|x| x.max(1) as u32).map_err(err("device query"))
    }

    /// Opens the devices `ordinals` and loads the kernels there, doing `meanwhile` on this thread
    /// in the meantime: its result, or `None` when `stop` came first.
    pub fn load_while<T>(
        ordinals: &[u32],
        stop: &StopToken,
        meanwhile: impl FnOnce() -> T,
    ) -> DResult<Option<T>> {
        Device::load_kernels_while(ordinals, stop, meanwhile)
    }

    /// Sets the farm up for `p` on device `ordinal` (fewer searches than asked where memory is
    /// short), after [`Farm::load_while`]; `Ok(None)` when `stop` came first.
    pub fn new_until(p: &Problem, c: &FarmConfig, ordinal: u32, stop: &StopToken) -> DResult<Option<Farm>> {
        if let Some(why) = tables::unsupported(p) {
            return Err(why.into());
        }
        debug_assert!(c.searches < tables::HOST, "a search's number is not the host's");
        if !Device::load_kernels_until(&[ordinal], stop)? {
            return Ok(None);
        }
        let (ctx, kernels) = Kernels::for_search(ordinal)?;
        // SAFETY: the farm uses one stream, so cross-stream event tracking is not needed.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.new_stream().map_err(err("stream creation"))?;
        let gpu = Gpu { ctx, stream, kernels, tpb: 32 * WARPS_PER_BLOCK };
        let mut c = c.clone();
        c.searches = searches_that_fit(&gpu, p, &c, c.searches.max(1)).map(|n| n.min(tables::HOST - 1))?;
        c.shared_words = shared_words(&gpu, c.searches)?;
        let t = FarmTables::new(p, &c);
        let in_shared: Vec<&str> = SHARED_ORDER
            .iter()
            .enumerate()
            .filter(|&(i, _)| t.args.smem >> i & 1 == 1)
            .map(|(_, n)| *n)
            .collect();
        log::debug!(
            "search farm: a search's arrays in shared memory: {} ({} of {} bytes)",
            if in_shared.is_empty() { "none".to_string() } else { in_shared.join(", ") },
            4 * t.args.smem_words,
            4 * c.shared_words
        );
        let mut bufs = Vec::with_capacity(t.bufs.len());
        let mut args = t.args;
        for (i, b) in t.bufs.iter().enumerate() {
            if stop.reached().is_some() {
                return Ok(None);
            }
            let stream = &gpu.stream;
            let slice = match b {
                Buf::Words(w) if !w.is_empty() => stream.clone_htod(w).map_err(err("upload"))?,
                _ => stream.alloc_zeros::<u32>(b.len().max(1)).map_err(err("allocation"))?,
            };
            args.ptrs[i] = ptr(&slice, stream);
            bufs.push(slice);
        }
        let (searches, nvars) = (c.searches, p.num_vars as usize);
        let atoms = p.num_atoms;
        let slice_done = gpu.ctx.new_event(Some(CU_EVENT_BLOCKING_SYNC)).map_err(err("event creation"))?;
        let ctl = Vec::new();
        Ok(Some(Farm { gpu, bufs, args, searches, nvars, ordinal, ctl, xread: 0, atoms, slice_done }))
    }

    fn read(&self, name: &str, from: usize, len: usize) -> DResult<Vec<u32>> {
        let b = &self.bufs[FarmTables::index(name)];
        self.gpu.stream.clone_dtoh(&b.slice(from..from + len)).map_err(err("read-back"))
    }

    fn write(&mut self, name: &str, from: usize, words: &[u32]) -> DResult<()> {
        let b = &mut self.bufs[FarmTables::index(name)];
        self.gpu.stream.memcpy_htod(words, &mut b.slice_mut(from..from + words.len())).map_err(err("upload"))
    }

    /// Starts a time slice of every search (it runs while the host goes on).
    pub fn launch_slice(&mut self) -> DResult<()> {
        let blocks = self.searches.div_ceil(WARPS_PER_BLOCK) as usize;
        let a = super::args::FarmSearchArgs { a: self.args };
        let shared = 4 * WARPS_PER_BLOCK * self.args.smem_words;
        self.gpu.launch(LaunchConfig { shared_mem_bytes: shared, ..cfg(blocks, 32 * WARPS_PER_BLOCK) }, a)?;
        self.slice_done.record(&self.gpu.stream).map_err(err("the slice's event"))
    }

    /// Waits for the slice [`Farm::launch_slice`] started and says where the farm stands.
    pub fn finish_slice(&mut self) -> DResult<FarmState> {
        self.slice_done.synchronize().map_err(err("the farm's time slice"))?;
        let ctl = self.read("ctl", 0, tables::CONTROL_WORDS)?;
        self.ctl.clone_from(&ctl);
        if ctl[CTL_WINNER] != NONE {
            return Ok(FarmState::Model(ctl[CTL_WINNER]));
        }
        if ctl[CTL_UNSAT] != 0 {
            return Ok(FarmState::Unsat);
        }
        let st = self.read("st", 0, self.searches as usize * SEARCH_WORDS)?;
        let status = |s: u32| st.chunks(SEARCH_WORDS).any(|w| w[Word::Status as usize] == s);
        // A search that failed in enumeration leaves its cube's other models unfound.
        let enumerating = self.args.mcap > 0;
        Ok(if status(RUNNING) && !(enumerating && status(FAILED)) {
            FarmState::Running
        } else {
            FarmState::Failed
        })
    }

    /// Enumeration: the models the searches wrote to the ring since the host last asked, their
    /// entries one after another ([`Farm::model_words`] words each, decoded by [`decode_model`]),
    /// grouped by search ([`by_search`]); the ring's entries are free again.
    pub fn take_models(&mut self) -> DResult<Vec<u32>> {
        let (Some(&head), Some(&read)) = (self.ctl.get(CTL_MHEAD), self.ctl.get(CTL_MREAD)) else {
            return Ok(Vec::new());
        };
        let (cap, words) = (self.args.mcap, self.args.mwords as usize);
        // Claims past the ring's room were not written (their searches find the models again).
        let claimed = head.wrapping_sub(read);
        debug_assert!(
            u64::from(claimed) <= u64::from(cap) + u64::from(self.args.searches),
            "{claimed} claims on a ring of {cap}"
        );
        let count = claimed.min(cap);
        if cap == 0 || count == 0 {
            return Ok(Vec::new());
        }
        let mut entries = Vec::with_capacity(count as usize * words);
        for (at, len) in ring::runs(read % cap, count, cap) {
            entries.extend(self.read("m_ring", at * words, len * words)?);
        }
        self.write("ctl", CTL_MREAD, &[head])?;
        self.ctl[CTL_MREAD] = head;
        by_search(&entries, words, self.searches).ok_or_else(|| "a model entry names no search".to_string())
    }

    /// The words of a model's entry in the ring (a bit an atom, `0..=atoms`, then the number of
    /// the search that found it).
    pub fn model_words(&self) -> usize {
        self.args.mwords as usize
    }

    /// The atoms a model's entry holds, `0..=atoms`.
    pub fn atoms(&self) -> u32 {
        self.atoms
    }

    /// The nogoods the searches exported since the host last asked (at most a ring's worth:
    /// older ones were overwritten), as literal words; between slices.
    pub fn exports(&mut self) -> DResult<Vec<Vec<u32>>> {
        let Some(&head) = self.ctl.get(CTL_XHEAD) else { return Ok(Vec::new()) };
        let (first, count) = ring::unread(self.xread, head, self.args.xcap);
        self.xread = head;
        let (mut seq, mut meta, mut lits) = (Vec::new(), Vec::new(), Vec::new());
        for (at, len) in ring::runs(first, count, self.args.xcap) {
            seq.extend(self.read("x_seq", at, len)?);
            meta.extend(self.read("x_meta", at, len)?);
            lits.extend(self.read("x_lits", at * XLEN, len * XLEN)?);
        }
        Ok(ring::decode(first, &seq, &meta, &lits, self.nvars as u32))
    }

    /// Puts `nogoods` (each of 1 to `XLEN` literal words, consequences of the program) in the
    /// exchange for the searches to import at their next restart; between slices. More than
    /// half a ring's worth are cut to the first half ring.
    pub fn import(&mut self, nogoods: &[Vec<u32>]) -> DResult<()> {
        let Some(&head) = self.ctl.get(CTL_XHEAD) else { return Ok(()) };
        let nogoods = &nogoods[..nogoods.len().min(self.args.xcap as usize / 2)];
        if nogoods.is_empty() {
            return Ok(());
        }
        let (seq, meta, lits) = ring::encode(head, nogoods);
        let mut k = 0;
        for (at, len) in ring::runs(head, nogoods.len() as u32, self.args.xcap) {
            self.write("x_lits", at * XLEN, &lits[k * XLEN..(k + len) * XLEN])?;
            self.write("x_meta", at, &meta[k..k + len])?;
            self.write("x_seq", at, &seq[k..k + len])?;
            k += len;
        }
        let new_head = head.wrapping_add(nogoods.len() as u32);
        self.write("ctl", CTL_XHEAD, &[new_head])?;
        self.ctl[CTL_XHEAD] = new_head;
        // The host's own entries are not read back: [`ring::decode`] skips them.
        self.gpu.stream.synchronize().map_err(err("the exchange's upload"))
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
                deleted: wide(w, Word::Deleted),
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
        let sum = |k: Word| st.chunks(SEARCH_WORDS).map(|w| u64::from(w[k as usize])).sum::<u64>();
        log::info!(
            "search farm: the searches' time in {}; {} deletions, {} nogoods without room",
            shares.join(", "),
            sum(Word::Reduces),
            sum(Word::Dropped)
        );
        if self.args.ncubes > 0 {
            let (taken, refuted) = (self.ctl.get(CTL_CUBE_NEXT), self.ctl.get(CTL_CUBES_DONE));
            let (taken, refuted) = (taken.copied().unwrap_or(0), refuted.copied().unwrap_or(0));
            log::info!(
                "search farm: {refuted} of {} cubes refuted, {} taken",
                self.args.ncubes,
                taken.min(self.args.ncubes)
            );
        }
        Ok((stats, failed))
    }
}

/// Model ring entries of `words` words (the last the number of the search that found the model,
/// below `searches`: `None` where one is not) grouped by search, each search's in the order it
/// wrote them. Thousands of searches claim the ring's entries at once, so that neighbouring
/// entries come from different searches; a search's models come one after another by
/// backtracking and differ in few atoms, and the host's checks keep the last model's support
/// counts (`verify::Kept`): on colouring 30 (2.6 M models, the VM, one thread) every model in one
/// search's order took 0.16 µs to check, shuffled 3.5 µs.
pub fn by_search(entries: &[u32], words: usize, searches: u32) -> Option<Vec<u32>> {
    // A counting sort: each search's first place, then the entries copied there in order.
    let search = |e: &[u32]| e[words - 1] as usize;
    let mut at = vec![0usize; searches as usize + 1];
    for e in entries.chunks_exact(words) {
        *at.get_mut(search(e) + 1)? += words;
    }
    for s in 1..at.len() {
        at[s] += at[s - 1];
    }
    let mut out = vec![0u32; entries.len()];
    for e in entries.chunks_exact(words) {
        let s = search(e);
        out[at[s]..at[s] + words].copy_from_slice(e);
        at[s] += words;
    }
    Some(out)
}

/// A model's entry in the ring as the atoms' values, `0..=atoms` (atom 0 false), into `into`.
pub fn decode_model(entry: &[u32], atoms: u32, into: &mut Vec<bool>) {
    debug_assert!(entry.len() > atoms as usize / 32, "an entry of {} words for {atoms} atoms", entry.len());
    into.clear();
    into.extend((0..=atoms as usize).map(|a| a > 0 && entry[a / 32] >> (a % 32) & 1 == 1));
}

#[cfg(test)]
mod tests {
    use super::{by_search, decode_model};

    /// Entries of 2 words (a word of bits, the search's number): grouped by search, each
    /// search's in the order written, every entry once.
    #[test]
    fn a_slices_entries_are_grouped_by_search_in_their_order() {
        let entries = [10, 2, 11, 0, 12, 2, 13, 1, 14, 0, 15, 2];
        assert_eq!(by_search(&entries, 2, 3).unwrap(), [11, 0, 14, 0, 13, 1, 10, 2, 12, 2, 15, 2]);
        assert!(by_search(&[], 2, 3).unwrap().is_empty());
        assert!(by_search(&entries, 2, 2).is_none(), "search 2 of 2");
    }

    #[test]
    fn a_models_entry_gives_each_atom_its_bit_and_atom_0_false() {
        let entry = [1 | 0b1010 | 1 << 31, 0b1];
        let mut atoms = vec![true; 3];
        decode_model(&entry, 32, &mut atoms);
        let want: Vec<bool> = (0..=32).map(|a| [1, 3, 31, 32].contains(&a)).collect();
        assert_eq!(atoms, want);
        decode_model(&entry, 2, &mut atoms);
        assert_eq!(atoms, [false, true, false]);
    }
}
