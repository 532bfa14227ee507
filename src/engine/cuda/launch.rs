//! Kernel launches: [`Gpu`], where an engine's kernels run, and [`Gpu::launch`] and its siblings,
//! the one place a kernel is launched.
//!
//! A launch takes the kernel's arguments as one value of a [`KernelArgs`] type (`args/`): a
//! struct per kernel signature, declared next to that signature as `kernels/*.cu` writes it,
//! whose fields are the kernel's parameters in their order, each of the Rust type that passes
//! that parameter: `&CudaSlice<T>` for a `const T*`, `&mut CudaSlice<T>` for a `T*`, `u32`,
//! `f32`, [`DeviceDb`] and [`FixArgs`] for the scalars and structs passed by value, `u64` for a
//! raw device address. The fields are pushed in the order they are declared, so a launch site
//! names every argument and cannot reorder them, and a buffer of the wrong element type does not
//! compile; tests (`args/mod.rs`) check each struct's quoted signature against the sources and
//! its fields against that signature.

use super::device::{DResult, err};
use super::kernels::{Kernel, Kernels};
use super::layout::{DeviceDb, FarmArgs, FixArgs};
use cudarc::driver::{CudaContext, CudaSlice, CudaStream, LaunchArgs, LaunchConfig, PushKernelArg};
use std::sync::Arc;

/// Where an engine's kernels run: its device's context, the stream the engine queues its work on,
/// the loaded kernels (shared by every engine of the process), and the block size of the
/// launches with a thread per item.
pub struct Gpu {
    pub ctx: Arc<CudaContext>,
    pub stream: Arc<CudaStream>,
    pub kernels: Arc<Kernels>,
    /// Threads per block of the launches with a thread per item (`--tpb`, a multiple of 32 from
    /// 32 to 1024).
    pub tpb: u32,
}

/// One parameter of a kernel as the host passes it (see the module docs).
pub trait Param<'b> {
    /// Pushes the parameter onto the launch `b`.
    fn push(&'b mut self, b: &mut LaunchArgs<'b>);
}

/// A `T*` parameter.
impl<'b, T> Param<'b> for &mut CudaSlice<T> {
    fn push(&'b mut self, b: &mut LaunchArgs<'b>) {
        b.arg(&mut **self);
    }
}

/// A `const T*` parameter.
impl<'b, T> Param<'b> for &CudaSlice<T> {
    fn push(&'b mut self, b: &mut LaunchArgs<'b>) {
        b.arg(&**self);
    }
}

/// Parameters passed by value (pushed by reference, as cudarc takes them).
macro_rules! by_value {
    ($($t:ty),*) => {$(
        impl<'b> Param<'b> for $t {
            fn push(&'b mut self, b: &mut LaunchArgs<'b>) {
                b.arg(&*self);
            }
        }
    )*};
}
by_value!(u32, u64, f32, DeviceDb, FixArgs, FarmArgs);

/// The arguments of one kernel signature (see the module docs).
pub trait KernelArgs {
    /// The kernels with this signature.
    const KERNELS: &'static [Kernel];
    /// The parameter list, as `kernels/*.cu` writes it after each of [`Self::KERNELS`]' names
    /// (up to whitespace).
    const SIGNATURE: &'static str;
    /// The fields' names and types, in the order they are pushed.
    const FIELDS: &'static [(&'static str, &'static str)];
    /// Pushes every field, in the order of the fields (that of the signature).
    fn push<'b>(&'b mut self, b: &mut LaunchArgs<'b>);
}

/// A launch configuration of `blocks` blocks (at least 1, at most 65,535) of `threads` threads.
pub fn cfg(blocks: usize, threads: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (blocks.clamp(1, 65_535) as u32, 1, 1),
        block_dim: (threads, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// Grid size for `n` items at one thread each, `tpb` threads a block.
pub fn blocks(n: usize, tpb: u32) -> usize {
    n.div_ceil(tpb as usize).clamp(1, 4096)
}

impl Gpu {
    /// The configuration for `n` items at one thread each, in blocks of [`Gpu::tpb`] threads.
    pub fn per_item(&self, n: usize) -> LaunchConfig {
        cfg(blocks(n, self.tpb), self.tpb)
    }

    /// Launches the kernel of `args`, whose signature is that kernel's alone.
    pub fn launch<A: KernelArgs>(&self, cfg: LaunchConfig, args: A) -> DResult<()> {
        const { assert!(A::KERNELS.len() == 1, "a signature shared by several kernels: name the kernel") };
        self.submit(A::KERNELS[0], cfg, args, false)
    }

    /// Launches `k`, one of the kernels that share the signature of `args`.
    pub fn launch_kernel<A: KernelArgs>(&self, k: Kernel, cfg: LaunchConfig, args: A) -> DResult<()> {
        self.submit(k, cfg, args, false)
    }

    /// Launches `k`, one of the kernels that share the signature of `args`, cooperatively (all
    /// blocks resident at once, for its grid barrier).
    pub fn launch_cooperative<A: KernelArgs>(&self, k: Kernel, cfg: LaunchConfig, args: A) -> DResult<()> {
        self.submit(k, cfg, args, true)
    }

    fn submit<A: KernelArgs>(
        &self,
        k: Kernel,
        cfg: LaunchConfig,
        mut args: A,
        cooperative: bool,
    ) -> DResult<()> {
        assert!(A::KERNELS.contains(&k), "{} does not have the signature ({})", k.name(), A::SIGNATURE);
        let mut b = self.stream.launch_builder(self.kernels.get(k));
        args.push(&mut b);
        // SAFETY: `k` has the signature of `A` (asserted above), and `A::push` pushes one argument
        // per parameter of that signature, in its order, each of the parameter's type: `A` is
        // declared once, next to the signature it quotes (args/), and its tests check the quote
        // against kernels/*.cu and the fields against the quote. A cooperative launch's grid
        // does not exceed the resident blocks the occupancy query allows
        // (Device::cooperative_grid).
        let launched = unsafe { if cooperative { b.launch_cooperative(cfg) } else { b.launch(cfg) } };
        launched.map(|_| ()).map_err(err(k.name()))
    }
}
