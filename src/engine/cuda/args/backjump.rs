//! The arguments of the kernels of kernels/backjump.cu: backjumps, the learned nogoods the host
//! stores and asserts, and the control-block kernels.

use crate::engine::cuda::kernels::Kernel;
use crate::engine::cuda::launch::{KernelArgs, Param};
use crate::engine::cuda::layout::Control;
use cudarc::driver::{CudaSlice, LaunchArgs};

kernel_args! {
    /// `backjump_k`: unassigns the trail from `from` to `to`.
    BackjumpArgs<'a> for [Backjump] "int* val, const u32* trail, u32 from, u32 to" {
        val: &'a mut CudaSlice<i32>,
        trail: &'a CudaSlice<u32>,
        from: u32,
        to: u32,
    }

    /// `set_level_k`: the control block after a backjump to `level`, the trail `len` long.
    SetLevelArgs<'a> for [SetLevel] "Control* ctl, u32 level, u32 len" {
        ctl: &'a mut CudaSlice<Control>,
        level: u32,
        len: u32,
    }

    /// `append_learned_k`: stores the first `len` literals of `learned` into a learned group.
    AppendLearnedArgs<'a> for [AppendLearned]
        "const u32* learned, u32 len, u32* g_lits, u32* g_start, u32* g_lbd, u32 offset, u32 index, u32 lbd" {
        learned: &'a CudaSlice<u32>,
        len: u32,
        g_lits: &'a mut CudaSlice<u32>,
        g_start: &'a mut CudaSlice<u32>,
        g_lbd: &'a mut CudaSlice<u32>,
        offset: u32,
        index: u32,
        lbd: u32,
    }

    /// `assert_k`: asserts the complement of `learned[0]` with `reason_code` as its reason
    /// (`deps` as for `apply_decision_k`).
    AssertArgs<'a> for [Assert]
        "Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason, const u32* learned, u32 len, \
         u32 reason_code, u64* deps, u32 words" {
        ctl: &'a mut CudaSlice<Control>,
        val: &'a mut CudaSlice<i32>,
        trail: &'a mut CudaSlice<u32>,
        trail_pos: &'a mut CudaSlice<u32>,
        reason: &'a mut CudaSlice<u32>,
        learned: &'a CudaSlice<u32>,
        len: u32,
        reason_code: u32,
        deps: u64,
        words: u32,
    }

    /// `deps_grow_k`: copies the dependency table into a wider one.
    DepsGrowArgs<'a> for [DepsGrow]
        "const u64* old_deps, u32 old_words, u64* new_deps, u32 new_words, u32 vars" {
        old_deps: &'a CudaSlice<u64>,
        old_words: u32,
        new_deps: &'a mut CudaSlice<u64>,
        new_words: u32,
        vars: u32,
    }

    /// `rescale_k`: scales the first `n` scores by `factor`.
    RescaleArgs<'a> for [Rescale] "float* score, u32 n, float factor" {
        score: &'a mut CudaSlice<f32>,
        n: u32,
        factor: f32,
    }

    /// `set_conflict_k`: makes the nogood of reason code `r` the conflict.
    SetConflictArgs<'a> for [SetConflict] "Control* ctl, u32 r" {
        ctl: &'a mut CudaSlice<Control>,
        r: u32,
    }

    /// `mark_dirty_k`: marks weight constraint `c` dirty.
    MarkDirtyArgs<'a> for [MarkDirty] "Control* ctl, u32* dirty, u32* dirty_list, u32 c" {
        ctl: &'a mut CudaSlice<Control>,
        dirty: &'a mut CudaSlice<u32>,
        dirty_list: &'a mut CudaSlice<u32>,
        c: u32,
    }

    /// `publish_ctl_k`: copies the control block to the host's pinned mirror (`host`: its device
    /// address, [`crate::engine::cuda::mirror::CtlMirror::dev`]).
    PublishCtlArgs<'a> for [PublishCtl] "const Control* ctl, Control* host" {
        ctl: &'a CudaSlice<Control>,
        host: u64,
    }
}
