// backjump.cu: undoing assignments above a level (one thread per trail entry) and asserting the
// learned nogood's literal at the level it was learned for. (After conflict analysis the learning
// kernels backjump themselves, with backjump_to_d, and store and assert with commit_learned_d.) Also
// the small kernels that set or publish the control block for the host.
#include "common.cuh"

// Unassigns trail[from..to).
extern "C" __global__ void backjump_k(int* val, const u32* trail, u32 from, u32 to) {
    for (u32 i = from + blockIdx.x * blockDim.x + threadIdx.x; i < to; i += gridDim.x * blockDim.x) {
        val[lit_var_d(trail[i])] = 0;
    }
}

// After backjump_k: the control state of `level`, whose trail ends at `len`.
extern "C" __global__ void set_level_k(Control* ctl, u32 level, u32 len) { set_level_d(ctl, level, len); }

// Copies a learned nogood from the learning buffer into its group, at `offset`, as nogood `index`
// with its LBD (the threads of one block).
__device__ __forceinline__ void append_learned_d(const u32* learned, u32 len, u32* g_lits, u32* g_start, u32* g_lbd,
                                                 u32 offset, u32 index, u32 lbd) {
    for (u32 k = threadIdx.x; k < len; k += blockDim.x) g_lits[offset + k] = learned[k];
    if (threadIdx.x == 0) {
        g_start[index + 1] = offset + len;
        g_lbd[index] = lbd;
    }
}

extern "C" __global__ void append_learned_k(const u32* learned, u32 len, u32* g_lits, u32* g_start, u32* g_lbd,
                                            u32 offset, u32 index, u32 lbd) {
    append_learned_d(learned, len, g_lits, g_start, g_lbd, offset, index, lbd);
}

// Makes the complement of learned[0] true at the current level (one thread), with `reason_code`,
// and makes it the frontier. Under forward learning its bitmap is the union of the others'.
__device__ __forceinline__ void assert_d(Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason,
                                         const u32* learned, u32 len, u32 reason_code, u64* deps, u32 words) {
    u32 lv = ctl->level;
    u64* row = assign_at_end_d(ctl, val, trail, trail_pos, reason, lit_not_d(learned[0]), lv, reason_code, deps, words);
    if (!row || lv == 0) return;  // at level 0 the row stays empty
    for (u32 w0 = 0; w0 < words; w0 += 4u) {
        RowUnion u = {deps, words, w0, {0ull, 0ull, 0ull, 0ull}};
        for (u32 k = 1; k < len; k++) u.add_d(lit_var_d(learned[k]));
        u.store_d(row);
    }
}

extern "C" __global__ void assert_k(Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason,
                                    const u32* learned, u32 len, u32 reason_code, u64* deps, u32 words) {
    assert_d(ctl, val, trail, trail_pos, reason, learned, len, reason_code, deps, words);
}

// The end of a learning kernel, after its backjump, by all threads of its block: a unit nogood is
// asserted at level 0; a longer one is appended to its group (at the counts in db.lg_fill, which
// it advances) with its LBD and asserted with itself as reason. The host reads what happened
// from the control block at its next read-back (analyze.rs).
__device__ __forceinline__ void commit_learned_d(Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason,
                                                 const u32* learned, u32 len, u32 lbd, const Db& db, u64* deps,
                                                 u32 words) {
    if (len == 1u) {
        if (threadIdx.x == 0) assert_d(ctl, val, trail, trail_pos, reason, learned, len, REASON(R_UNIT, 0u), deps, words);
        return;
    }
    u32 g = group_of_d(len), index = db.lg_fill[g], offset = db.lg_fill[LEARNED_GROUPS + g];
    append_learned_d(learned, len, db.lg_lits[g], db.lg_start[g], db.lg_lbd[g], offset, index, lbd);
    __syncthreads();  // every thread has read the counts
    if (threadIdx.x == 0) {
        db.lg_fill[g] = index + 1u;
        db.lg_fill[LEARNED_GROUPS + g] = offset + len;
        u32 code = REASON(R_LEARNED, (g << GROUP_SHIFT) | index);
        assert_d(ctl, val, trail, trail_pos, reason, learned, len, code, deps, words);
    }
}

// Copies the dependency table to a wider one (more levels than `old_words` * 64).
extern "C" __global__ void deps_grow_k(const u64* old_deps, u32 old_words, u64* new_deps, u32 new_words, u32 vars) {
    for (u32 v = blockIdx.x * blockDim.x + threadIdx.x; v < vars; v += gridDim.x * blockDim.x) {
        for (u32 w = 0; w < new_words; w++) new_deps[(u64)v * new_words + w] = w < old_words ? old_deps[(u64)v * old_words + w] : 0;
    }
}

// Multiplies every activity score (rescaling before they overflow).
extern "C" __global__ void rescale_k(float* score, u32 n, float factor) {
    for (u32 v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) score[v] *= factor;
}

// Records a conflict found by the host (a violated nogood it added).
extern "C" __global__ void set_conflict_k(Control* ctl, u32 r) { ctl->conflict = r; }

// Queues weight constraint c for checking in the next round (the cost bound changed).
extern "C" __global__ void mark_dirty_k(Control* ctl, u32* dirty, u32* dirty_list, u32 c) {
    global_marks_d(ctl, dirty, dirty_list).mark_d(c);
}

// The control block to the host's mirror, for read-backs after kernels that do not publish.
extern "C" __global__ void publish_ctl_k(const Control* ctl, Control* host) { publish_d(ctl, host); }
