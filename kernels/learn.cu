// learn.cu: conflict analysis on the device, one block (or warp) per conflict.
// learn_res_k: 1-UIP resolution (Algorithm 3) by one warp: the lanes add a reason's literals in
// parallel, the latest marked literal of the conflict level is the highest bit of a bitmap of
// its trail positions, and the analysis stops when one literal of that level is left. learn_fwd_k: forward learning (Algorithm 4): the
// dependency bitmaps of the conflict's literals OR-reduced by warp shuffles; the learned nogood is
// the set of decisions whose bits are set, highest level first, written by one warp.
// Both leave in `learned` the nogood with the literal to assert at position 0 and the highest of
// the others at position 1, and in the control block its length and backjump level.
#include "common.cuh"

#define SEEN 1u
// Trail positions of the conflict level marked in shared memory up to this many words (32 KB);
// longer levels use the global scratch bitmap, which the analysis leaves all zero.
#define RES_SHARED_WORDS 8192u

// The highest set bit below relative position `idx` in `bits` (-1 if none), found by the whole
// warp 32 words (1024 positions) a step; every lane gets the same answer.
__device__ __forceinline__ int latest_marked_d(const u32* bits, u32 idx, u32 lane) {
    for (int top = ((int)idx - 1) >> 5; top >= 0; top -= 32) {
        int w = top - (int)lane;
        u32 word = w >= 0 ? bits[w] : 0u;
        if (w == ((int)idx - 1) >> 5) {
            u32 rem = idx - (u32)w * 32u;  // 1..32 positions of this word are below idx
            if (rem < 32u) word &= (1u << rem) - 1u;
        }
        u32 m = __ballot_sync(0xffffffffu, word != 0u);
        if (m) {
            int l = __ffs(m) - 1;  // the lowest lane holds the highest word
            u32 wd = __shfl_sync(0xffffffffu, word, l);
            return (top - l) * 32 + 31 - __clz(wd);
        }
    }
    return -1;
}

// 1-UIP by one warp (launched with 32 threads): literals of the conflict level are marked by
// trail position in a bitmap, so the next one to resolve is the highest marked bit (a warp scan
// of shared memory); the others (lower levels) go into the learned nogood, deduplicated by
// `seen`, which is cleared at the end.
extern "C" __global__ void learn_res_k(Control* ctl, const int* val, const u32* trail, const u32* trail_pos,
                                       const u32* reason, const u32* level_start, u32* seen, u32* touched,
                                       u32* learned, float* score, float inc, u32* g_bits, Db db) {
    __shared__ u32 s_bits[RES_SHARED_WORDS];
    __shared__ u32 s_lv, s_path, s_n, s_bj, s_nt;
    u32 lane = threadIdx.x;
    if (lane == 0) { s_lv = 0; s_path = 0; s_n = 1; s_bj = 0; s_nt = 0; }
    __syncwarp();
    u32 r = ctl->conflict, aux = ctl->conflict_aux;
    reason_lits_d(db, val, trail_pos, r, aux, NO_CONFLICT, 0xffffffffu, lane, 32u,
                  [&](u32 q) { atomicMax(&s_lv, level_of_d(val, lit_var_d(q))); });
    __syncwarp();
    u32 lv = s_lv;
    if (lv == 0) {
        if (lane == 0) { ctl->unsat = 1; ctl->conflict_level = 0; ctl->learned_len = 0; }
        return;
    }
    u32 lo = level_start[lv];
    u32 idx = (lv == ctl->level ? ctl->trail_len : level_start[lv + 1]) - lo;
    u32 nwords = (idx + 31u) / 32u;
    u32* bits = nwords <= RES_SHARED_WORDS ? s_bits : g_bits;
    if (bits == s_bits)
        for (u32 w = lane; w < nwords; w += 32u) s_bits[w] = 0u;
    __syncwarp();
    u32 p = NO_CONFLICT, pos = 0xffffffffu, done = 0;
    while (true) {
        reason_lits_d(db, val, trail_pos, r, aux, p, pos, lane, 32u, [&](u32 q) {
            u32 v = lit_var_d(q);
            u32 L = level_of_d(val, v);
            if (L == 0) return;
            if (L == lv) {
                u32 rel = trail_pos[v] - lo, bit = 1u << (rel & 31u);
                if (atomicOr(&bits[rel >> 5], bit) & bit) return;
                atomicAdd(&s_path, 1u);
            } else {
                if (atomicCAS(&seen[v], 0u, SEEN) != 0u) return;
                touched[atomicAdd(&s_nt, 1u)] = v;
                learned[atomicAdd(&s_n, 1u)] = q;
                atomicMax(&s_bj, L);
            }
            atomicAdd(&score[v], inc);
        });
        __syncwarp();
        int found = latest_marked_d(bits, idx, lane);
        if (found < 0) {
            done = 2;  // no marked literal left: cannot happen; reported as an error
            break;
        }
        p = trail[lo + (u32)found];
        if (lane == 0) {
            atomicAnd(&bits[found >> 5], ~(1u << (found & 31)));
            s_path -= 1u;
        }
        __syncwarp();
        u32 path = s_path;
        __syncwarp();
        if (path == 0u) {
            done = 1;
            if (lane == 0) learned[0] = p;
            break;
        }
        // Resolve on p: its reason's literals come before it on the trail.
        pos = lo + (u32)found;
        idx = (u32)found;
        r = reason[lit_var_d(p)];
        aux = 0;
    }
    __syncwarp();
    u32 n = s_n, bj = s_bj;
    // Position 1: a literal of the backjump level.
    for (u32 k0 = 1; k0 < n; k0 += 32u) {
        u32 k = k0 + lane;
        bool hit = k < n && level_of_d(val, lit_var_d(learned[k])) == bj;
        u32 m = __ballot_sync(0xffffffffu, hit);
        if (m) {
            u32 kk = k0 + (u32)__ffs(m) - 1u;
            if (lane == 0 && kk != 1u) {
                u32 t = learned[1]; learned[1] = learned[kk]; learned[kk] = t;
            }
            break;
        }
    }
    if (lane == 0) {
        ctl->learned_len = n;
        ctl->bj_level = bj;
        ctl->uip = learned[0];
        ctl->unsat = done == 2 ? 2u : 0u;
        ctl->conflict_level = lv;
    }
    for (u32 k = lane; k < s_nt; k += 32u) seen[touched[k]] = 0u;
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
