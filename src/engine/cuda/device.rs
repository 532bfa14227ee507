//! Device memory of the CUDA engine: every buffer, uploaded once from the [`Tables`], and the
//! launch helper. Learned-nogood groups and the dependency table grow on the device when full.

use super::kernels::{Kernel, Kernels};
use super::layout::{Control, DeviceDb, FixArgs, GROUP_MAX_LEN, LEARNED_GROUPS, NO_CONFLICT, Tables};
use super::mirror::CtlMirror;
use super::smem::{ResPlan, SharedPlan};
use cudarc::driver::{
    CudaContext, CudaSlice, CudaStream, DevicePtr, DeviceRepr, LaunchConfig, PushKernelArg, ValidAsZeroBits,
};
use std::sync::Arc;

pub type DResult<T> = Result<T, String>;

pub fn err(what: &str) -> impl Fn(cudarc::driver::DriverError) -> String + '_ {
    move |e| format!("CUDA {what} failed: {e}")
}

/// One group of learned nogoods: CSR with room for `cap_n` nogoods and `cap_lits` literals, and
/// the LBD of each nogood (`lbd[i]` for every `i < count`; deletion ranks by it).
pub struct Group {
    pub start: CudaSlice<u32>,
    pub lits: CudaSlice<u32>,
    pub lbd: CudaSlice<u32>,
    pub count: u32,
    pub used: u32,
    pub cap_n: u32,
    pub cap_lits: u32,
}

pub struct Device {
    pub ctx: Arc<CudaContext>,
    pub stream: Arc<CudaStream>,
    pub k: Arc<Kernels>,
    pub val: CudaSlice<i32>,
    pub prop: CudaSlice<i32>,
    pub prop_list: CudaSlice<u32>,
    pub prop_reason: CudaSlice<u32>,
    pub trail: CudaSlice<u32>,
    pub trail_pos: CudaSlice<u32>,
    pub reason: CudaSlice<u32>,
    pub level_start: CudaSlice<u32>,
    pub ctl: CudaSlice<Control>,
    pub ng_start: CudaSlice<u32>,
    pub ng_lits: CudaSlice<u32>,
    pub occ: Vec<(CudaSlice<u32>, CudaSlice<u32>)>,
    pub units: CudaSlice<u32>,
    pub w_head: CudaSlice<u32>,
    pub w_bound: CudaSlice<i64>,
    pub w_start: CudaSlice<u32>,
    pub w_lits: CudaSlice<u32>,
    pub w_weights: CudaSlice<i64>,
    pub w_occ_start: CudaSlice<u32>,
    pub w_occ: CudaSlice<u32>,
    pub dirty: CudaSlice<u32>,
    pub dirty_list: CudaSlice<u32>,
    /// The wide input nogoods (`Tables::wide`), and how many block 0 checks once a round through
    /// its marks (all, where its shared memory has room for their marks, else 0).
    pub wide: CudaSlice<u32>,
    pub nwide: u32,
    pub e_body: CudaSlice<u32>,
    pub e_head: CudaSlice<u32>,
    pub b_lit: CudaSlice<u32>,
    pub def_start: CudaSlice<u32>,
    pub def_lits: CudaSlice<u32>,
    pub def_weights: CudaSlice<i64>,
    pub bound: CudaSlice<i64>,
    pub score: CudaSlice<f32>,
    pub groups: Vec<Group>,
    /// The device's counts of the groups (`Db::lg_fill`): each group's `count`, then its `used`.
    /// The learning kernels advance them; the host's copies in `groups` follow (analyze.rs), and
    /// where the host appends or deletes it uploads its counts ([`Device::upload_fill`]).
    pub lg_fill: CudaSlice<u32>,
    pub seen: CudaSlice<u32>,
    pub touched: CudaSlice<u32>,
    /// learn_res_k's two bitmaps of trail positions (marked, resolved) for conflict levels too
    /// long for shared memory.
    pub res_bits: CudaSlice<u32>,
    /// learn_res_k's stamps by decision level (n + 2 entries, every level fits), for the LBD.
    pub level_stamp: CudaSlice<u32>,
    pub learned: CudaSlice<u32>,
    pub deps: Option<CudaSlice<u64>>,
    pub words: u32,
    /// The grid barrier of propagate_fix_k (its arrival counter, a word unused), its count of
    /// blocks done, its stop flag, its analysis' verdict and count, and its two ranking keys
    /// (64-bit).
    pub barrier: CudaSlice<u32>,
    pub mirror: CtlMirror,
    /// Block 0's shared memory in propagate_fix_k (see [`SharedPlan`]).
    pub shared: SharedPlan,
    /// learn_res_k's dynamic shared memory (see [`ResPlan`]).
    pub res_plan: ResPlan,
    /// The shared memory of propagate_fix_k's own analyses, after block 0's SharedView (see
    /// [`Device::fix_smem`]); without the seen bitmaps there (too many variables) it analyses
    /// none.
    pub fix_res: ResPlan,
    /// The propagation kernel of the learning scheme: propagate_fix_k, or propagate_fix_fwd_k
    /// under forward learning (fixpoint.cu).
    pub fix_kernel: Kernel,
}

/// At most this much of propagate_fix_k's dynamic shared memory goes to its analyses: every block
/// gets the dynamic shared memory of block 0, and what it takes is no longer L1 cache for the
/// others' sweeps. 32 KiB holds the seen bitmaps of 49,152 variables, the positions of a conflict
/// level of up to 32,768 literals, and for 3,000 variables (GraphColouring_0006) the prefetch of
/// 595 positions and a pool of 1,488 literals of their longer reasons.
const FIX_RES_LIMIT: u32 = 32 * 1024;

/// Allocates and uploads `data` (at least one element, so empty tables still have an address).
fn upload<T: DeviceRepr + Default + Clone>(stream: &Arc<CudaStream>, data: &[T]) -> DResult<CudaSlice<T>> {
    if data.is_empty() {
        return stream.clone_htod(&[T::default()]).map_err(err("upload"));
    }
    stream.clone_htod(data).map_err(err("upload"))
}

fn zeros<T: DeviceRepr + ValidAsZeroBits>(stream: &Arc<CudaStream>, n: usize) -> DResult<CudaSlice<T>> {
    stream.alloc_zeros::<T>(n.max(1)).map_err(err("allocation"))
}

fn ptr<T>(s: &CudaSlice<T>, stream: &Arc<CudaStream>) -> u64 {
    let (p, _sync) = s.device_ptr(stream);
    p
}

impl Device {
    /// Opens device 0, compiles the kernels and uploads the tables. `scores` are the initial
    /// heuristic scores, `fwd` asks for dependency bitmaps.
    /// `shared_limit`: the bytes of shared memory block 0 of propagate_fix_k may take.
    /// `analyses`: propagate_fix_k will analyse conflicts itself by resolution (it then gets
    /// shared memory for them, [`Device::fix_smem`]; forward learning in propagate_fix_fwd_k
    /// needs none). `own_stream`: the engine shares the GPU with others (a parallel run) and
    /// queues its work on a stream of its own, which runs beside theirs, instead of the default
    /// stream, which waits for every other.
    pub fn new(
        t: &Tables,
        num_vars: u32,
        scores: &[f32],
        fwd: bool,
        shared_limit: u32,
        analyses: bool,
        own_stream: bool,
    ) -> DResult<Device> {
        // SAFETY: only probes whether the driver library can be opened.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err("no CUDA driver (libcuda) found".into());
        }
        // SAFETY: as above, for NVRTC.
        if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
            return Err("no NVRTC (libnvrtc) found to compile the kernels".into());
        }
        match CudaContext::device_count() {
            Ok(n) if n > 0 => {}
            Ok(_) => return Err("no CUDA device found".into()),
            Err(e) => return Err(format!("no usable CUDA device: {e}")),
        }
        let (ctx, k) = Kernels::shared()?;
        // SAFETY: each engine uses one stream, so cross-stream event tracking is not needed.
        unsafe { ctx.disable_event_tracking() };
        let stream =
            if own_stream { ctx.new_stream().map_err(err("stream creation"))? } else { ctx.default_stream() };
        let n = num_vars as usize;
        let s = &stream;
        let mut val = vec![0i32; n];
        val[0] = 1;
        let mut trail = vec![0u32; n];
        trail[0] = 0;
        let ctl = Control {
            trail_len: 1,
            qhead: 0,
            qend: 1,
            conflict: NO_CONFLICT,
            ndirty: t.w_head.len() as u32,
            decided: NO_CONFLICT,
            ..Default::default()
        };
        let cap_n = 4096u32;
        let groups = (0..LEARNED_GROUPS)
            .map(|g| {
                let per = [2u32, 3, 7, 32][g];
                Ok(Group {
                    start: zeros(s, cap_n as usize + 1)?,
                    lits: zeros(s, (cap_n * per) as usize)?,
                    lbd: zeros(s, cap_n as usize)?,
                    count: 0,
                    used: 0,
                    cap_n,
                    cap_lits: cap_n * per,
                })
            })
            .collect::<DResult<Vec<Group>>>()?;
        let words = 4u32;
        let deps = if fwd { Some(zeros::<u64>(s, n * words as usize)?) } else { None };
        let nw = t.w_head.len();
        let all: Vec<u32> = (0..nw as u32).collect();
        let fix_kernel = if fwd { Kernel::PropagateFixFwd } else { Kernel::PropagateFix };
        let fix_limit = k.max_dynamic_shared(fix_kernel);
        // Block 0's marks: the weight constraints' and the wide nogoods' where both fit, else the
        // weight constraints' alone (the wide nogoods then checked where their literals are).
        let nwide = (t.wide.len() / 4) as u32;
        let limit = shared_limit.min(fix_limit);
        let mut shared = SharedPlan::new(num_vars, nw as u32 + nwide, limit);
        if shared.weights == 0 && nwide > 0 {
            shared = SharedPlan::new(num_vars, nw as u32, limit);
        }
        let nwide = if nwide > 0 && shared.weights == nw as u32 + nwide { nwide } else { 0 };
        let fix_res = match fix_limit.checked_sub(shared.bytes().next_multiple_of(16)) {
            Some(left) if analyses => ResPlan::new(num_vars, left.min(FIX_RES_LIMIT)),
            _ => ResPlan::default(),
        };
        let fix_res = if fix_res.seen_words > 0 { fix_res } else { ResPlan::default() };
        Ok(Device {
            val: upload(s, &val)?,
            prop: zeros(s, n)?,
            prop_list: zeros(s, n)?,
            prop_reason: zeros(s, n)?,
            trail: upload(s, &trail)?,
            trail_pos: zeros(s, n)?,
            reason: zeros(s, n)?,
            level_start: zeros(s, n + 2)?,
            ctl: upload(s, &[ctl])?,
            ng_start: upload(s, &t.ng_start)?,
            ng_lits: upload(s, &t.ng_lits)?,
            occ: t.occ.iter().map(|(a, b)| Ok((upload(s, a)?, upload(s, b)?))).collect::<DResult<_>>()?,
            units: upload(s, &t.units)?,
            w_head: upload(s, &t.w_head)?,
            w_bound: upload(s, &t.w_bound)?,
            w_start: upload(s, &t.w_start)?,
            w_lits: upload(s, &t.w_lits)?,
            w_weights: upload(s, &t.w_weights)?,
            w_occ_start: upload(s, &t.w_occ.0)?,
            w_occ: upload(s, &t.w_occ.1)?,
            dirty: upload(s, &vec![1u32; nw])?,
            dirty_list: upload(s, &all)?,
            wide: upload(s, &t.wide)?,
            nwide,
            e_body: upload(s, &t.e_body)?,
            e_head: upload(s, &t.e_head)?,
            b_lit: upload(s, &t.b_lit)?,
            def_start: upload(s, &t.def_start)?,
            def_lits: upload(s, &t.def_lits)?,
            def_weights: upload(s, &t.def_weights)?,
            bound: upload(s, &t.bound)?,
            score: upload(s, scores)?,
            groups,
            lg_fill: zeros(s, 2 * LEARNED_GROUPS)?,
            seen: zeros(s, n)?,
            touched: zeros(s, n)?,
            res_bits: zeros(s, 2 * (n / 32 + 2))?,
            level_stamp: zeros(s, n + 2)?,
            learned: zeros(s, n + 1)?,
            deps,
            words,
            barrier: zeros(s, 10)?,
            mirror: CtlMirror::new(&ctx)?,
            shared,
            res_plan: ResPlan::new(num_vars, k.max_dynamic_shared(Kernel::LearnRes)),
            fix_res,
            fix_kernel,
            k,
            ctx,
            stream,
        })
    }

    pub fn db(&self) -> DeviceDb {
        let s = &self.stream;
        let mut db = DeviceDb {
            ng_start: ptr(&self.ng_start, s),
            ng_lits: ptr(&self.ng_lits, s),
            w_head: ptr(&self.w_head, s),
            w_bound: ptr(&self.w_bound, s),
            w_start: ptr(&self.w_start, s),
            w_lits: ptr(&self.w_lits, s),
            w_weights: ptr(&self.w_weights, s),
            lg_fill: ptr(&self.lg_fill, s),
            ..Default::default()
        };
        for (g, grp) in self.groups.iter().enumerate() {
            db.lg_start[g] = ptr(&grp.start, s);
            db.lg_lits[g] = ptr(&grp.lits, s);
            db.lg_lbd[g] = ptr(&grp.lbd, s);
        }
        db
    }

    /// The arguments of propagate_fix_k for the current buffers; `rank`: rank the decisions at
    /// the fixpoint (over `entries` decision entries).
    pub fn fix_args(&self, class_sizes: [usize; 3], nweights: usize, rank: bool, entries: u32) -> FixArgs {
        let s = &self.stream;
        let mut a = FixArgs {
            val: ptr(&self.val, s),
            prop: ptr(&self.prop, s),
            prop_list: ptr(&self.prop_list, s),
            prop_reason: ptr(&self.prop_reason, s),
            ctl: ptr(&self.ctl, s),
            trail: ptr(&self.trail, s),
            trail_pos: ptr(&self.trail_pos, s),
            reason: ptr(&self.reason, s),
            class_size: class_sizes.map(|n| n as u32),
            w_occ_start: ptr(&self.w_occ_start, s),
            w_occ: ptr(&self.w_occ, s),
            dirty: ptr(&self.dirty, s),
            dirty_list: ptr(&self.dirty_list, s),
            nweights: nweights as u32,
            words: self.words,
            deps: self.deps_ptr(),
            barrier: ptr(&self.barrier, s),
            ctl_host: self.mirror.dev,
            rank: rank as u32,
            entries,
            e_body: ptr(&self.e_body, s),
            e_head: ptr(&self.e_head, s),
            b_lit: ptr(&self.b_lit, s),
            def_start: ptr(&self.def_start, s),
            def_lits: ptr(&self.def_lits, s),
            def_weights: ptr(&self.def_weights, s),
            bound: ptr(&self.bound, s),
            score: ptr(&self.score, s),
            nvars: self.val.len() as u32,
            swords: self.shared.words,
            scap: self.shared.cap,
            sweights: self.shared.weights,
            level_start: ptr(&self.level_start, s),
            seg_cap: self.fix_res.seg_cap,
            seen_words: self.fix_res.seen_words,
            mark_words: self.fix_res.mark_words,
            pool_cap: self.fix_res.pool_cap,
            learned: ptr(&self.learned, s),
            res_bits: ptr(&self.res_bits, s),
            wide: ptr(&self.wide, s),
            nwide: self.nwide,
            ..Default::default()
        };
        for (c, (start, occ)) in self.occ.iter().enumerate() {
            a.occ_start[c] = ptr(start, s);
            a.occ[c] = ptr(occ, s);
        }
        a
    }

    /// The grid of propagate_fix_k: `per_sm` blocks per multiprocessor (at most what is resident
    /// at once: its grid barrier waits for every block) of as many threads as fit, up to
    /// `max_threads` (block 0 runs the short rounds alone, a warp per frontier literal), and of
    /// those blocks the `share`-th part (at least one) where `share` engines run at once. None
    /// where the device cannot launch cooperative kernels.
    pub fn cooperative_grid(&self, per_sm: u32, max_threads: u32, share: u32) -> Option<(u32, u32)> {
        use cudarc::driver::sys::CUdevice_attribute::{
            CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
        };
        if self.ctx.attribute(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH).ok()? == 0 {
            return None;
        }
        let sms = self.ctx.attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).ok()? as u32;
        let f = self.k.get(self.fix_kernel);
        [1024u32, 512, 256, 128].into_iter().filter(|&t| t <= max_threads).find_map(|threads| {
            let smem = self.fix_smem() as usize;
            let fits = f.occupancy_max_active_blocks_per_multiprocessor(threads, smem, None).ok()?;
            (fits > 0).then(|| ((sms * per_sm.min(fits) / share.max(1)).max(1), threads))
        })
    }

    /// propagate_fix_k's dynamic shared memory: block 0's SharedView, then, 16-byte aligned, the
    /// state of its own analyses where there is a plan for them.
    pub fn fix_smem(&self) -> u32 {
        if self.fix_res.seen_words == 0 {
            return self.shared.bytes();
        }
        self.shared.bytes().next_multiple_of(16) + self.fix_res.bytes()
    }

    /// The device address of the dependency table, or 0 without forward learning.
    pub fn deps_ptr(&self) -> u64 {
        self.deps.as_ref().map_or(0, |d| ptr(d, &self.stream))
    }

    /// The control block after the work queued so far, through the mirror (publish_ctl_k).
    pub fn read_ctl(&self) -> DResult<Control> {
        self.mirror.arm();
        let mut b = self.stream.launch_builder(self.k.get(Kernel::PublishCtl));
        b.arg(&self.ctl).arg(&self.mirror.dev);
        // SAFETY: the arguments match publish_ctl_k's signature.
        unsafe { b.launch(self.cfg(1, 1)) }.map_err(err(Kernel::PublishCtl.name()))?;
        self.mirror.wait(&self.stream)
    }

    pub fn cfg(&self, blocks: usize, threads: u32) -> LaunchConfig {
        LaunchConfig {
            grid_dim: (blocks.clamp(1, 65_535) as u32, 1, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes: 0,
        }
    }

    /// Grid size for `n` items at one thread each.
    pub fn blocks(n: usize, tpb: u32) -> usize {
        n.div_ceil(tpb as usize).clamp(1, 4096)
    }

    /// Makes room for `n` more nogoods of `len` literals in all in group `g` (at least doubling
    /// on the device).
    pub fn reserve(&mut self, g: usize, n: u32, len: u32) -> DResult<()> {
        let s = Arc::clone(&self.stream);
        let grp = &mut self.groups[g];
        if grp.count + n >= grp.cap_n {
            let cap = (grp.cap_n * 2).max(grp.count + n + 1);
            let mut start = zeros::<u32>(&s, cap as usize + 1)?;
            s.memcpy_dtod(&grp.start, &mut start.slice_mut(..grp.cap_n as usize + 1)).map_err(err("copy"))?;
            let mut lbd = zeros::<u32>(&s, cap as usize)?;
            s.memcpy_dtod(&grp.lbd, &mut lbd.slice_mut(..grp.cap_n as usize)).map_err(err("copy"))?;
            grp.start = start;
            grp.lbd = lbd;
            grp.cap_n = cap;
        }
        if grp.used + len >= grp.cap_lits {
            let cap = (grp.cap_lits * 2).max(grp.used + len + 1);
            let mut lits = zeros::<u32>(&s, cap as usize)?;
            s.memcpy_dtod(&grp.lits, &mut lits.slice_mut(..grp.cap_lits as usize)).map_err(err("copy"))?;
            grp.lits = lits;
            grp.cap_lits = cap;
        }
        Ok(())
    }

    /// Uploads the host's counts of the groups to `lg_fill` (after the host appended or deleted).
    pub fn upload_fill(&mut self) -> DResult<()> {
        let fill = self.fill();
        self.stream.memcpy_htod(&fill, &mut self.lg_fill).map_err(err("upload"))
    }

    /// The host's counts of the groups in the layout of `lg_fill`.
    pub fn fill(&self) -> Vec<u32> {
        let count = self.groups.iter().map(|g| g.count);
        count.chain(self.groups.iter().map(|g| g.used)).collect()
    }

    /// Makes room for one more nogood of any length (at most `max_len` literals) in every group,
    /// so that a learning kernel can append to the group the length it finds decides.
    pub fn reserve_learning(&mut self, max_len: u32) -> DResult<()> {
        self.reserve_learning_for(1, max_len)
    }

    /// Room in every group for `n` more nogoods of up to `max_len` literals (propagate_fix_k's
    /// own analyses, which store theirs without the host).
    pub fn reserve_learning_for(&mut self, n: u32, max_len: u32) -> DResult<()> {
        for g in 0..LEARNED_GROUPS {
            self.reserve(g, n, n * GROUP_MAX_LEN.get(g).copied().unwrap_or(max_len))?;
        }
        Ok(())
    }

    /// Widens the dependency table to cover `level`.
    pub fn ensure_level(&mut self, level: u32, num_vars: u32, tpb: u32) -> DResult<()> {
        let Some(old) = &self.deps else { return Ok(()) };
        if level < self.words * 64 {
            return Ok(());
        }
        let mut words = self.words;
        while level >= words * 64 {
            words *= 2;
        }
        let mut new = zeros::<u64>(&self.stream, num_vars as usize * words as usize)?;
        let cfg = self.cfg(Self::blocks(num_vars as usize, tpb), tpb);
        let mut b = self.stream.launch_builder(self.k.get(Kernel::DepsGrow));
        b.arg(old).arg(&self.words).arg(&mut new).arg(&words).arg(&num_vars);
        // SAFETY: the arguments match deps_grow_k's signature.
        unsafe { b.launch(cfg) }.map_err(err("deps_grow_k"))?;
        self.deps = Some(new);
        self.words = words;
        log::debug!("dependency bitmaps widened to {} levels", words * 64);
        Ok(())
    }
}
