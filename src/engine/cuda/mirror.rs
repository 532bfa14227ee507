//! The control block's host mirror: pinned host memory the device can write, to which the
//! kernels that end a step the host waits on (`propagate_fix_k`, the learning kernels) copy the
//! control block as their last act. A read-back is then a stream synchronisation and a load
//! instead of a copy (about 9 µs for a copy to pageable memory on the H200).
//!
//! Invariant: before a launch whose result the host reads, [`CtlMirror::arm`] stores a sentinel
//! (an impossible trail length) into the mirror; [`CtlMirror::wait`] fails if the kernel did not
//! overwrite it. A kernel that forgot to publish is an error, never a stale control block.

use super::device::{DResult, err};
use super::layout::Control;
use cudarc::driver::{CudaContext, CudaStream, PinnedHostSlice};
use std::sync::Arc;

/// No trail is this long: the mirror has not been written since [`CtlMirror::arm`].
const UNPUBLISHED: u32 = u32::MAX;

pub struct CtlMirror {
    mem: PinnedHostSlice<Control>,
    /// The host address of `mem` (fixed for its lifetime).
    host: usize,
    /// The address the kernels write to.
    pub dev: u64,
}

impl CtlMirror {
    pub fn new(ctx: &Arc<CudaContext>) -> DResult<CtlMirror> {
        use cudarc::driver::sys;
        // SAFETY: the memory is written (arm) before it is first read.
        let mut mem = unsafe { ctx.alloc_pinned_with_flags::<Control>(1, sys::CU_MEMHOSTALLOC_DEVICEMAP) }
            .map_err(err("pinned allocation"))?;
        let host = mem.as_mut_ptr().map_err(err("pinned allocation"))?;
        let mut dev: sys::CUdeviceptr = 0;
        // SAFETY: `host` is a live allocation made with CU_MEMHOSTALLOC_DEVICEMAP.
        unsafe { sys::cuMemHostGetDevicePointer_v2(&mut dev, host.cast(), 0) }
            .result()
            .map_err(err("mapping the control mirror"))?;
        let m = CtlMirror { mem, host: host as usize, dev };
        m.arm();
        Ok(m)
    }

    /// Marks the mirror unpublished; call before launching the kernel that publishes.
    pub fn arm(&self) {
        debug_assert_eq!(self.mem.len(), 1);
        // SAFETY: `host` points to one Control in live pinned memory; no kernel writes it now
        // (every publishing launch is followed by `wait` before the next `arm`).
        unsafe {
            std::ptr::addr_of_mut!((*(self.host as *mut Control)).trail_len).write_volatile(UNPUBLISHED)
        };
    }

    /// Waits for the stream and returns the control block the last kernel published.
    pub fn wait(&self, stream: &Arc<CudaStream>) -> DResult<Control> {
        stream.synchronize().map_err(err("synchronize"))?;
        // SAFETY: the stream is idle, so the device's writes are complete and visible.
        let c = unsafe { (self.host as *const Control).read_volatile() };
        if c.trail_len == UNPUBLISHED {
            return Err("the control block was not published (internal error)".into());
        }
        Ok(c)
    }
}
