//! The arguments of the decision kernels (kernels/decide.cu): the ranked decision when the host
//! drives the rounds, and forced decisions.

use crate::engine::cuda::kernels::Kernel;
use crate::engine::cuda::launch::{KernelArgs, Param};
use crate::engine::cuda::layout::Control;
use cudarc::driver::{CudaSlice, LaunchArgs};

kernel_args! {
    /// `decide_k`: ranks the decision entries.
    DecideArgs<'a> for [Decide]
        "const int* val, Control* ctl, const u32* e_body, const u32* e_head, u32 entries, const u32* b_lit, \
         const u32* def_start, const u32* def_lits, const i64* def_weights, const i64* bound, \
         const float* score" {
        val: &'a CudaSlice<i32>,
        ctl: &'a mut CudaSlice<Control>,
        e_body: &'a CudaSlice<u32>,
        e_head: &'a CudaSlice<u32>,
        entries: u32,
        b_lit: &'a CudaSlice<u32>,
        def_start: &'a CudaSlice<u32>,
        def_lits: &'a CudaSlice<u32>,
        def_weights: &'a CudaSlice<i64>,
        bound: &'a CudaSlice<i64>,
        score: &'a CudaSlice<f32>,
    }

    /// `apply_decision_k`: opens a level with the decision `decide_k` ranked (`deps`: the
    /// dependency table's address, 0 without forward learning).
    ApplyDecisionArgs<'a> for [ApplyDecision]
        "Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason, u32* level_start, \
         const u32* e_body, const u32* e_head, const u32* b_lit, u64* deps, u32 words" {
        ctl: &'a mut CudaSlice<Control>,
        val: &'a mut CudaSlice<i32>,
        trail: &'a mut CudaSlice<u32>,
        trail_pos: &'a mut CudaSlice<u32>,
        reason: &'a mut CudaSlice<u32>,
        level_start: &'a mut CudaSlice<u32>,
        e_body: &'a CudaSlice<u32>,
        e_head: &'a CudaSlice<u32>,
        b_lit: &'a CudaSlice<u32>,
        deps: u64,
        words: u32,
    }

    /// `force_decision_k`: opens a level with the decision `lit` (`deps` as above).
    ForceDecisionArgs<'a> for [ForceDecision]
        "Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason, u32* level_start, u32 lit, \
         u64* deps, u32 words" {
        ctl: &'a mut CudaSlice<Control>,
        val: &'a mut CudaSlice<i32>,
        trail: &'a mut CudaSlice<u32>,
        trail_pos: &'a mut CudaSlice<u32>,
        reason: &'a mut CudaSlice<u32>,
        level_start: &'a mut CudaSlice<u32>,
        lit: u32,
        deps: u64,
        words: u32,
    }
}
