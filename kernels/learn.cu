// learn.cu: conflict analysis on the device, one block per conflict.
// learn_res_k: 1-UIP resolution (Algorithm 3): the block adds a reason's literals in parallel,
// finds the latest marked literal of the conflict level by a parallel backwards scan, and stops
// when one literal of that level is left. learn_fwd_k: forward learning (Algorithm 4): the
// dependency bitmaps of the conflict's literals OR-reduced by warp shuffles; the learned nogood is
// the set of decisions whose bits are set, highest level first, written by one warp.
// Both leave in `learned` the nogood with the literal to assert at position 0 and the highest of
// the others at position 1, and in the control block its length and backjump level.
#include "common.cuh"

#define SEEN 1u
#define RESOLVED 2u

extern "C" __global__ void learn_res_k(Control* ctl, const int* val, const u32* trail, const u32* trail_pos,
                                       const u32* reason, const u32* level_start, u32* seen, u32* touched,
                                       u32* learned, float* score, float inc, Db db) {
    __shared__ u32 s_lv, s_path, s_n, s_bj, s_nt, s_r, s_aux, s_p, s_pos, s_idx, s_done;
    __shared__ int s_found;
    u32 tid = threadIdx.x, bd = blockDim.x;
    if (tid == 0) {
        s_lv = 0; s_path = 0; s_n = 1; s_bj = 0; s_nt = 0; s_done = 0;
        s_r = ctl->conflict; s_aux = ctl->conflict_aux; s_p = NO_CONFLICT; s_pos = 0xffffffffu;
    }
    __syncthreads();
    reason_lits_d(db, val, trail_pos, s_r, s_aux, NO_CONFLICT, 0xffffffffu, tid, bd,
                  [&](u32 q) { atomicMax(&s_lv, level_of_d(val, lit_var_d(q))); });
    __syncthreads();
    u32 lv = s_lv;
    if (lv == 0) {
        if (tid == 0) { ctl->unsat = 1; ctl->conflict_level = 0; ctl->learned_len = 0; }
        return;
    }
    if (tid == 0) s_idx = lv == ctl->level ? ctl->trail_len : level_start[lv + 1];
    __syncthreads();
    u32 lo = level_start[lv];
    while (true) {
        reason_lits_d(db, val, trail_pos, s_r, s_aux, s_p, s_pos, tid, bd, [&](u32 q) {
            u32 v = lit_var_d(q);
            u32 L = level_of_d(val, v);
            if (L == 0 || atomicCAS(&seen[v], 0u, SEEN) != 0u) return;
            touched[atomicAdd(&s_nt, 1u)] = v;
            atomicAdd(&score[v], inc);
            if (L == lv) {
                atomicAdd(&s_path, 1u);
            } else {
                learned[atomicAdd(&s_n, 1u)] = q;
                atomicMax(&s_bj, L);
            }
        });
        __syncthreads();
        // The latest literal of level lv that is marked and not yet resolved.
        int off = 0;
        while (true) {
            if (tid == 0) s_found = -1;
            __syncthreads();
            int i = (int)s_idx - 1 - off - (int)tid;
            if (i >= (int)lo && seen[lit_var_d(trail[i])] == SEEN) atomicMax(&s_found, i);
            __syncthreads();
            bool exhausted = (int)s_idx - 1 - off - (int)bd < (int)lo;
            if (s_found >= 0 || exhausted) break;
            off += (int)bd;
            __syncthreads();
        }
        // Every thread has read s_idx and s_found before thread 0 moves them on.
        __syncthreads();
        if (tid == 0) {
            if (s_found < 0) {
                s_done = 2;  // no marked literal left: cannot happen; reported as an error
            } else {
                u32 p = trail[s_found];
                seen[lit_var_d(p)] = RESOLVED;
                s_path -= 1;
                if (s_path == 0) {
                    s_done = 1;
                    learned[0] = p;
                } else {
                    s_p = p;
                    s_pos = (u32)s_found;
                    s_r = reason[lit_var_d(p)];
                    s_aux = 0;
                    s_idx = (u32)s_found;
                }
            }
        }
        __syncthreads();
        if (s_done) break;
    }
    // Position 1: a literal of the backjump level.
    if (tid == 0) {
        u32 n = s_n;
        for (u32 k = 2; k < n; k++) {
            if (level_of_d(val, lit_var_d(learned[k])) > level_of_d(val, lit_var_d(learned[1]))) {
                u32 t = learned[1]; learned[1] = learned[k]; learned[k] = t;
            }
        }
        ctl->learned_len = n;
        ctl->bj_level = s_bj;
        ctl->uip = learned[0];
        ctl->unsat = s_done == 2 ? 2u : 0u;
        ctl->conflict_level = lv;
    }
    __syncthreads();
    for (u32 k = tid; k < s_nt; k += bd) seen[touched[k]] = 0u;
}

extern "C" __global__ void learn_fwd_k(Control* ctl, const int* val, const u32* trail, const u32* trail_pos,
                                       const u32* level_start, const u64* deps, u32 words, u32* learned,
                                       float* score, float inc, Db db) {
    __shared__ u64 s_warp[32];
    __shared__ u32 s_n, s_lv;
    u32 tid = threadIdx.x, bd = blockDim.x, lane = tid & 31u, warp = tid >> 5, nwarps = (bd + 31u) / 32u;
    u32 r = ctl->conflict, aux = ctl->conflict_aux;
    if (tid == 0) { s_n = 0; s_lv = 0; }
    __syncthreads();
    reason_lits_d(db, val, trail_pos, r, aux, NO_CONFLICT, 0xffffffffu, tid, bd, [&](u32 q) {
        atomicAdd(&score[lit_var_d(q)], inc);
        atomicMax(&s_lv, level_of_d(val, lit_var_d(q)));
    });
    for (int w = (int)words - 1; w >= 0; w--) {
        u64 acc = 0;
        reason_lits_d(db, val, trail_pos, r, aux, NO_CONFLICT, 0xffffffffu, tid, bd,
                      [&](u32 q) { acc |= deps[(u64)lit_var_d(q) * words + (u32)w]; });
        acc = warp_or_d(acc);
        if (lane == 0) s_warp[warp] = acc;
        __syncthreads();
        if (warp == 0) {
            acc = lane < nwarps ? s_warp[lane] : 0;
            acc = warp_or_d(acc);
            acc = __shfl_sync(0xffffffffu, acc, 0);
            // Relevant decisions, highest level first, written by the first warp.
            for (u32 b = lane; b < 64; b += 32) {
                if (acc >> b & 1ull) {
                    u32 above = b == 63 ? 0u : (u32)__popcll(acc >> (b + 1));
                    u32 level = (u32)w * 64u + b;
                    learned[s_n + above] = trail[level_start[level]];
                }
            }
            __syncwarp();
            if (lane == 0) s_n += (u32)__popcll(acc);
        }
        __syncthreads();
    }
    if (tid == 0) {
        u32 n = s_n;
        ctl->learned_len = n;
        ctl->unsat = n == 0 ? 1u : 0u;
        ctl->uip = n > 0 ? learned[0] : NO_CONFLICT;
        ctl->bj_level = n > 1 ? level_of_d(val, lit_var_d(learned[1])) : 0u;
        ctl->conflict_level = s_lv;
    }
}
