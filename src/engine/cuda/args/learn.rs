//! The arguments of the conflict analysis kernels (kernels/learn.cu).

use crate::engine::cuda::kernels::Kernel;
use crate::engine::cuda::launch::{KernelArgs, Param};
use crate::engine::cuda::layout::{Control, DeviceDb};
use cudarc::driver::{CudaSlice, LaunchArgs};

kernel_args! {
    /// `learn_res_k`: 1-UIP analysis by resolution; backjumps, stores and asserts (`host`: the
    /// pinned mirror's device address; `seg_cap` to `pool_cap`: its [`crate::engine::cuda::smem::ResPlan`]).
    LearnResArgs<'a> for [LearnRes]
        "Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason, const u32* level_start, u32* seen, \
         u32* touched, u32* learned, float* score, float inc, u32* g_bits, Db db, Control* host, u32 seg_cap, \
         u32 seen_words, u32 mark_words, u32 pool_cap, u32* level_stamp, u32 tag" {
        ctl: &'a mut CudaSlice<Control>,
        val: &'a mut CudaSlice<i32>,
        trail: &'a mut CudaSlice<u32>,
        trail_pos: &'a mut CudaSlice<u32>,
        reason: &'a mut CudaSlice<u32>,
        level_start: &'a CudaSlice<u32>,
        seen: &'a mut CudaSlice<u32>,
        touched: &'a mut CudaSlice<u32>,
        learned: &'a mut CudaSlice<u32>,
        score: &'a mut CudaSlice<f32>,
        inc: f32,
        g_bits: &'a mut CudaSlice<u32>,
        db: DeviceDb,
        host: u64,
        seg_cap: u32,
        seen_words: u32,
        mark_words: u32,
        pool_cap: u32,
        level_stamp: &'a mut CudaSlice<u32>,
        tag: u32,
    }

    /// `learn_fwd_k`: analysis by the dependency bitmaps; backjumps, stores and asserts (`deps`:
    /// the table's address; `host` as above).
    LearnFwdArgs<'a> for [LearnFwd]
        "Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason, const u32* level_start, u64* deps, \
         u32 words, u32* learned, float* score, float inc, Db db, Control* host" {
        ctl: &'a mut CudaSlice<Control>,
        val: &'a mut CudaSlice<i32>,
        trail: &'a mut CudaSlice<u32>,
        trail_pos: &'a mut CudaSlice<u32>,
        reason: &'a mut CudaSlice<u32>,
        level_start: &'a CudaSlice<u32>,
        deps: u64,
        words: u32,
        learned: &'a mut CudaSlice<u32>,
        score: &'a mut CudaSlice<f32>,
        inc: f32,
        db: DeviceDb,
        host: u64,
    }
}
