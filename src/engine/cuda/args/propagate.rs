//! The arguments of the propagation kernels: the steps of a round driven by the host and the
//! whole-database check (kernels/propagate.cu), and the propagation to the fixpoint in one
//! cooperative launch (kernels/fixpoint.cu).

use crate::engine::cuda::kernels::Kernel;
use crate::engine::cuda::launch::{KernelArgs, Param};
use crate::engine::cuda::layout::{Control, DeviceDb, FixArgs};
use cudarc::driver::{CudaSlice, LaunchArgs};

kernel_args! {
    /// `init_units_k`: the unit nogoods, a thread each.
    InitUnitsArgs<'a> for [InitUnits]
        "int* val, int* prop, u32* prop_list, u32* prop_reason, Control* ctl, u32* trail, u32* trail_pos, \
         u32* reason, const u32* units, u32 n" {
        val: &'a mut CudaSlice<i32>,
        prop: &'a mut CudaSlice<i32>,
        prop_list: &'a mut CudaSlice<u32>,
        prop_reason: &'a mut CudaSlice<u32>,
        ctl: &'a mut CudaSlice<Control>,
        trail: &'a mut CudaSlice<u32>,
        trail_pos: &'a mut CudaSlice<u32>,
        reason: &'a mut CudaSlice<u32>,
        units: &'a CudaSlice<u32>,
        n: u32,
    }

    /// `prop_bin_k`, `prop_tern_k`, `prop_long_k`: the frontier's occurrences in one length class
    /// of the input nogoods.
    PropClassArgs<'a> for [PropBin, PropTern, PropLong]
        "const int* val, int* prop, u32* prop_list, u32* prop_reason, Control* ctl, const u32* trail, \
         u32 qhead, u32 qend, const u32* occ_start, const u32* occ, const u32* ng_lits" {
        val: &'a CudaSlice<i32>,
        prop: &'a mut CudaSlice<i32>,
        prop_list: &'a mut CudaSlice<u32>,
        prop_reason: &'a mut CudaSlice<u32>,
        ctl: &'a mut CudaSlice<Control>,
        trail: &'a CudaSlice<u32>,
        qhead: u32,
        qend: u32,
        occ_start: &'a CudaSlice<u32>,
        occ: &'a CudaSlice<u32>,
        ng_lits: &'a CudaSlice<u32>,
    }

    /// `prop_learned_k`: a sweep of one learned group, a thread per nogood.
    PropLearnedArgs<'a> for [PropLearned]
        "const int* val, int* prop, u32* prop_list, u32* prop_reason, Control* ctl, const u32* start, \
         const u32* lits, u32 count, u32 group" {
        val: &'a CudaSlice<i32>,
        prop: &'a mut CudaSlice<i32>,
        prop_list: &'a mut CudaSlice<u32>,
        prop_reason: &'a mut CudaSlice<u32>,
        ctl: &'a mut CudaSlice<Control>,
        start: &'a CudaSlice<u32>,
        lits: &'a CudaSlice<u32>,
        count: u32,
        group: u32,
    }

    /// `weight_mark_k`: marks the weight constraints the frontier touches dirty.
    WeightMarkArgs<'a> for [WeightMark]
        "Control* ctl, const u32* trail, u32 qhead, u32 qend, const u32* occ_start, const u32* occ, \
         u32* dirty, u32* dirty_list" {
        ctl: &'a mut CudaSlice<Control>,
        trail: &'a CudaSlice<u32>,
        qhead: u32,
        qend: u32,
        occ_start: &'a CudaSlice<u32>,
        occ: &'a CudaSlice<u32>,
        dirty: &'a mut CudaSlice<u32>,
        dirty_list: &'a mut CudaSlice<u32>,
    }

    /// `weight_check_k`: the dirty weight constraints, a warp each.
    WeightCheckArgs<'a> for [WeightCheck]
        "const int* val, int* prop, u32* prop_list, u32* prop_reason, Control* ctl, u32* dirty, \
         u32* dirty_list, const u32* head, const i64* bound, const u32* start, const u32* lits, \
         const i64* weights" {
        val: &'a CudaSlice<i32>,
        prop: &'a mut CudaSlice<i32>,
        prop_list: &'a mut CudaSlice<u32>,
        prop_reason: &'a mut CudaSlice<u32>,
        ctl: &'a mut CudaSlice<Control>,
        dirty: &'a mut CudaSlice<u32>,
        dirty_list: &'a mut CudaSlice<u32>,
        head: &'a CudaSlice<u32>,
        bound: &'a CudaSlice<i64>,
        start: &'a CudaSlice<u32>,
        lits: &'a CudaSlice<u32>,
        weights: &'a CudaSlice<i64>,
    }

    /// `merge_k`: a round's proposals onto the trail.
    MergeArgs<'a> for [Merge]
        "int* val, int* prop, u32* prop_list, u32* prop_reason, Control* ctl, u32* trail, u32* trail_pos, \
         u32* reason, u32 base" {
        val: &'a mut CudaSlice<i32>,
        prop: &'a mut CudaSlice<i32>,
        prop_list: &'a mut CudaSlice<u32>,
        prop_reason: &'a mut CudaSlice<u32>,
        ctl: &'a mut CudaSlice<Control>,
        trail: &'a mut CudaSlice<u32>,
        trail_pos: &'a mut CudaSlice<u32>,
        reason: &'a mut CudaSlice<u32>,
        base: u32,
    }

    /// `deps_k`: the dependency rows of the literals a round merged (forward learning; `deps`
    /// is the table's address).
    DepsArgs<'a> for [Deps]
        "const int* val, const u32* trail, const u32* trail_pos, const u32* reason, Control* ctl, \
         u64* deps, u32 words, u32 base, Db db" {
        val: &'a CudaSlice<i32>,
        trail: &'a CudaSlice<u32>,
        trail_pos: &'a CudaSlice<u32>,
        reason: &'a CudaSlice<u32>,
        ctl: &'a mut CudaSlice<Control>,
        deps: u64,
        words: u32,
        base: u32,
        db: DeviceDb,
    }

    /// `round_end_k`: closes a round.
    RoundEndArgs<'a> for [RoundEnd] "Control* ctl" {
        ctl: &'a mut CudaSlice<Control>,
    }

    /// `check_nogoods_k`: the whole-database check of input nogoods or of a learned group.
    CheckNogoodsArgs<'a> for [CheckNogoods]
        "const int* val, Control* ctl, const u32* start, const u32* lits, u32 count, u32 kind, u32 group" {
        val: &'a CudaSlice<i32>,
        ctl: &'a mut CudaSlice<Control>,
        start: &'a CudaSlice<u32>,
        lits: &'a CudaSlice<u32>,
        count: u32,
        kind: u32,
        group: u32,
    }

    /// `check_weights_k`: the whole-database check of the weight constraints.
    CheckWeightsArgs<'a> for [CheckWeights] "const int* val, Control* ctl, u32 count, Db db" {
        val: &'a CudaSlice<i32>,
        ctl: &'a mut CudaSlice<Control>,
        count: u32,
        db: DeviceDb,
    }
}

// fixpoint.cu: the propagation to the fixpoint in one cooperative launch.
kernel_args! {
    /// `propagate_fix_k` (resolution learning) and `propagate_fix_fwd_k` (forward learning): the
    /// buffers are raw addresses inside `a` and `db`.
    FixpointArgs for [PropagateFix, PropagateFixFwd] "FixArgs a, Db db" {
        a: FixArgs,
        db: DeviceDb,
    }
}
