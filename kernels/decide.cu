// decide.cu: decisions by the ASP computation or on variables. decide_k ranks every candidate in
// parallel (one thread per entry: an applicable rule whose body is unassigned, a choice head whose
// body holds, or, deciding on variables, an unassigned variable's literal) and finds the best by
// warp-shuffle reduction, then one atomicMax per block; apply_decision_k assigns it at a new
// level, or reports that there is no candidate.
// propagate_fix_k ranks the same way (rank_d) at the fixpoint it reaches; the host then applies
// the decision with force_decision_k, without another ranking or read-back.
#include "common.cuh"

// Body b's rule is applicable: positive literals true, negative ones not false, enough of them.
__device__ __forceinline__ bool applicable_d(const int* val, const u32* def_start, const u32* def_lits,
                                             const i64* def_weights, const i64* bound, u32 b) {
    i64 sum = 0;
    for (u32 i = def_start[b]; i < def_start[b + 1]; i++) {
        u32 l = def_lits[i];
        int v = lit_val_d(val, l);
        if ((l & 1u) ? v >= 0 : v > 0) sum += def_weights[i];
    }
    return sum >= bound[b];
}

// Ranks every entry (one thread each over the grid) and atomicMax-es the best key into `out`:
// score bits << 32 | (~entry), so ties go to the first entry; 0 when none is a candidate. Every
// thread of the block must call it (block reduction through `s_best`, 32 words of shared memory).
__device__ __forceinline__ void rank_d(const int* val, u64* out, const u32* e_body, const u32* e_head, u32 entries,
                                       const u32* b_lit, const u32* def_start, const u32* def_lits,
                                       const i64* def_weights, const i64* bound, const float* score, u64* s_best) {
    u64 best = 0;
    for (u32 e = blockIdx.x * blockDim.x + threadIdx.x; e < entries; e += gridDim.x * blockDim.x) {
        u32 b = e_body[e], h = e_head[e];
        u32 lit;
        if (b == VAR_ENTRY) {
            lit = h;
            if (lit_val_d(val, lit) != 0) continue;
        } else if (h == NO_CONFLICT) {
            lit = b_lit[b];
            if (lit_val_d(val, lit) != 0 || !applicable_d(val, def_start, def_lits, def_weights, bound, b)) continue;
        } else {
            lit = h << 1;
            if (lit_val_d(val, b_lit[b]) <= 0 || lit_val_d(val, lit) != 0) continue;
        }
        u64 key = ((u64)__float_as_uint(score[lit_var_d(lit)]) << 32) | (u64)(0xffffffffu - e);
        best = key > best ? key : best;
    }
    best = warp_max_d(best);
    u32 lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    if (lane == 0) s_best[warp] = best;
    __syncthreads();
    if (warp == 0) {
        best = lane < (blockDim.x + 31u) / 32u ? s_best[lane] : 0;
        best = warp_max_d(best);
        if (lane == 0 && best != 0) atomicMax(out, best);
    }
}

extern "C" __global__ void decide_k(const int* val, Control* ctl, const u32* e_body, const u32* e_head, u32 entries,
                                    const u32* b_lit, const u32* def_start, const u32* def_lits,
                                    const i64* def_weights, const i64* bound, const float* score) {
    __shared__ u64 s_best[32];
    rank_d(val, &ctl->best, e_body, e_head, entries, b_lit, def_start, def_lits, def_weights, bound, score, s_best);
}

// The literal a ranked key (rank_d's, nonzero) decides: the entry's body, its choice head, or
// its variable's literal.
__device__ __forceinline__ u32 ranked_lit_d(u64 key, const u32* e_body, const u32* e_head, const u32* b_lit) {
    u32 e = 0xffffffffu - (u32)(key & 0xffffffffu);
    if (e_body[e] == VAR_ENTRY) return e_head[e];
    return e_head[e] == NO_CONFLICT ? b_lit[e_body[e]] : e_head[e] << 1;
}

// Makes `lit` a decision at a new level (one thread); under forward learning its bitmap is
// its own level's bit.
__device__ __forceinline__ void decide_lit_d(Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason,
                                             u32* level_start, u32 lit, u64* deps, u32 words) {
    u32 lv = ++ctl->level;
    level_start[lv] = ctl->trail_len;
    u64* row = assign_at_end_d(ctl, val, trail, trail_pos, reason, lit, lv, REASON(R_DECISION, 0u), deps, words);
    if (row) row[lv >> 6] = 1ull << (lv & 63u);
}

// Assigns the chosen decision at a new level (one thread).
extern "C" __global__ void apply_decision_k(Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason,
                                            u32* level_start, const u32* e_body, const u32* e_head,
                                            const u32* b_lit, u64* deps, u32 words) {
    u64 key = ctl->best;
    ctl->best = 0;
    if (key == 0) {
        ctl->decided = NO_CONFLICT;
        return;
    }
    u32 lit = ranked_lit_d(key, e_body, e_head, b_lit);
    decide_lit_d(ctl, val, trail, trail_pos, reason, level_start, lit, deps, words);
    ctl->decided = lit;
}

// Decides a given literal at a new level: the decision propagate_fix_k ranked, or the
// completion's fallback when no rule is applicable and no unfounded set explains the rest.
extern "C" __global__ void force_decision_k(Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason,
                                            u32* level_start, u32 lit, u64* deps, u32 words) {
    decide_lit_d(ctl, val, trail, trail_pos, reason, level_start, lit, deps, words);
}
