//! Device memory of the CUDA engine: [`Device`] holds it by concern (where the kernels run, the
//! search state, the input nogoods, the weight constraints, the decision tables, the learned
//! groups, the analysis' scratch, the dependency bitmaps, the shared-memory plans and the
//! cooperative launch), allocates and uploads it once from the [`Tables`], and builds the
//! arguments that name many parts at once (`Db`, `FixArgs`). The learned groups and the
//! dependency table grow on the device when full.
//!
//! Invariant: the groups' counts on the device (`groups.lg_fill`) equal the host's (each group's
//! `count` and `used`) after every applied analysis; asserted in debug builds (`check_fill`,
//! analyze.rs). See [`super::groups`].

use super::args::PublishCtlArgs;
use super::buffers::{AnalysisBuffers, AssignmentBuffers, DecisionBuffers, InputNogoods, WeightConstraints};
use super::forward::DepsTable;
use super::groups::LearnedGroups;
use super::kernels::{Kernel, Kernels};
use super::launch::{Gpu, cfg};
use super::layout::{Control, DeviceDb, FixArgs, NO_CONFLICT, Tables};
use super::mirror::CtlMirror;
use super::smem::SmemPlans;
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DeviceRepr, ValidAsZeroBits};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub type DResult<T> = Result<T, String>;

pub fn err(what: &str) -> impl Fn(cudarc::driver::DriverError) -> String + '_ {
    move |e| format!("CUDA {what} failed: {e}")
}

/// How [`Device::new`] sets the device up.
pub struct DeviceOptions {
    /// Forward learning: dependency bitmaps, and propagate_fix_fwd_k.
    pub fwd: bool,
    /// The bytes of shared memory block 0 of propagate_fix_k may take.
    pub shared_limit: u32,
    /// propagate_fix_k will analyse conflicts itself by resolution (it then gets shared memory
    /// for them, [`SmemPlans::fix_res`]; forward learning in propagate_fix_fwd_k needs none).
    pub analyses: bool,
    /// The engine shares the GPU with others (a parallel run) and queues its work on a stream of
    /// its own, which runs beside theirs, instead of the default stream, which waits for every
    /// other.
    pub own_stream: bool,
    /// Threads per block of the launches with a thread per item ([`Gpu::tpb`]).
    pub tpb: u32,
    /// The CUDA device (its ordinal).
    pub ordinal: u32,
}

/// The launch of the propagation to the fixpoint (fixpoint.cu).
/// Invariant: `grid`, where set, does not exceed the blocks resident at once (its grid barrier
/// waits for every block; [`Device::cooperative_grid`]).
pub struct Cooperative {
    /// The propagation kernel of the learning scheme: propagate_fix_k, or propagate_fix_fwd_k
    /// under forward learning.
    pub kernel: Kernel,
    /// Its grid barrier (the arrival counter, a word unused), its count of blocks done, its stop
    /// flag, its analysis' verdict and count, and its two ranking keys (64-bit).
    pub barrier: CudaSlice<u32>,
    /// The grid (blocks, threads) when the device drives the propagation rounds, else None: the
    /// host drives them (set by the engine from [`Device::cooperative_grid`]).
    pub grid: Option<(u32, u32)>,
}

/// The CUDA engine's device: every part of its memory, by concern.
pub struct Device {
    pub gpu: Gpu,
    pub assignment: AssignmentBuffers,
    /// The control block's pinned host copy, which the kernels publish to.
    pub ctl_mirror: CtlMirror,
    pub input: InputNogoods,
    pub weights: WeightConstraints,
    pub decide: DecisionBuffers,
    pub groups: LearnedGroups,
    pub analysis: AnalysisBuffers,
    pub deps: DepsTable,
    pub smem: SmemPlans,
    pub coop: Cooperative,
}

/// Allocates and uploads `data` (at least one element, so empty tables still have an address).
pub(super) fn upload<T: DeviceRepr + Default + Clone>(
    stream: &Arc<CudaStream>,
    data: &[T],
) -> DResult<CudaSlice<T>> {
    if data.is_empty() {
        return stream.clone_htod(&[T::default()]).map_err(err("upload"));
    }
    stream.clone_htod(data).map_err(err("upload"))
}

pub(super) fn zeros<T: DeviceRepr + ValidAsZeroBits>(
    stream: &Arc<CudaStream>,
    n: usize,
) -> DResult<CudaSlice<T>> {
    stream.alloc_zeros::<T>(n.max(1)).map_err(err("allocation"))
}

pub(super) fn ptr<T>(s: &CudaSlice<T>, stream: &Arc<CudaStream>) -> u64 {
    let (p, _sync) = s.device_ptr(stream);
    p
}

/// The driver's work under way on threads aside (kernel loads, [`Device::count_until`]).
static LOADING: AtomicUsize = AtomicUsize::new(0);

/// Counts a kernel load as done when its thread ends, however it ends.
struct Loaded;

impl Drop for Loaded {
    fn drop(&mut self) {
        LOADING.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Device {
    /// Whether there is a driver, NVRTC and a device: what [`Device::new`] needs before it opens
    /// the device.
    pub fn probe() -> DResult<()> {
        if let Some(missing) = Self::missing_library() {
            return Err(missing.into());
        }
        match cudarc::driver::CudaContext::device_count() {
            Ok(n) if n > 0 => Ok(()),
            Ok(_) => Err("no CUDA device found".into()),
            Err(e) => Err(format!("no usable CUDA device: {e}")),
        }
    }

    /// The library that the GPU needs and that cannot be opened, if one cannot: the CUDA driver
    /// or NVRTC. Cheap (no device is initialized) and probed once: `--backend=auto` reads it to
    /// take the CPU engine at once on a machine without them. The libraries found stay loaded,
    /// so that the driver's own loading finds them there (opened and closed again, as cudarc's
    /// probe does, they cost twice: 5 ms for NVRTC on an H200 machine).
    pub fn missing_library() -> Option<&'static str> {
        static MISSING: std::sync::OnceLock<Option<&'static str>> = std::sync::OnceLock::new();
        *MISSING.get_or_init(|| {
            // SAFETY: loads a library and leaks the handle; nothing in it is called here.
            let loaded = |name: &str| {
                cudarc::get_lib_name_candidates(name)
                    .iter()
                    .any(|c| unsafe { libloading::Library::new(c) }.map(std::mem::forget).is_ok())
            };
            if !loaded("cuda") {
                return Some("no CUDA driver (libcuda) found");
            }
            if !loaded("nvrtc") {
                return Some("no NVRTC (libnvrtc) found to compile the kernels");
            }
            None
        })
    }

    /// The CUDA devices there are (after [`Device::probe`]).
    pub fn count() -> DResult<u32> {
        Self::probe()?;
        cudarc::driver::CudaContext::device_count().map(|n| n.max(0) as u32).map_err(err("device count"))
    }

    /// The devices' number, or an error naming the first of `ordinals` that is not there.
    pub fn check_ordinals(ordinals: &[u32]) -> DResult<u32> {
        let there = Self::count()?;
        match ordinals.iter().find(|&&o| o >= there) {
            Some(o) => Err(format!("there is no CUDA device {o} (devices: 0 to {})", there - 1)),
            None => Ok(there),
        }
    }

    /// Opens the devices `ordinals` and loads the kernels on each (compiled by NVRTC the first
    /// time, seconds; then from the PTX cache) on a thread of their own, polling `stop`
    /// meanwhile: false if it came first (the thread finishes aside).
    pub fn load_kernels_until(ordinals: &[u32], stop: &crate::stop::StopToken) -> DResult<bool> {
        Ok(Self::load_kernels_while(ordinals, stop, || ())?.is_some())
    }

    /// [`load_kernels_until`](Self::load_kernels_until), doing `meanwhile` on this thread while
    /// the devices open (a tenth of a second each, and more for a first compilation): its result,
    /// or `None` if the stop came first.
    pub fn load_kernels_while<T>(
        ordinals: &[u32],
        stop: &crate::stop::StopToken,
        meanwhile: impl FnOnce() -> T,
    ) -> DResult<Option<T>> {
        Self::check_ordinals(ordinals)?;
        let load = Self::load_aside(Some(ordinals.to_vec()));
        let done = meanwhile();
        if !Self::ends_before(&load, stop) {
            return Ok(None);
        }
        load.join().map_err(|_| "loading the kernels panicked".to_string())??;
        Ok(Some(done))
    }

    /// Initializes the driver and counts the devices on a thread of their own, polling `stop`
    /// meanwhile: false if it came first (the thread finishes aside). The initialization alone
    /// takes a tenth of a second (H200), which a race's CPU searches that answer first must not
    /// wait for; after it, counting and querying the devices return at once. What fails is met
    /// again by what counts them next, and reported there.
    pub fn count_until(stop: &crate::stop::StopToken) -> bool {
        Self::ends_before(&Self::aside(|| Self::count().map(|_| ())), stop)
    }

    /// Whether `load` ends before `stop` comes.
    fn ends_before(load: &std::thread::JoinHandle<DResult<()>>, stop: &crate::stop::StopToken) -> bool {
        while !load.is_finished() {
            if stop.reached().is_some() {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        true
    }

    /// Opens the devices `ordinals` (every one where `None`) and loads the kernels there on a
    /// thread of its own, left to run while the run reads its input: the driver's initialization
    /// and a context take a tenth of a second each (H200), a first compilation seconds. The search
    /// later finds them open ([`Kernels::on`] keeps them); what fails here fails again there, where
    /// it is reported.
    pub fn open_early(ordinals: Option<Vec<u32>>) {
        let t = std::time::Instant::now();
        let open = Self::load_aside(ordinals);
        std::thread::spawn(move || match open.join() {
            Ok(Ok(())) => log::debug!("CUDA devices opened early in {:.3}s", t.elapsed().as_secs_f64()),
            Ok(Err(e)) => log::debug!("CUDA devices not opened early: {e}"),
            Err(_) => log::debug!("opening the CUDA devices early panicked"),
        });
    }

    /// A thread that opens the devices `ordinals` (every one where `None`) and loads the kernels
    /// there ([`aside`](Self::aside)).
    fn load_aside(ordinals: Option<Vec<u32>>) -> std::thread::JoinHandle<DResult<()>> {
        Self::aside(move || {
            // The driver is there (a missing library makes cudarc panic), with the devices.
            let there = Self::count()?;
            let ordinals = ordinals.unwrap_or_else(|| (0..there).collect());
            ordinals.iter().try_for_each(|&o| Kernels::on(o).map(|_| ()))
        })
    }

    /// A thread that does `work` with the driver, counted among the loads under way until it ends.
    fn aside(work: impl FnOnce() -> DResult<()> + Send + 'static) -> std::thread::JoinHandle<DResult<()>> {
        LOADING.fetch_add(1, Ordering::AcqRel);
        std::thread::spawn(move || {
            let _done = Loaded;
            // SIGINT and SIGTERM go to the other threads: the handler installs without SA_RESTART,
            // and NVRTC must not see its reads interrupted.
            // SAFETY: a zeroed sigset filled by sigemptyset/sigaddset; this thread's mask only.
            unsafe {
                let mut set: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut set);
                libc::sigaddset(&mut set, libc::SIGINT);
                libc::sigaddset(&mut set, libc::SIGTERM);
                libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            }
            work()
        })
    }

    /// Whether the driver is at work on a thread that a stop left to finish aside
    /// ([`load_kernels_until`](Self::load_kernels_until), [`count_until`](Self::count_until)), or
    /// that opens the devices early for a run that may end first
    /// ([`open_early`](Self::open_early)): the process must not end through
    /// `exit` then, whose teardown of the CUDA libraries would pull them from under that thread
    /// (a crash after the answer is printed).
    pub fn loading_aside() -> bool {
        LOADING.load(Ordering::Acquire) > 0
    }

    /// Opens device `o.ordinal`, compiles the kernels and uploads the tables. `scores` are the
    /// initial heuristic scores.
    pub fn new(t: &Tables, num_vars: u32, scores: &[f32], o: &DeviceOptions) -> DResult<Device> {
        Self::probe()?;
        let (ctx, kernels) = Kernels::for_search(o.ordinal)?;
        // SAFETY: each engine uses one stream, so cross-stream event tracking is not needed.
        unsafe { ctx.disable_event_tracking() };
        let stream = if o.own_stream {
            ctx.new_stream().map_err(err("stream creation"))?
        } else {
            ctx.default_stream()
        };
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
        let groups = LearnedGroups::empty(s)?;
        let words = 4u32;
        let deps = if o.fwd { Some(zeros::<u64>(s, n * words as usize)?) } else { None };
        let nw = t.w_head.len();
        let all: Vec<u32> = (0..nw as u32).collect();
        let fix_kernel = if o.fwd { Kernel::PropagateFixFwd } else { Kernel::PropagateFix };
        let (smem, nwide) = SmemPlans::new(
            num_vars,
            nw as u32,
            (t.wide.len() / 4) as u32,
            o.shared_limit,
            kernels.max_dynamic_shared(fix_kernel),
            kernels.max_dynamic_shared(Kernel::LearnRes),
            o.analyses,
        );
        // Allocated and uploaded in this order.
        let assignment = AssignmentBuffers {
            val: upload(s, &val)?,
            prop: zeros(s, n)?,
            prop_list: zeros(s, n)?,
            prop_reason: zeros(s, n)?,
            trail: upload(s, &trail)?,
            trail_pos: zeros(s, n)?,
            reason: zeros(s, n)?,
            level_start: zeros(s, n + 2)?,
            ctl: upload(s, &[ctl])?,
        };
        let ng_start = upload(s, &t.ng_start)?;
        let ng_lits = upload(s, &t.ng_lits)?;
        let occ = t.occ.iter().map(|(a, b)| Ok((upload(s, a)?, upload(s, b)?))).collect::<DResult<_>>()?;
        let units = upload(s, &t.units)?;
        let weights = WeightConstraints {
            w_head: upload(s, &t.w_head)?,
            w_bound: upload(s, &t.w_bound)?,
            w_start: upload(s, &t.w_start)?,
            w_lits: upload(s, &t.w_lits)?,
            w_weights: upload(s, &t.w_weights)?,
            w_occ_start: upload(s, &t.w_occ.0)?,
            w_occ: upload(s, &t.w_occ.1)?,
            dirty: upload(s, &vec![1u32; nw])?,
            dirty_list: upload(s, &all)?,
            count: nw,
            cost_slot: t.cost_slot.clone(),
        };
        let input = InputNogoods {
            ng_start,
            ng_lits,
            occ,
            units,
            wide: upload(s, &t.wide)?,
            nwide,
            class_sizes: t.class_sizes,
        };
        let decide = DecisionBuffers {
            e_body: upload(s, &t.e_body)?,
            e_head: upload(s, &t.e_head)?,
            b_lit: upload(s, &t.b_lit)?,
            def_start: upload(s, &t.def_start)?,
            def_lits: upload(s, &t.def_lits)?,
            def_weights: upload(s, &t.def_weights)?,
            bound: upload(s, &t.bound)?,
            score: upload(s, scores)?,
        };
        let groups = LearnedGroups::new(groups, s)?;
        let analysis = AnalysisBuffers {
            seen: zeros(s, n)?,
            touched: zeros(s, n)?,
            res_bits: zeros(s, 2 * (n / 32 + 2))?,
            level_stamp: zeros(s, n + 2)?,
            learned: zeros(s, n + 1)?,
        };
        let coop = Cooperative { kernel: fix_kernel, barrier: zeros(s, 10)?, grid: None };
        let ctl_mirror = CtlMirror::new(&ctx)?;
        Ok(Device {
            gpu: Gpu { ctx, stream, kernels, tpb: o.tpb },
            assignment,
            ctl_mirror,
            input,
            weights,
            decide,
            groups,
            analysis,
            deps: DepsTable { table: deps, words },
            smem,
            coop,
        })
    }

    /// The kernels' view of the nogood database (`struct Db`): the input nogoods, the learned
    /// groups and their counts, the weight constraints.
    pub fn db(&self) -> DeviceDb {
        let s = &self.gpu.stream;
        let (input, w) = (&self.input, &self.weights);
        let mut db = DeviceDb {
            ng_start: ptr(&input.ng_start, s),
            ng_lits: ptr(&input.ng_lits, s),
            w_head: ptr(&w.w_head, s),
            w_bound: ptr(&w.w_bound, s),
            w_start: ptr(&w.w_start, s),
            w_lits: ptr(&w.w_lits, s),
            w_weights: ptr(&w.w_weights, s),
            lg_fill: ptr(&self.groups.lg_fill, s),
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
    /// the fixpoint (over `entries` decision entries). The caller sets what varies per launch
    /// (`decide`, `learn`, `pending`, `inc`).
    pub fn fix_args(&self, rank: bool, entries: u32) -> FixArgs {
        let s = &self.gpu.stream;
        let (a, w, d) = (&self.assignment, &self.weights, &self.decide);
        let (plan, res) = (&self.smem.fix, &self.smem.fix_res);
        let mut args = FixArgs {
            val: ptr(&a.val, s),
            prop: ptr(&a.prop, s),
            prop_list: ptr(&a.prop_list, s),
            prop_reason: ptr(&a.prop_reason, s),
            ctl: ptr(&a.ctl, s),
            trail: ptr(&a.trail, s),
            trail_pos: ptr(&a.trail_pos, s),
            reason: ptr(&a.reason, s),
            class_size: self.input.class_sizes.map(|n| n as u32),
            w_occ_start: ptr(&w.w_occ_start, s),
            w_occ: ptr(&w.w_occ, s),
            dirty: ptr(&w.dirty, s),
            dirty_list: ptr(&w.dirty_list, s),
            nweights: w.count as u32,
            words: self.deps.words,
            deps: self.deps.ptr(&self.gpu),
            barrier: ptr(&self.coop.barrier, s),
            ctl_host: self.ctl_mirror.dev,
            rank: rank as u32,
            entries,
            e_body: ptr(&d.e_body, s),
            e_head: ptr(&d.e_head, s),
            b_lit: ptr(&d.b_lit, s),
            def_start: ptr(&d.def_start, s),
            def_lits: ptr(&d.def_lits, s),
            def_weights: ptr(&d.def_weights, s),
            bound: ptr(&d.bound, s),
            score: ptr(&d.score, s),
            nvars: a.val.len() as u32,
            swords: plan.words,
            scap: plan.cap,
            sweights: plan.weights,
            level_start: ptr(&a.level_start, s),
            seg_cap: res.seg_cap,
            seen_words: res.seen_words,
            mark_words: res.mark_words,
            pool_cap: res.pool_cap,
            learned: ptr(&self.analysis.learned, s),
            res_bits: ptr(&self.analysis.res_bits, s),
            wide: ptr(&self.input.wide, s),
            nwide: self.input.nwide,
            ..Default::default()
        };
        for (c, (start, occ)) in self.input.occ.iter().enumerate() {
            args.occ_start[c] = ptr(start, s);
            args.occ[c] = ptr(occ, s);
        }
        args
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
        let ctx = &self.gpu.ctx;
        if ctx.attribute(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH).ok()? == 0 {
            return None;
        }
        let sms = ctx.attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).ok()? as u32;
        let f = self.gpu.kernels.get(self.coop.kernel);
        [1024u32, 512, 256, 128].into_iter().filter(|&t| t <= max_threads).find_map(|threads| {
            let smem = self.smem.fix_bytes() as usize;
            let fits = f.occupancy_max_active_blocks_per_multiprocessor(threads, smem, None).ok()?;
            (fits > 0).then(|| ((sms * per_sm.min(fits) / share.max(1)).max(1), threads))
        })
    }

    /// The control block after the work queued so far, through the mirror (publish_ctl_k).
    pub fn read_ctl(&self) -> DResult<Control> {
        self.ctl_mirror.arm();
        let args = PublishCtlArgs { ctl: &self.assignment.ctl, host: self.ctl_mirror.dev };
        self.gpu.launch(cfg(1, 1), args)?;
        self.ctl_mirror.wait(&self.gpu.stream)
    }
}
