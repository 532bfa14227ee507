//! The typed registry of the CUDA kernels, their sources (embedded at build time from `kernels/`),
//! and their compilation with NVRTC at run time, with the PTX cached on disk.
//!
//! Every kernel the host launches is a [`Kernel`]; its name must exist in the sources (tested),
//! so a renamed kernel fails the tests instead of failing at launch on the device. Kernels are
//! looked up here alone (tested); their arguments are the structs of [`super::args`].

use cudarc::driver::{CudaContext, CudaFunction};
use cudarc::nvrtc::{CompileOptions, Ptx, compile_ptx_with_opts};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The shared header and the kernel files, in the order they are concatenated.
pub const HEADER: (&str, &str) = ("common.cuh", include_str!("../../../kernels/common.cuh"));
pub const SOURCES: [(&str, &str); 10] = [
    ("propagate.cu", include_str!("../../../kernels/propagate.cu")),
    ("decide.cu", include_str!("../../../kernels/decide.cu")),
    ("backjump.cu", include_str!("../../../kernels/backjump.cu")),
    ("learn.cu", include_str!("../../../kernels/learn.cu")),
    ("fixpoint.cu", include_str!("../../../kernels/fixpoint.cu")),
    ("farm.cu", include_str!("../../../kernels/farm.cu")),
    ("farm_propagate.cu", include_str!("../../../kernels/farm_propagate.cu")),
    ("farm_learn.cu", include_str!("../../../kernels/farm_learn.cu")),
    ("farm_unfounded.cu", include_str!("../../../kernels/farm_unfounded.cu")),
    ("farm_search.cu", include_str!("../../../kernels/farm_search.cu")),
];

macro_rules! kernels {
    ($($variant:ident => $name:literal,)*) => {
        /// A kernel the host launches.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Kernel { $($variant,)* }

        impl Kernel {
            pub const ALL: &'static [Kernel] = &[$(Kernel::$variant,)*];

            pub fn name(self) -> &'static str {
                match self { $(Kernel::$variant => $name,)* }
            }
        }
    };
}

kernels! {
    InitUnits => "init_units_k",
    PropBin => "prop_bin_k",
    PropTern => "prop_tern_k",
    PropLong => "prop_long_k",
    PropLearned => "prop_learned_k",
    WeightMark => "weight_mark_k",
    WeightCheck => "weight_check_k",
    Merge => "merge_k",
    Deps => "deps_k",
    RoundEnd => "round_end_k",
    PropagateFix => "propagate_fix_k",
    PropagateFixFwd => "propagate_fix_fwd_k",
    CheckNogoods => "check_nogoods_k",
    CheckWeights => "check_weights_k",
    Decide => "decide_k",
    ApplyDecision => "apply_decision_k",
    Backjump => "backjump_k",
    SetLevel => "set_level_k",
    AppendLearned => "append_learned_k",
    Assert => "assert_k",
    DepsGrow => "deps_grow_k",
    Rescale => "rescale_k",
    LearnRes => "learn_res_k",
    LearnFwd => "learn_fwd_k",
    ForceDecision => "force_decision_k",
    SetConflict => "set_conflict_k",
    MarkDirty => "mark_dirty_k",
    PublishCtl => "publish_ctl_k",
    FarmSearch => "farm_search_k",
}

/// One translation unit: the header, then every kernel file without its `#include`, then the
/// checks that the shared structs match their Rust mirrors. `#line` directives keep each file's
/// own name and line numbers, for NVRTC's messages and the line information of
/// `YASMIN_CUDA_LINEINFO`.
pub fn translation_unit() -> String {
    let mut src = format!("#line 1 \"kernels/{}\"\n{}", HEADER.0, HEADER.1);
    for (name, text) in SOURCES {
        src.push_str(&format!("\n#line 1 \"kernels/{name}\"\n"));
        for line in text.lines() {
            if !line.trim_start().starts_with("#include \"common.cuh\"") {
                src.push_str(line);
            }
            src.push('\n');
        }
    }
    src.push_str("\n#line 1 \"layout_asserts (src/engine/cuda/layout.rs)\"\n");
    src.push_str(&super::layout::layout_asserts());
    src
}

fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    h
}

fn cache_dir() -> Option<std::path::PathBuf> {
    if let Some(d) = std::env::var_os("YASMIN_CACHE_DIR") {
        return Some(d.into());
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cache")))?;
    Some(base.join("yasmin"))
}

/// Compiles the kernels for the device's architecture (`compute_XY`), or loads the cached PTX
/// from `cache` (a directory) when it holds them.
pub fn compile(arch: &str, cache: Option<std::path::PathBuf>) -> Result<Ptx, String> {
    let src = translation_unit();
    // YASMIN_CUDA_LINEINFO=1: source lines in the PTX, for compute-sanitizer's and the
    // profilers' reports.
    let lineinfo = std::env::var_os("YASMIN_CUDA_LINEINFO").is_some_and(|v| !v.is_empty() && v != "0");
    let key = fnv(arch.as_bytes(), fnv(src.as_bytes(), 0xcbf2_9ce4_8422_2325)) ^ u64::from(lineinfo);
    let path = cache.map(|d| d.join(format!("kernels-{key:016x}.ptx")));
    if let Some(text) = path.as_ref().and_then(|p| std::fs::read_to_string(p).ok()) {
        log::debug!(
            "CUDA kernels from the PTX cache {}",
            path.as_ref().map_or(String::new(), |p| p.display().to_string())
        );
        return Ok(Ptx::from_src(text));
    }
    let t0 = std::time::Instant::now();
    let opts = CompileOptions {
        options: [format!("--gpu-architecture={arch}"), "--std=c++17".into()]
            .into_iter()
            .chain(lineinfo.then(|| "--generate-line-info".into()))
            .collect(),
        name: Some("yasmin.cu".into()),
        ..Default::default()
    };
    let ptx =
        compile_ptx_with_opts(&src, opts).map_err(|e| format!("NVRTC could not compile the kernels: {e}"))?;
    log::info!("CUDA kernels compiled with NVRTC in {:.2}s", t0.elapsed().as_secs_f64());
    if let Some(p) = &path
        && write_cache(p, &ptx.to_src()).is_err()
    {
        log::debug!("could not write the PTX cache {}", p.display());
    }
    Ok(ptx)
}

/// Writes `text` to the cache file `p`: aside, then renamed, so that a process that ends
/// mid-write (the GPU opened early by a run that ended first, `Device::open_early`), or another
/// writing at once, leaves no truncated file for the next run to load.
fn write_cache(p: &std::path::Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = p.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let aside = p.with_extension(format!("ptx.{}.part", std::process::id()));
    let written = std::fs::write(&aside, text).and_then(|()| std::fs::rename(&aside, p));
    if written.is_err() {
        let _ = std::fs::remove_file(&aside);
    }
    written
}

/// The loaded kernels of one context.
pub struct Kernels {
    functions: HashMap<Kernel, CudaFunction>,
    /// The dynamic shared memory each kernel of [`DYNAMIC_SHARED`] may be launched with (bytes).
    max_dynamic_shared: HashMap<Kernel, u32>,
}

/// The kernels launched with dynamic shared memory: propagate_fix_k and propagate_fix_fwd_k
/// (block 0's values and proposals, and its analyses' state) and learn_res_k (the conflict
/// level's prefetched reasons, the seen bitmap).
const DYNAMIC_SHARED: [Kernel; 3] = [Kernel::PropagateFix, Kernel::PropagateFixFwd, Kernel::LearnRes];

/// Whether [`Kernels::on`] has been asked to open a device, and whether a search has
/// ([`Kernels::for_search`]).
static OPENED: AtomicBool = AtomicBool::new(false);
static SEARCHED: AtomicBool = AtomicBool::new(false);

impl Kernels {
    pub fn load(ctx: &Arc<CudaContext>) -> Result<Kernels, String> {
        let (major, minor) = ctx.compute_capability().map_err(|e| format!("device query failed: {e}"))?;
        let ptx = compile(&format!("compute_{major}{minor}"), cache_dir())?;
        let t0 = std::time::Instant::now();
        let module = ctx.load_module(ptx).map_err(|e| format!("loading the kernels failed: {e}"))?;
        log::debug!("CUDA kernels loaded in {:.3}s", t0.elapsed().as_secs_f64());
        let mut functions = HashMap::new();
        for &k in Kernel::ALL {
            let f =
                module.load_function(k.name()).map_err(|e| format!("kernel {} not found: {e}", k.name()))?;
            functions.insert(k, f);
        }
        // The kernels with dynamic shared memory may take what a block can opt in to, less their
        // static shared memory: set once here, since the kernels are shared by every engine of
        // the process.
        use cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN;
        use cudarc::driver::sys::CUfunction_attribute::{
            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
        };
        let optin = ctx.attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN).unwrap_or(48 * 1024);
        let mut max_dynamic_shared = HashMap::new();
        for k in DYNAMIC_SHARED {
            let f = &functions[&k];
            let fixed = f.get_attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES).unwrap_or(48 * 1024);
            let max = (optin - fixed).max(0);
            let allowed = match f.set_attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, max) {
                Ok(()) => max,
                Err(e) => {
                    log::debug!("{} keeps the default dynamic shared memory limit: {e}", k.name());
                    (48 * 1024 - fixed).max(0)
                }
            };
            max_dynamic_shared.insert(k, allowed as u32);
        }
        Ok(Kernels { functions, max_dynamic_shared })
    }

    /// The dynamic shared memory kernel `k` may be launched with (bytes; 0 for the kernels
    /// without).
    pub fn max_dynamic_shared(&self, k: Kernel) -> u32 {
        self.max_dynamic_shared.get(&k).copied().unwrap_or(0)
    }

    /// Device 0's primary context with its kernels ([`Kernels::on`]).
    pub fn shared() -> Result<(Arc<CudaContext>, Arc<Kernels>), String> {
        Self::on(0)
    }

    /// Device `ordinal`'s primary context with the kernels loaded, shared by every engine of the
    /// process that runs there: the first engine pays for context creation and module loading
    /// (the PTX is compiled once for all devices, and cached), later ones (tests, several solves
    /// in one process, the searches of a parallel run) reuse them. Failures are not cached.
    pub fn on(ordinal: u32) -> Result<(Arc<CudaContext>, Arc<Kernels>), String> {
        OPENED.store(true, Ordering::Release);
        type Loaded = HashMap<u32, (Arc<CudaContext>, Arc<Kernels>)>;
        static LOADED: Mutex<Option<Loaded>> = Mutex::new(None);
        let mut slot = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        let loaded = slot.get_or_insert_with(HashMap::new);
        if let Some((ctx, k)) = loaded.get(&ordinal) {
            return Ok((ctx.clone(), k.clone()));
        }
        let t0 = std::time::Instant::now();
        let ctx = CudaContext::new(ordinal as usize)
            .map_err(|e| format!("CUDA context creation on device {ordinal} failed: {e}"))?;
        log::debug!("CUDA context on device {ordinal} in {:.3}s", t0.elapsed().as_secs_f64());
        let k = Arc::new(Kernels::load(&ctx)?);
        loaded.insert(ordinal, (ctx.clone(), k.clone()));
        Ok((ctx, k))
    }

    /// [`Kernels::on`] for a search that runs there (a CUDA engine, a farm).
    pub fn for_search(ordinal: u32) -> Result<(Arc<CudaContext>, Arc<Kernels>), String> {
        SEARCHED.store(true, Ordering::Release);
        Self::on(ordinal)
    }

    /// Whether a device was opened and the driver's teardown at the process' end would take its
    /// time for nothing (a tenth of a second on an H200, BENCHMARKS.md "Enumeration"): the
    /// process then ends without it. Where a search ran there under a tool injected into the
    /// driver (compute-sanitizer, Nsight), the teardown stays: the tool's leak check reads it.
    pub fn teardown_needless() -> bool {
        OPENED.load(Ordering::Acquire) && (!SEARCHED.load(Ordering::Acquire) || !Self::tool_injected())
    }

    /// Whether a tool is injected into the driver (compute-sanitizer, Nsight).
    pub fn tool_injected() -> bool {
        ["NV_SANITIZER_INJECTION_TRANSPORT_TYPE", "CUDA_INJECTION64_PATH"]
            .iter()
            .any(|v| std::env::var_os(v).is_some())
    }

    pub fn get(&self, k: Kernel) -> &CudaFunction {
        &self.functions[&k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The PTX cache is written whole under its name, with nothing left aside; over a file that
    /// is there, and into a directory made for it.
    #[test]
    fn the_ptx_cache_is_written_whole() {
        let dir = std::env::temp_dir().join(format!("yasmin-ptx-cache-{}", std::process::id()));
        let p = dir.join("sub").join("kernels-0123.ptx");
        for text in ["// first\n", "// second, longer\n"] {
            write_cache(&p, text).expect("written");
            assert_eq!(std::fs::read_to_string(&p).expect("read back"), text);
        }
        let dir_of = p.parent().expect("a directory");
        let names: Vec<_> =
            std::fs::read_dir(dir_of).expect("listed").flatten().map(|e| e.file_name()).collect();
        assert_eq!(names, ["kernels-0123.ptx"], "only the cache file");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The names of the `__global__` functions, past a `__launch_bounds__(...)` qualifier.
    fn kernels_in_sources() -> Vec<String> {
        let src = translation_unit();
        src.match_indices("__global__ void ")
            .map(|(i, m)| {
                let mut rest = src[i + m.len()..].trim_start();
                if let Some(r) = rest.strip_prefix("__launch_bounds__") {
                    rest = r.split_once(')').map_or("", |(_, after)| after).trim_start();
                }
                rest.split('(').next().unwrap_or("").trim().to_string()
            })
            .collect()
    }

    #[test]
    fn every_registered_kernel_exists_and_is_named_k() {
        let defined = kernels_in_sources();
        for &k in Kernel::ALL {
            assert!(k.name().ends_with("_k"), "{} does not end in _k", k.name());
            assert!(defined.iter().any(|d| d == k.name()), "kernel {} is not in kernels/", k.name());
        }
        for d in &defined {
            assert!(Kernel::ALL.iter().any(|k| k.name() == d), "kernel {d} in kernels/ is not registered");
        }
    }

    /// Kernels are looked up here alone, by [`Kernel`]: no other file of the engine loads a
    /// function or names a kernel in a string, and only launch.rs builds a launch.
    #[test]
    fn kernels_are_looked_up_by_the_registry_alone() {
        fn check(path: &std::path::Path) {
            let text = std::fs::read_to_string(path).expect("a source file");
            let name = path.display();
            assert!(!text.contains("load_function"), "{name} loads a kernel by name");
            if !path.ends_with("launch.rs") {
                assert!(!text.contains("launch_builder"), "{name} launches a kernel outside launch.rs");
            }
            for &k in Kernel::ALL {
                assert!(
                    !text.contains(&format!("\"{}\"", k.name())),
                    "{name} names {} in a string",
                    k.name()
                );
            }
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine/cuda");
        let (mut dirs, mut files) = (vec![dir.clone()], 0);
        while let Some(d) = dirs.pop() {
            for entry in std::fs::read_dir(&d).expect("a directory of src/engine/cuda") {
                let path = entry.expect("a directory entry").path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("kernels.rs") {
                    files += 1;
                    check(&path);
                }
            }
        }
        assert!(files > 10, "the engine's files were not found in {}", dir.display());
    }

    /// After each `#line 1 "kernels/F"`, line k of the translation unit is line k of F (its
    /// `#include` left blank), so NVRTC's messages and the line information point at the files.
    #[test]
    fn line_directives_keep_each_files_lines() {
        let src = translation_unit();
        let lines: Vec<&str> = src.lines().collect();
        for (name, text) in std::iter::once(HEADER).chain(SOURCES) {
            let directive = format!("#line 1 \"kernels/{name}\"");
            let at = lines.iter().position(|l| *l == directive).unwrap_or_else(|| panic!("no {directive}"));
            for (k, line) in text.lines().enumerate() {
                let expected =
                    if line.trim_start().starts_with("#include \"common.cuh\"") { "" } else { line };
                assert_eq!(lines[at + 1 + k], expected, "{name}:{}", k + 1);
            }
        }
    }

    #[test]
    fn device_helpers_are_named_d() {
        let src = translation_unit();
        for line in src
            .lines()
            .filter(|l| l.contains("__device__") && l.contains('(') && !l.trim_start().starts_with("//"))
        {
            let name = line.split('(').next().unwrap_or("").split_whitespace().last().unwrap_or("");
            assert!(name.ends_with("_d"), "device helper {name} does not end in _d: {line}");
        }
    }

    /// Compiles the kernels when NVRTC is installed (it needs no GPU); skips, saying so, otherwise,
    /// unless `YASMIN_REQUIRE_NVRTC` is set (scripts/test.sh sets it: there NVRTC is installed).
    #[test]
    fn kernels_compile_with_nvrtc() {
        // SAFETY: only probes whether the shared library can be opened.
        if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
            assert!(
                std::env::var_os("YASMIN_REQUIRE_NVRTC").is_none(),
                "YASMIN_REQUIRE_NVRTC is set, but NVRTC (libnvrtc) was not found on the loader's path"
            );
            eprintln!("skipping kernels_compile_with_nvrtc: NVRTC (libnvrtc) not found");
            return;
        }
        let ptx = compile("compute_90", None).expect("kernels compile");
        for &k in Kernel::ALL {
            assert!(ptx.to_src().contains(k.name()), "PTX lacks {}", k.name());
        }
    }
}
