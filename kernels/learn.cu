// learn.cu: conflict analysis on the device, one block per conflict.
// learn_res_k (learn_res_block_d, which propagate_fix_k's block 0 also runs for the conflicts it
// analyses itself): 1-UIP resolution (Algorithm 3), resolving up to 32 literals of the conflict level
// at once (the latest ones marked, found in a bitmap of trail positions) until one is left, long
// reasons shared out among the block's warps; the nogood reasons of the conflict level (up to
// POOL_LEN literals) are prefetched into shared memory first, so that each batch reads no global
// memory for them; then the nogood is minimised (minimise_d: lower-level literals whose reasons
// lie inside it go).
// learn_fwd_k: forward learning (Algorithm 4): the dependency bitmaps of the conflict's literals
// OR-reduced by warp shuffles; the learned nogood is the set of decisions whose bits are set,
// highest level first, written by one warp.
// Both leave in `learned` the nogood with the literal to assert at position 0 and the highest of
// the others at position 1, and in the control block its length, LBD (the number of decision
// levels among its literals, which deletion ranks by) and backjump level; then they backjump there
// (backjump_to_d) and store and assert the nogood (commit_learned_d, backjump.cu, earlier in the
// translation unit), so that the host can launch the next propagation without waiting for them.
#include "common.cuh"

#define SEEN 1u
// The conflict level's trail positions are tracked in two bitmaps, `marked` and `resolved` (a
// subset), in shared memory up to ResShared::mark_words words each (smem.rs); longer levels use
// the global scratch bitmaps, which the analysis clears again.
// Reasons up to this long are resolved by one lane; longer ones by the whole warp.
#define RES_SHORT 8u
// Nogood reasons up to this long (and longer than 3) are prefetched into the pool.
#define POOL_LEN 32u

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

// What learn_res_k prefetches for each position of the conflict level (when the level has at
// most `seg_cap` of them): the literal, and for a reason of at most three literals (binary and
// ternary nogoods, the common case) what marking each other literal takes, so that resolving it
// reads only shared memory. An entry (word, kind) is: kind INFO_SKIP, nothing (a literal of level
// 0, or no literal); INFO_SAME, the literal at relative position `word` of the conflict level;
// else the literal `word` of the lower level `kind`. Kind INFO_NONE in the first entry: the
// reason is longer than POOL_LEN or not a nogood (a weight constraint), or the pool had no room:
// resolved from global memory. (Device run 72 on GraphColouring_0006: a batch with such a reason
// took 2.6 times as long as one without.)
#define INFO_SKIP 0xffffffffu
#define INFO_SAME 0xfffffffeu
#define INFO_NONE 0xfffffffdu
// Kind INFO_POOL in the first entry: a longer nogood, its literals' entries (as above, 8 bytes
// each, its own literal's INFO_SKIP) at pool offset `x`, `z` of them.
#define INFO_POOL 0xfffffffcu

// The entry of literal q of the reason of a variable `own` (INFO_SKIP for own itself), for a
// conflict at level `lv` whose positions start at trail position `lo`. The position is loaded
// with the value: one wait.
__device__ __forceinline__ uint2 prefetch_entry_d(const int* val, const u32* trail_pos, u32 q, u32 own, u32 lv,
                                                  u32 lo) {
    u32 qv = lit_var_d(q);
    if (qv == own) return make_uint2(0u, INFO_SKIP);
    u32 tp = trail_pos[qv], L = level_of_d(val, qv);
    return L == 0 ? make_uint2(0u, INFO_SKIP) : L == lv ? make_uint2(tp - lo, INFO_SAME) : make_uint2(q, L);
}

// Local minimisation of a learned nogood (MiniSat's ccmin_mode 1): a lower-level literal goes
// when every other literal of its reason is in the nogood (`seen`, a bitmap of variables) or of
// level 0. The checks all read the seen set of the whole nogood and the removals follow them; that
// is sound because reasons point back along the trail: a removed literal is implied by literals
// assigned before it, each kept or itself removed the same way, so the chain ends in kept ones.
// Reasons of lower levels have no literal of the conflict level, which `seen` does not hold. A
// warp checks a literal (every literal of a long reason at once); then warp 0 closes the gaps,
// keeping the UIP at position 0, and counts again the backjump level and the LBD's levels in
// `levels` (cleared here; the conflict level counts 1). Block-wide: every thread calls it.
__device__ __forceinline__ void minimise_d(const Db& db, const int* val, const u32* trail_pos, const u32* reason,
                                           u32* learned, const u32* seen, u32* levels, u32 seen_words, u32* s_n,
                                           u32* s_bj, u32* s_lbd) {
    u32 tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5, nwarps = blockDim.x >> 5, n = *s_n;
    for (u32 w = tid; w < seen_words; w += blockDim.x) levels[w] = 0u;
    for (u32 k = 1u + warp; k < n; k += nwarps) {
        u32 q = learned[k], v = lit_var_d(q), r = reason[v];
        bool implied = REASON_KIND(r) != R_DECISION && REASON_KIND(r) != R_UNIT;
        if (implied) {
            bool outside = false;
            reason_lits_d(db, val, trail_pos, r, 0u, q, trail_pos[v], lane, 32u, [&](u32 x) {
                u32 xv = lit_var_d(x);
                if (!(seen[xv >> 5] >> (xv & 31u) & 1u) && level_of_d(val, xv) != 0u) outside = true;
            });
            implied = !__any_sync(0xffffffffu, outside);
        }
        if (implied && lane == 0) learned[k] = NO_CONFLICT;
    }
    __syncthreads();
    if (warp == 0) {
        // A chunk reads its 32 positions before writing below them: the writes never pass the reads.
        u32 out = 1u, bj = 0u, fresh = 0u;
        for (u32 k0 = 1u; k0 < n; k0 += 32u) {
            u32 k = k0 + lane;
            u32 q = k < n ? learned[k] : NO_CONFLICT;
            bool keep = q != NO_CONFLICT;
            u32 m = __ballot_sync(0xffffffffu, keep);
            if (keep) {
                u32 L = level_of_d(val, lit_var_d(q));
                learned[out + (u32)__popc(m & ((1u << lane) - 1u))] = q;
                bj = max(bj, L);
                u32 bit = 1u << (L & 31u);
                if (!(atomicOr(&levels[L >> 5], bit) & bit)) fresh++;
            }
            out += (u32)__popc(m);
        }
        for (u32 off = 16; off > 0; off >>= 1) {
            bj = max(bj, __shfl_xor_sync(0xffffffffu, bj, off));
            fresh += __shfl_xor_sync(0xffffffffu, fresh, off);
        }
        if (lane == 0) {
            *s_n = out;
            *s_bj = bj;
            *s_lbd = 1u + fresh;
        }
    }
    __syncthreads();
}

// Where an analysis keeps its state in the dynamic shared memory, from word `base` (a multiple
// of 4) on: the prefetch (`seg_cap` 16-byte entries, the pool of `pool_cap` 8-byte entries for
// longer reasons, then `seg_cap` literals), the seen and level bitmaps (`seen_words` words each,
// 0: global memory) and the bitmaps of the conflict level's
// positions (`mark_words` words each; longer levels use the global scratch). Offsets, not
// pointers: the addresses stay shared-window ones, 32 bits each.
struct ResShared {
    u32 base;
    u32 seg_cap;
    u32 seen_words;
    u32 mark_words;
    u32 pool_cap;
};

// After a backjump to level `bj` from a trail of `end` literals, by all threads of the block: the
// bits of the unassigned literals in propagate_fix_k's SharedView (`sv_true` and `sv_claim`, both
// of a variable's literals: mask 3) go too. Nothing where sv_true is null (a learning kernel).
__device__ __forceinline__ void unassign_view_d(const u32* trail, const u32* level_start, u32 bj, u32 end,
                                                u32* sv_true, u32* sv_claim, u32 tid, u32 bd) {
    for (u32 i = level_start[bj + 1] + tid; sv_true && i < end; i += bd) {
        u32 l = trail[i], keep = ~(3u << (l & 30u));
        atomicAnd(&sv_true[l >> 5], keep);
        atomicAnd(&sv_claim[l >> 5], keep);
    }
}

// 1-UIP by one block of W warps. The conflict level's literals are marked by trail position; the
// others (lower levels) go into the learned nogood, deduplicated by `seen` (a bitmap of variables
// in shared memory when `seen_words` > 0, else the global array, cleared at the end), and the
// level's nogood reasons are prefetched (INFO_ above). While `path` literals of the conflict level
// are marked and not resolved, the latest min(path - 1, 32) of them are resolved at once: none of
// them can be the UIP, which precedes every other marked literal of its level, and the nogood
// learned does not depend on the order of resolution. The one left when path is 1 is the UIP.
// Warp 0 finds the batch (take_marked_d) and resolves its short reasons, a lane each; the long
// ones (learned and loop nogoods of hundreds of literals, weight constraints) are shared out
// among the W warps, each resolving its reasons with all 32 lanes. W = 1 is the one-warp
// analysis of earlier versions. Shared memory (`sh`): the prefetch, and when seen_words > 0 two
// bitmaps of seen_words words: the seen variables and the levels the LBD has counted (levels are
// fewer than variables). Without them the LBD counts a lower level when the global
// `level_stamp[level]` is not yet `tag`, a number the host makes different for every analysis,
// and the nogood is not minimised (minimise_d needs the shared bitmaps). Then the backjump (where
// `sv_true` is not null, the unassigned literals' bits of propagate_fix_k's SharedView go too)
// and the nogood stored and asserted. Every thread of the block calls it; it returns 1 when a
// nogood was learned, 0 for a conflict at level 0 (ctl->unsat 1), 2 on an internal error
// (ctl->unsat 2). The control block's analysis fields say what it did.
__device__ __forceinline__ u32 learn_res_block_d(Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason,
                                                  const u32* level_start, u32* seen, u32* touched, u32* learned,
                                                  float* score, float inc, u32* g_bits, const Db& db,
                                                  u32* level_stamp, u32 tag, ResShared sh, u32* sv_true,
                                                  u32* sv_claim) {
    __shared__ u32 s_batch[32];
    __shared__ u32 s_lv, s_path, s_n, s_bj, s_nt, s_got, s_step, s_lbd, s_pool_n;
    extern __shared__ uint4 s_dyn4[];
    u32 seg_cap = sh.seg_cap, seen_words = sh.seen_words;
    uint4* s_info = s_dyn4 + sh.base / 4u;
    uint2* s_pool = reinterpret_cast<uint2*>(s_info + seg_cap);
    u32* s_lit = reinterpret_cast<u32*>(s_pool + sh.pool_cap);
    u32* s_seen = s_lit + seg_cap;
    u32* s_levels = s_seen + seen_words;
    u32* s_marked = s_levels + seen_words;
    u32* s_resolved = s_marked + sh.mark_words;
    u32 tid = threadIdx.x, bd = blockDim.x, lane = tid & 31u, warp = tid >> 5, nwarps = bd >> 5;
    u64 t0 = tid == 0 ? now_ns_d() : 0;
    if (tid == 0) { s_lv = 0; s_path = 0; s_n = 1; s_bj = 0; s_nt = 0; s_lbd = 1; s_pool_n = 0; }
    for (u32 w = tid; w < seen_words; w += bd) { s_seen[w] = 0u; s_levels[w] = 0u; }
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
        }
        return 0;
    }
    u32 lo = level_start[lv];
    u32 idx = (lv == ctl->level ? end : level_start[lv + 1]) - lo;
    u32 nwords = (idx + 31u) / 32u;
    bool shared = nwords <= sh.mark_words;
    bool seg = idx <= seg_cap;
    u32* marked = shared ? s_marked : g_bits;
    u32* resolved = shared ? s_resolved : g_bits + nwords;
    for (u32 w = tid; w < nwords; w += bd) { marked[w] = 0u; resolved[w] = 0u; }
    // The prefetch: every position of the level at once, so that the batches' chains of
    // dependent loads (trail, reason, nogood, values) shrink to shared-memory reads. A warp's
    // positions lie W apart, so that the level's longer nogoods, each taken by the whole warp of
    // its position into the pool, are shared out among the warps.
    for (u32 r0 = 0; seg && r0 < idx; r0 += bd) {
        u32 rel = r0 + lane * nwarps + warp, v = 0, len = 0;
        bool in = rel < idx, ng = false;
        const u32* lits = nullptr;
        uint4 info = make_uint4(0u, INFO_NONE, 0u, INFO_SKIP);
        if (in) {
            u32 p = trail[lo + rel];
            v = lit_var_d(p);
            s_lit[rel] = p;
            ng = nogood_lits_d(db, reason[v], lits, len);
            if (ng && len <= 3u) {
                info.y = INFO_SKIP;
                u32 k = 0;
                for (u32 j = 0; j < len; j++) {
                    if (lit_var_d(lits[j]) == v) continue;
                    uint2 e = prefetch_entry_d(val, trail_pos, lits[j], v, lv, lo);
                    if (k++ == 0) { info.x = e.x; info.y = e.y; } else { info.z = e.x; info.w = e.y; }
                }
            }
        }
        for (u32 m = __ballot_sync(0xffffffffu, ng && len > 3u && len <= POOL_LEN); m; m &= m - 1u) {
            u32 j = (u32)__ffs(m) - 1u;
            u32 n = __shfl_sync(0xffffffffu, len, j), jv = __shfl_sync(0xffffffffu, v, j);
            const u32* jl = reinterpret_cast<const u32*>(
                __shfl_sync(0xffffffffu, reinterpret_cast<unsigned long long>(lits), j));
            u32 off = lane == 0 ? atomicAdd(&s_pool_n, n) : 0u;
            off = __shfl_sync(0xffffffffu, off, 0);
            if (off + n > sh.pool_cap || off + n < n) continue;  // no room: resolved from global memory
            for (u32 k = lane; k < n; k += 32u) s_pool[off + k] = prefetch_entry_d(val, trail_pos, jl[k], jv, lv, lo);
            if (lane == j) info = make_uint4(off, INFO_POOL, n, INFO_SKIP);
        }
        if (in) s_info[rel] = info;
    }
    __syncthreads();
    // A variable of a lower level, the first time: true (the seen mark is set).
    auto first_seen = [&](u32 v) -> bool {
        if (seen_words) {
            u32 bit = 1u << (v & 31u);
            return !(atomicOr(&s_seen[v >> 5], bit) & bit);
        }
        if (atomicCAS(&seen[v], 0u, SEEN) != 0u) return false;
        touched[atomicAdd(&s_nt, 1u)] = v;
        return true;
    };
    auto lower = [&](u32 q, u32 L) {
        u32 v = lit_var_d(q);
        if (!first_seen(v)) return;
        learned[atomicAdd(&s_n, 1u)] = q;
        atomicAdd(&score[v], inc);
        // The backjump level and the LBD: with the seen bitmaps shared, minimise_d counts them
        // over the literals it keeps; without, here, a level counted once by its global stamp (a
        // returning global atomic, the one round trip to global memory on a batch's path).
        if (seen_words) return;
        atomicMax(&s_bj, L);
        if (atomicExch(&level_stamp[L], tag) != tag) atomicAdd(&s_lbd, 1u);
    };
    auto same = [&](u32 rel, u32 v) {
        u32 bit = 1u << (rel & 31u);
        if (atomicOr(&marked[rel >> 5], bit) & bit) return;
        atomicAdd(&s_path, 1u);
        atomicAdd(&score[v], inc);
    };
    auto mark = [&](u32 q) {
        u32 v = lit_var_d(q);
        // The position is loaded with the value, not after it: one wait on a long reason's
        // literals of the conflict level instead of two.
        u32 tp = trail_pos[v];
        u32 L = level_of_d(val, v);
        if (L == 0) return;
        if (L == lv) same(tp - lo, v);
        else lower(q, L);
    };
    auto mark_info = [&](u32 word, u32 kind) {
        if (kind == INFO_SKIP) return;
        if (kind == INFO_SAME) same(word, lit_var_d(s_lit[word]));
        else lower(word, kind);
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
            if (tid == 0) learned[0] = seg ? s_lit[s_batch[0]] : trail[lo + s_batch[0]];
            done = 1;
            break;
        }
        idx = s_batch[0];  // every literal still to resolve precedes the latest one taken
        // Every warp reads the batch; warp 0 resolves the short reasons, a lane each.
        u32 rel = lane < got ? s_batch[lane] : 0u, pos = lo + rel;
        uint4 info = make_uint4(0u, INFO_NONE, 0u, INFO_SKIP);  // without the prefetch: from global memory
        if (lane < got && seg) info = s_info[rel];
        bool pooled = lane < got && info.y == INFO_POOL;
        bool pre = lane < got && info.y != INFO_NONE && !pooled;
        u32 p = lane < got ? (seg ? s_lit[rel] : trail[pos]) : NO_CONFLICT;
        u32 rj = lane < got && !pre && !pooled ? reason[lit_var_d(p)] : 0u;
        const u32* lits;
        u32 len = 0;
        bool together = pooled;
        if (pre) {
            if (warp == 0) {
                mark_info(info.x, info.y);
                mark_info(info.z, info.w);
            }
        } else if (lane < got && !pooled) {
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
            if (__shfl_sync(0xffffffffu, info.y, j) == INFO_POOL) {
                u32 off = __shfl_sync(0xffffffffu, info.x, j), n = __shfl_sync(0xffffffffu, info.z, j);
                for (u32 t = lane; t < n; t += 32u) {
                    uint2 e = s_pool[off + t];
                    mark_info(e.x, e.y);
                }
                continue;
            }
            u32 rr = __shfl_sync(0xffffffffu, rj, j), pp = __shfl_sync(0xffffffffu, p, j);
            u32 ps = __shfl_sync(0xffffffffu, pos, j);
            reason_lits_d(db, val, trail_pos, rr, 0u, pp, ps, lane, 32u, mark);
        }
    }
    __syncthreads();
    if (done == 1 && seen_words) minimise_d(db, val, trail_pos, reason, learned, s_seen, s_levels, seen_words, &s_n,
                                            &s_bj, &s_lbd);
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
        ctl->lbd = s_lbd;
    }
    for (u32 k = tid; k < s_nt; k += bd) seen[touched[k]] = 0u;
    __syncthreads();
    if (done == 1) {
        backjump_to_d(ctl, val, trail, level_start, bj, end, tid, bd);
        unassign_view_d(trail, level_start, bj, end, sv_true, sv_claim, tid, bd);
    }
    __syncthreads();
    if (done == 1) commit_learned_d(ctl, val, trail, trail_pos, reason, learned, n, s_lbd, db, nullptr, 0u);
    if (tid == 0) ctl->ns_learn += now_ns_d() - t0;
    return done;
}

// The analysis as a kernel of its own (one block of W warps), for the conflicts the host
// launches it for; it publishes the control block. All of its dynamic shared memory is the
// analysis' (ResShared from word 0).
extern "C" __global__ void __launch_bounds__(1024, 1)
    learn_res_k(Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason, const u32* level_start, u32* seen,
                u32* touched, u32* learned, float* score, float inc, u32* g_bits, Db db, Control* host, u32 seg_cap,
                u32 seen_words, u32 mark_words, u32 pool_cap, u32* level_stamp, u32 tag) {
    ResShared sh = {0u, seg_cap, seen_words, mark_words, pool_cap};
    learn_res_block_d(ctl, val, trail, trail_pos, reason, level_start, seen, touched, learned, score, inc, g_bits, db,
                      level_stamp, tag, sh, nullptr, nullptr);
    if (threadIdx.x == 0) publish_d(ctl, host);
}

// Forward learning by one block (Algorithm 4): the dependency bitmaps of the conflict's literals
// OR-reduced by warp shuffles, a word of levels at a time from the highest; the learned nogood is
// the set of decisions whose bits are set, highest level first, written by the first warp; its LBD
// is its length (one decision a level). Then the backjump (and, where `sv_true` is not null, the
// SharedView's bits, as learn_res_block_d) and the nogood stored and asserted. Every thread of the
// block calls it; it returns 1 when a nogood was learned, 0 for a conflict at level 0 (ctl->unsat 1).
__device__ __forceinline__ u32 learn_fwd_block_d(Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason,
                                                  const u32* level_start, u64* deps, u32 words, u32* learned,
                                                  float* score, float inc, const Db& db, u32* sv_true,
                                                  u32* sv_claim) {
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
    u32 n = s_n;
    if (tid == 0) {
        ctl->learned_len = n;
        ctl->unsat = n == 0 ? 1u : 0u;
        ctl->uip = n > 0 ? learned[0] : NO_CONFLICT;
        ctl->lbd = n;  // one decision a level
        s_bj = n > 1 ? level_of_d(val, lit_var_d(learned[1])) : 0u;
        ctl->bj_level = s_bj;
        ctl->conflict_level = s_lv;
    }
    __syncthreads();
    if (n > 0) {
        backjump_to_d(ctl, val, trail, level_start, s_bj, end, tid, bd);
        unassign_view_d(trail, level_start, s_bj, end, sv_true, sv_claim, tid, bd);
    }
    __syncthreads();
    if (n > 0) commit_learned_d(ctl, val, trail, trail_pos, reason, learned, n, n, db, deps, words);
    if (tid == 0) ctl->ns_learn += now_ns_d() - t0;
    return n > 0 ? 1u : 0u;
}

// Forward learning as a kernel of its own (one block), for the conflicts the host launches it for;
// it publishes the control block.
extern "C" __global__ void learn_fwd_k(Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason,
                                       const u32* level_start, u64* deps, u32 words, u32* learned,
                                       float* score, float inc, Db db, Control* host) {
    learn_fwd_block_d(ctl, val, trail, trail_pos, reason, level_start, deps, words, learned, score, inc, db, nullptr,
                      nullptr);
    if (threadIdx.x == 0) publish_d(ctl, host);
}
