//! The CUDA engine's device buffers by concern: the search state (assignment, trail, control
//! block), the input nogoods, the weight constraints, the tables the decisions are ranked over,
//! and the conflict analysis' scratch. [`super::device::Device::new`] allocates and uploads them
//! once, from the [`super::layout::Tables`]; only the learned groups
//! ([`super::groups`]) and the dependency table ([`super::forward`]) grow later.
//!
//! Literals are `var << 1 | negative`, variable 0 the constant true (common.cuh).

use super::layout::Control;
use cudarc::driver::CudaSlice;

/// The search state on the device, one entry per variable where not said otherwise: the
/// assignment (`val`: 0 unassigned, +(level + 1) true, -(level + 1) false), the trail (`trail`,
/// in assignment order; `trail_pos`, a variable's place on it; `reason`, the reason code of its
/// value; `level_start`, the trail position where each level begins, `n + 2` entries), a round's
/// proposals (`prop`, a claim per variable; `prop_list` and `prop_reason`, the proposed literals
/// and their reasons) and the control block (`ctl`, one [`Control`]).
///
/// Invariant (common.cuh): every assignment is placed on the trail with its value, position and
/// reason at once (`place_on_trail_d`), so `val`, `trail`, `trail_pos` and `reason` agree up to
/// the control block's `trail_len`.
pub struct AssignmentBuffers {
    pub val: CudaSlice<i32>,
    pub prop: CudaSlice<i32>,
    pub prop_list: CudaSlice<u32>,
    pub prop_reason: CudaSlice<u32>,
    pub trail: CudaSlice<u32>,
    pub trail_pos: CudaSlice<u32>,
    pub reason: CudaSlice<u32>,
    pub level_start: CudaSlice<u32>,
    pub ctl: CudaSlice<Control>,
}

/// The input nogoods, uploaded once: the CSR store sorted by length (`ng_start`, `ng_lits`), the
/// occurrence lists of the classes 2, 3 and longer (`occ[c]`: start, entries; see
/// `Tables::occ`), the unit nogoods' literals, and the wide nogoods (`Tables::wide`).
/// Invariant: `class_sizes[c]` is the number of nogoods of class `c` (0: its kernel is not
/// launched); `nwide` is the number of wide nogoods block 0 of propagate_fix_k checks once a
/// round through its marks: all of them where its shared memory has room for their marks, else 0
/// (see [`super::smem::SmemPlans::new`]).
pub struct InputNogoods {
    pub ng_start: CudaSlice<u32>,
    pub ng_lits: CudaSlice<u32>,
    pub occ: Vec<(CudaSlice<u32>, CudaSlice<u32>)>,
    pub units: CudaSlice<u32>,
    pub wide: CudaSlice<u32>,
    pub nwide: u32,
    pub class_sizes: [usize; 3],
}

/// The weight constraints (`Tables::w_*`; the last one is the cost-bound slot when the problem
/// has costs), their occurrence lists (`w_occ_start`, `w_occ`), and the dirty ones, which the
/// next round checks (`dirty`: a flag per constraint; `dirty_list`: their indices).
/// Invariant: there are `count` constraints; `cost_slot` names the cost bound's (its index, the
/// multiplier of each cost level, the scaled total), whose `w_bound` entry the kernels only read
/// (the host sets it, `set_cost_bound`).
pub struct WeightConstraints {
    pub w_head: CudaSlice<u32>,
    pub w_bound: CudaSlice<i64>,
    pub w_start: CudaSlice<u32>,
    pub w_lits: CudaSlice<u32>,
    pub w_weights: CudaSlice<i64>,
    pub w_occ_start: CudaSlice<u32>,
    pub w_occ: CudaSlice<u32>,
    pub dirty: CudaSlice<u32>,
    pub dirty_list: CudaSlice<u32>,
    pub count: usize,
    pub cost_slot: Option<(u32, Vec<i64>, i64)>,
}

/// What decisions are ranked over (the ASP computation): the decision entries (`e_body`,
/// `e_head`: a body, head `NO_CONFLICT`, or a choice head of a body), the body table (`b_lit`,
/// each body's literal; `def_start`, `def_lits`, `def_weights`, `bound`, its definition) and the
/// heuristic scores of the variables (`score`), which the analyses bump.
pub struct DecisionBuffers {
    pub e_body: CudaSlice<u32>,
    pub e_head: CudaSlice<u32>,
    pub b_lit: CudaSlice<u32>,
    pub def_start: CudaSlice<u32>,
    pub def_lits: CudaSlice<u32>,
    pub def_weights: CudaSlice<i64>,
    pub bound: CudaSlice<i64>,
    pub score: CudaSlice<f32>,
}

/// The conflict analysis' scratch: the seen marks (`seen`, `touched`), learn_res_k's two bitmaps
/// of trail positions (marked, resolved) for conflict levels too long for shared memory
/// (`res_bits`), its stamps by decision level for the LBD (`level_stamp`, `n + 2` entries: every
/// level fits), and the nogood buffer (`learned`, `n + 1` entries): the nogood an analysis
/// learned, or the host's nogood on its way into a group.
pub struct AnalysisBuffers {
    pub seen: CudaSlice<u32>,
    pub touched: CudaSlice<u32>,
    pub res_bits: CudaSlice<u32>,
    pub level_stamp: CudaSlice<u32>,
    pub learned: CudaSlice<u32>,
}
