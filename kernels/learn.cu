// learn.cu: conflict analysis on the device, one block per conflict.
// learn_res_k: 1-UIP resolution (Algorithm 3), resolving up to 32 literals of the conflict level
// at once (the latest ones marked, found in a bitmap of trail positions) until one is left, long
// reasons shared out among the block's warps. learn_fwd_k: forward learning (Algorithm 4): the
// dependency bitmaps of the conflict's literals OR-reduced by warp shuffles; the learned nogood is
// the set of decisions whose bits are set, highest level first, written by one warp.
// Both leave in `learned` the nogood with the literal to assert at position 0 and the highest of
// the others at position 1, and in the control block its length and backjump level; then they
// backjump there (backjump_to_d), so that commit_learned_k can store and assert the nogood.
#include "common.cuh"

#define SEEN 1u
// The conflict level's trail positions are tracked in two bitmaps, `marked` and `resolved` (a
// subset), in shared memory up to this many words each (2 x 16 KB); longer levels use the global
// scratch bitmaps, which the analysis clears again.
#define RES_SHARED_WORDS 4096u
// Reasons up to this long are resolved by one lane; longer ones by the whole warp.
#define RES_SHORT 8u

// Takes the `need` (at most 32) latest positions below relative position `idx` that are marked
// and not resolved, marks them resolved, and writes them, latest first, to `out`; returns how
// many it found. The whole warp scans 32 words (1024 positions) a step; every lane gets the
// same answer.
__device__ __forceinline__ u32 take_marked_d(const u32* marked, u32* resolved, u32 idx, u32 need, u32 lane,
                                             u32* out) {
    u32 got = 0;
    for (int top = ((int)idx - 1) >> 5; top >= 0 && got < need; top -= 32) {
        int w = top - (int)lane;  // lane 0 holds the highest word
        u32 word = w >= 0 ? marked[w] & ~resolved[w] : 0u;
        if (w == ((int)idx - 1) >> 5) {
            u32 rem = idx - (u32)w * 32u;  // 1..32 positions of this word are below idx
            if (rem < 32u) word &= (1u << rem) - 1u;
        }
        u32 c = (u32)__popc(word), incl = c;
        for (u32 off = 1; off < 32u; off <<= 1) {
            u32 y = __shfl_up_sync(0xffffffffu, incl, off);
            if (lane >= off) incl += y;
        }
        u32 before = got + incl - c;  // taken by higher words
        if (c > 0 && before < need) {
            u32 take = min(c, need - before), wd = word, taken = 0;
            for (u32 t = 0; t < take; t++) {
                u32 b = 31u - (u32)__clz(wd);
                out[before + t] = (u32)w * 32u + b;
                wd &= ~(1u << b);
                taken |= 1u << b;
            }
            atomicOr(&resolved[w], taken);
        }
        got = min(need, got + __shfl_sync(0xffffffffu, incl, 31));
    }
    __syncwarp();
    return got;
}

// 1-UIP by one block of W warps. The conflict level's literals are marked by trail position; the
// others (lower levels) go into the learned nogood, deduplicated by `seen`, which is cleared at
// the end. While `path` literals of the conflict level are marked and not resolved, the latest
// min(path - 1, 32) of them are resolved at once: none of them can be the UIP, which precedes
// every other marked literal of its level, and the nogood learned does not depend on the order
// of resolution. The one left when path is 1 is the UIP. Warp 0 finds the batch (take_marked_d)
// and resolves its short reasons, a lane each; the long ones (learned and loop nogoods of
// hundreds of literals, weight constraints) are shared out among the W warps, each resolving
// its reasons with all 32 lanes. W = 1 is the one-warp analysis of earlier versions.
extern "C" __global__ void learn_res_k(Control* ctl, int* val, const u32* trail, const u32* trail_pos,
                                       const u32* reason, const u32* level_start, u32* seen, u32* touched,
                                       u32* learned, float* score, float inc, u32* g_bits, Db db,
                                       Control* host) {
    __shared__ u32 s_marked[RES_SHARED_WORDS], s_resolved[RES_SHARED_WORDS], s_batch[32];
    __shared__ u32 s_lv, s_path, s_n, s_bj, s_nt, s_got, s_step;
    u32 tid = threadIdx.x, bd = blockDim.x, lane = tid & 31u, warp = tid >> 5, nwarps = bd >> 5;
    u64 t0 = tid == 0 ? now_ns_d() : 0;
    if (tid == 0) { s_lv = 0; s_path = 0; s_n = 1; s_bj = 0; s_nt = 0; }
    __syncthreads();
    u32 r = ctl->conflict, aux = ctl->conflict_aux, end = ctl->trail_len;
    reason_lits_d(db, val, trail_pos, r, aux, NO_CONFLICT, 0xffffffffu, tid, bd,
                  [&](u32 q) { atomicMax(&s_lv, level_of_d(val, lit_var_d(q))); });
    __syncthreads();
    u32 lv = s_lv;
    if (lv == 0) {
        if (tid == 0) {
            ctl->unsat = 1;
            ctl->conflict_level = 0;
            ctl->learned_len = 0;
            ctl->ns_learn += now_ns_d() - t0;
            publish_d(ctl, host);
        }
        return;
    }
    u32 lo = level_start[lv];
    u32 idx = (lv == ctl->level ? end : level_start[lv + 1]) - lo;
    u32 nwords = (idx + 31u) / 32u;
    bool shared = nwords <= RES_SHARED_WORDS;
    u32* marked = shared ? s_marked : g_bits;
    u32* resolved = shared ? s_resolved : g_bits + nwords;
    for (u32 w = tid; w < nwords; w += bd) { marked[w] = 0u; resolved[w] = 0u; }
    __syncthreads();
    auto mark = [&](u32 q) {
        u32 v = lit_var_d(q);
        u32 L = level_of_d(val, v);
        if (L == 0) return;
        if (L == lv) {
            u32 rel = trail_pos[v] - lo, bit = 1u << (rel & 31u);
            if (atomicOr(&marked[rel >> 5], bit) & bit) return;
            atomicAdd(&s_path, 1u);
        } else {
            if (atomicCAS(&seen[v], 0u, SEEN) != 0u) return;
            touched[atomicAdd(&s_nt, 1u)] = v;
            learned[atomicAdd(&s_n, 1u)] = q;
            atomicMax(&s_bj, L);
        }
        atomicAdd(&score[v], inc);
    };
    reason_lits_d(db, val, trail_pos, r, aux, NO_CONFLICT, 0xffffffffu, tid, bd, mark);
    u32 done = 0;
    while (true) {
        __syncthreads();  // the last step's marks are in
        if (warp == 0) {
            u32 path = s_path;  // the other warps wait at the next barrier: no writer now
            u32 need = path > 1u ? min(path - 1u, 32u) : 1u;
            u32 got = path == 0u ? 0u : take_marked_d(marked, resolved, idx, need, lane, s_batch);
            if (lane == 0) {
                s_step = path;
                s_got = got;
                if (got == need && path > 1u) s_path = path - got;  // this step's marks add theirs
            }
        }
        __syncthreads();
        u32 path = s_step, got = s_got;
        u32 need = path > 1u ? min(path - 1u, 32u) : 1u;
        if (got < need) {
            done = 2;  // fewer marked literals than counted: cannot happen; reported as an error
            break;
        }
        if (path == 1u) {
            if (tid == 0) learned[0] = trail[lo + s_batch[0]];
            done = 1;
            break;
        }
        idx = s_batch[0];  // every literal still to resolve precedes the latest one taken
        // Every warp reads the batch; warp 0 resolves the short reasons, a lane each.
        u32 pos = lane < got ? lo + s_batch[lane] : 0u;
        u32 p = lane < got ? trail[pos] : NO_CONFLICT;
        u32 rj = lane < got ? reason[lit_var_d(p)] : 0u;
        const u32* lits;
        u32 len = 0;
        bool together = false;
        if (lane < got) {
            if (nogood_lits_d(db, rj, lits, len) && len <= RES_SHORT) {
                if (warp == 0) reason_lits_d(db, val, trail_pos, rj, 0u, p, pos, 0u, 1u, mark);  // this lane alone
            } else {
                together = true;
            }
        }
        // The k-th long reason goes to warp k mod W.
        u32 k = 0;
        for (u32 m = __ballot_sync(0xffffffffu, together); m; m &= m - 1u, k++) {
            if (k % nwarps != warp) continue;
            u32 j = (u32)__ffs(m) - 1u;
            u32 rr = __shfl_sync(0xffffffffu, rj, j), pp = __shfl_sync(0xffffffffu, p, j);
            u32 ps = __shfl_sync(0xffffffffu, pos, j);
            reason_lits_d(db, val, trail_pos, rr, 0u, pp, ps, lane, 32u, mark);
        }
    }
    __syncthreads();
    u32 n = s_n, bj = s_bj;
    // Position 1: a literal of the backjump level (warp 0).
    for (u32 k0 = 1; warp == 0 && k0 < n; k0 += 32u) {
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
    if (tid == 0) {
        ctl->learned_len = n;
        ctl->bj_level = bj;
        ctl->uip = learned[0];
        ctl->unsat = done == 2 ? 2u : 0u;
        ctl->conflict_level = lv;
    }
    for (u32 k = tid; k < s_nt; k += bd) seen[touched[k]] = 0u;
    __syncthreads();
    if (done == 1) backjump_to_d(ctl, val, trail, level_start, bj, end, tid, bd);
    __syncthreads();
    if (tid == 0) {
        ctl->ns_learn += now_ns_d() - t0;
        publish_d(ctl, host);
    }
}

extern "C" __global__ void learn_fwd_k(Control* ctl, int* val, const u32* trail, const u32* trail_pos,
                                       const u32* level_start, const u64* deps, u32 words, u32* learned,
                                       float* score, float inc, Db db, Control* host) {
    __shared__ u64 s_warp[32];
    __shared__ u32 s_n, s_lv, s_bj;
    u32 tid = threadIdx.x, bd = blockDim.x, lane = tid & 31u, warp = tid >> 5, nwarps = (bd + 31u) / 32u;
    u32 r = ctl->conflict, aux = ctl->conflict_aux, end = ctl->trail_len;
    u64 t0 = tid == 0 ? now_ns_d() : 0;
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
        s_bj = n > 1 ? level_of_d(val, lit_var_d(learned[1])) : 0u;
        ctl->bj_level = s_bj;
        ctl->conflict_level = s_lv;
    }
    __syncthreads();
    if (s_n > 0) backjump_to_d(ctl, val, trail, level_start, s_bj, end, tid, bd);
    __syncthreads();
    if (tid == 0) {
        ctl->ns_learn += now_ns_d() - t0;
        publish_d(ctl, host);
    }
}
