// farm_propagate.cu: the search farm's propagation (kernels/farm.cu has its data): the program's
// binary nogoods as implications, its longer nogoods and weight constraints by counts, the
// learned nogoods by watches, and the backjump that takes counts back. Compiled after farm.cu.

#ifndef FARM_HOST_EMU
#include "common.cuh"
#endif

// Nogood `lits[0..len)` (reason code r) has all but one literal true and processed: assigns the
// complement of its last literal if that is unassigned.
__device__ __forceinline__ void farm_unit_d(const FarmSearch& f, const u32* lits, u32 len, u32 r) {
    for (u32 i = 0; i < len; i++) {
        u32 x = farm_lit_d(f, lits[i]);
        if (x == 1u) continue;
        if (x == 0u) farm_assign_d(f, lits[i] ^ 1u, r);
        return;
    }
}

// W is true (processed) and `fsum` of the weight is false: every open term heavier than the slack
// must be true.
__device__ void farm_need_true_d(const FarmArgs& a, const FarmSearch& f, u32 c, i64 fsum) {
    i64 slack = a.w_total[c] - fsum - a.w_bound[c];
    if (slack < 0) {
        farm_conflict_d(f, FARM_WEIGHT | c);
        return;
    }
    for (u32 j = a.w_start[c]; j < a.w_start[c + 1]; j++) {
        if (a.w_weight[j] <= slack) break;
        if (farm_lit_d(f, a.w_lits[j]) == 0u) farm_assign_d(f, a.w_lits[j], FARM_WEIGHT | c);
    }
}

// W is false (processed) and `tsum` of the weight is true: every open term that would reach the
// bound must be false.
__device__ void farm_need_false_d(const FarmArgs& a, const FarmSearch& f, u32 c, i64 tsum) {
    i64 bound = a.w_bound[c];
    if (tsum >= bound) {
        farm_conflict_d(f, FARM_WEIGHT | c);
        return;
    }
    for (u32 j = a.w_start[c]; j < a.w_start[c + 1]; j++) {
        if (tsum + a.w_weight[j] < bound) break;
        if (farm_lit_d(f, a.w_lits[j]) == 0u) farm_assign_d(f, a.w_lits[j] ^ 1u, FARM_WEIGHT | c);
    }
}

// Processes weight entry [c, code] of a literal.
__device__ void farm_weight_entry_d(const FarmArgs& a, const FarmSearch& f, u32 c, u32 code) {
    u32 kind = code & 3u;
    i64 w = kind < 2u ? a.w_weight[code >> 2] : 0;
    i64* sums = f.wsum + 2 * (u64)c;
    i64 bound = a.w_bound[c];
    u32 head = a.w_head[c];
    if (kind == 0u) {
        i64 t = (i64)atomicAdd((u64*)&sums[0], (u64)w) + w;
        u32 h = f.whead[c];
        if (h == 2u) farm_need_false_d(a, f, c, t);
        else if (h == 0u && t >= bound) farm_assign_d(f, head, FARM_WEIGHT | c);
    } else if (kind == 1u) {
        i64 fs = (i64)atomicAdd((u64*)&sums[1], (u64)w) + w;
        u32 h = f.whead[c];
        if (h == 1u) farm_need_true_d(a, f, c, fs);
        else if (h == 0u && a.w_total[c] - fs < bound) farm_assign_d(f, head ^ 1u, FARM_WEIGHT | c);
    } else if (kind == 2u) {
        f.whead[c] = 1u;
        farm_need_true_d(a, f, c, sums[1]);
    } else {
        f.whead[c] = 2u;
        farm_need_false_d(a, f, c, sums[0]);
    }
}

// A chunk of the free list, else of the pool: its number + 1 (0: none is left). Lanes linking
// into different lists take chunks at once (nothing is put on the free list meanwhile).
__device__ u32 farm_chunk_d(const FarmSearch& f, u32 cap) {
    for (;;) {
        u32 h = *(volatile u32*)&f.st[FS_FREE];
        if (h == 0u) break;
        u32 next = *(volatile u32*)&f.l_chunk[(u64)(h - 1u) * FARM_CW + FARM_NEXT];
        if (atomicCAS(&f.st[FS_FREE], h, next) == h) {
            atomicAdd(&f.st[FS_CHUNKS], 1u);
            return h;
        }
    }
    u32 n = atomicAdd(&f.st[FS_BUMP], 1u);
    if (n < cap) {
        atomicAdd(&f.st[FS_CHUNKS], 1u);
        return n + 1u;
    }
    atomicSub(&f.st[FS_BUMP], 1u);
    return 0u;
}

// Puts learned nogood k into literal l's watch list with `blocker` (a literal of k's: while it is
// false, k is satisfied and not visited), with a new first chunk where the list's is full: false
// where there is none left. Lanes may link into different lists at once.
__device__ bool farm_link_d(const FarmSearch& f, u32 l, u32 k, u32 blocker, u32 cap) {
    u32 c = f.l_head[l];
    u32* ch = f.l_chunk + (u64)(c == 0u ? 0u : c - 1u) * FARM_CW;
    if (c == 0u || ch[FARM_FILL] == FARM_CHUNK) {
        u32 nc = farm_chunk_d(f, cap);
        if (nc == 0u) return false;
        ch = f.l_chunk + (u64)(nc - 1u) * FARM_CW;
        ch[FARM_NEXT] = c;
        ch[FARM_FILL] = 0u;
        f.l_head[l] = nc;
    }
    u32 i = ch[FARM_FILL]++;
    ch[2u * i] = k;
    ch[2u * i + 1u] = blocker;
    return true;
}

// The visit of learned nogood k when its watch p became true (one lane), first phase: reads
// values only. Returns what the second phase does: 0 nothing (the nogood is satisfied), 1 move
// the watch to literal `*to` (at position `*at`), 2 imply `*to` false, 3 a conflict. The entry's
// blocker becomes the other watch where the nogood is read.
__device__ u32 farm_watch_d(const FarmSearch& f, u32 p, u32 k, u32* blocker, u32* to, u32* at) {
    if (farm_lit_d(f, *blocker) == 2u) return 0u;
    const u32* lits = f.l_lits + f.l_start[k];
    u32 len = f.l_len[k], other = lits[0] == p ? lits[1] : lits[0];
    u32 x = farm_lit_d(f, other);
    *blocker = other;
    if (x == 2u) return 0u;
    for (u32 j = 2; j < len; j++) {
        if (farm_lit_d(f, lits[j]) != 1u) {
            *to = lits[j];
            *at = j;
            return 1u;
        }
    }
    *to = other;
    return x == 0u ? 2u : 3u;
}

// Visits the learned nogoods watching p (its list's first chunk `head`, read by the caller), which
// was just processed: the whole warp, a chunk at a
// time, FARM_W entries at once. Each lane visits an entry (a nogood is in a list once: no two
// lanes share one), the implications and the conflict come after every lane has read, moves into
// one list go one lane at a time (into different lists at once), and the chunk keeps the entries
// that stay, in order; an emptied chunk goes to the free list.
__device__ void farm_watches_d(const FarmArgs& a, const FarmSearch& f, u32 p, u32 head) {
    u32 prev = 0u;
    for (u32 ci = head; ci != 0u;) {
        u32* ch = f.l_chunk + (u64)(ci - 1u) * FARM_CW;
        u32 n = ch[FARM_FILL], next = ch[FARM_NEXT], kept = 0u;
        for (u32 base = 0; base < n; base += FARM_W) {
            u32 j = base + f.lane, k = 0u, blocker = 0u, act = 0u, to = 0u, at = 0u;
            if (j < n) {
                k = ch[2u * j];
                blocker = ch[2u * j + 1u];
                act = farm_watch_d(f, p, k, &blocker, &to, &at);
            }
            __syncwarp();
            if (act == 2u) farm_assign_d(f, to ^ 1u, a.ngoods + k + 1u);
            if (act == 3u) farm_conflict_d(f, a.ngoods + k + 1u);
            // The moves: in each round the first lane still to move into each list links.
            bool pending = act == 1u;
            u32 peers = __match_any_sync(0xffffffffu, pending ? to : FARM_NONE);
            for (;;) {
                u32 left = __ballot_sync(0xffffffffu, pending);
                if (left == 0u) break;
                if (pending && (left & peers & f.below) == 0u) {
                    pending = false;
                    u32* lits = f.l_lits + f.l_start[k];
                    if (farm_link_d(f, to, k, blocker, a.chunks)) {
                        // The watch on p moves to position `at`'s literal; the other stays first.
                        if (lits[0] == p) lits[0] = lits[1];
                        lits[1] = to;
                        lits[at] = p;
                    } else {
                        act = 0u;  // no chunk left: it stays on p until the lists are rebuilt
                        f.st[FS_REDUCE_AT] = 0u;
                    }
                }
                __syncwarp();
            }
            u32 stay = __ballot_sync(0xffffffffu, j < n && act != 1u);
            // Every lane has read its entry: the ones that stay move down to `kept` on.
            if (j < n && act != 1u) {
                u32 w = kept + __popc(stay & f.below);
                ch[2u * w] = k;
                ch[2u * w + 1u] = blocker;
            }
            kept += __popc(stay);
            __syncwarp();
        }
        if (f.lane == 0u) {
            ch[FARM_FILL] = kept;
            if (kept == 0u) {
                if (prev == 0u) f.l_head[p] = next;
                else f.l_chunk[(u64)(prev - 1u) * FARM_CW + FARM_NEXT] = next;
                ch[FARM_NEXT] = f.st[FS_FREE];
                f.st[FS_FREE] = ci;
                f.st[FS_CHUNKS]--;
            }
        }
        if (kept != 0u) prev = ci;
        __syncwarp();
        ci = next;
    }
}

// Processes trail[q..e) (at most FARM_W literals, lane k's the (q + k)th): every lane takes part.
// A step that waits on memory costs most, so the literals' lists are read at once: first each
// lane reads its literal's bounds; then the binary and the longer nogoods of all of them are one
// list over the lanes (a lane finds the literal of its entry among the bounds by a binary search
// over shuffles); then, a literal at a time, its weight constraints, the bodies it falsifies and
// its learned nogoods' watches, where it has any. Every literal is processed whole even after a
// conflict, so that the counts agree with trail[0..e).
__device__ void farm_process_d(const FarmArgs& a, const FarmSearch& f, u32 q, u32 e) {
    bool loops = (a.flags & FARM_LOOPS) != 0u;
    u32 m = e - q, p = 0u, b0 = 0u, nb = 0u, o0 = 0u, n = 0u, w0 = 0u, w1 = 0u, u0 = 0u, u1 = 0u, head = 0u;
    if (f.lane < m) {
        p = f.trail[q + f.lane];
        b0 = a.bin_start[p];
        nb = a.bin_start[p + 1] - b0;
        o0 = a.occ_start[p];
        n = nb + (a.occ_start[p + 1] - o0);
        w0 = a.w_occ_start[p];
        w1 = a.w_occ_start[p + 1];
        if (loops) {
            u0 = a.u_fals_start[p];
            u1 = a.u_fals_start[p + 1];
        }
        head = f.l_head[p];
    }
    // Where each literal's entries begin in the joint list.
    u32 incl = n;
    for (u32 d = 1u; d < FARM_W; d <<= 1) {
        u32 x = __shfl_up_sync(0xffffffffu, incl, d);
        if (f.lane >= d) incl += x;
    }
    u32 total = __shfl_sync(0xffffffffu, incl, FARM_W - 1), from = incl - n;
    for (u32 base = 0u; base < total; base += FARM_W) {
        u32 i = base + f.lane, k = 0u;
        // The last literal whose entries begin at or before i (one with none shares its start
        // with the next, so the last is the one that holds i).
        for (u32 step = FARM_W / 2u; step > 0u; step >>= 1) {
            u32 c = k + step, s = __shfl_sync(0xffffffffu, from, c < FARM_W ? c : FARM_W - 1u);
            if (c < m && s <= i) k = c;
        }
        u32 kb = __shfl_sync(0xffffffffu, b0, k), knb = __shfl_sync(0xffffffffu, nb, k);
        u32 ko = __shfl_sync(0xffffffffu, o0, k), r = i - __shfl_sync(0xffffffffu, from, k);
        if (i >= total) continue;
        if (r < knb) {
            u32 g = a.bin[2 * (kb + r)], x = farm_lit_d(f, a.bin[2 * (kb + r) + 1]);
            if (x == 1u) farm_conflict_d(f, g + 1u);
            else if (x == 0u) farm_assign_d(f, a.bin[2 * (kb + r) + 1] ^ 1u, g + 1u);
        } else {
            u32 g = a.occ[ko + r - knb];
            u32 b = a.ng_start[g], len = a.ng_start[g + 1] - b;
            u32 c = atomicAdd(&f.cnt[g], 1u) + 1u;
            if (c == len) farm_conflict_d(f, g + 1u);
            else if (c + 1u == len) farm_unit_d(f, a.ng_lits + b, len, g + 1u);
        }
    }
    // Which literals have more to do.
    u32 more = __ballot_sync(0xffffffffu, f.lane < m && (w0 != w1 || u0 != u1 || head != 0u));
    __syncwarp();
    while (more != 0u) {
        u32 k = (u32)__ffs(more) - 1u;
        more &= more - 1u;
        u32 kp = __shfl_sync(0xffffffffu, p, k), kw0 = __shfl_sync(0xffffffffu, w0, k);
        u32 kw1 = __shfl_sync(0xffffffffu, w1, k), ku0 = __shfl_sync(0xffffffffu, u0, k);
        u32 ku1 = __shfl_sync(0xffffffffu, u1, k), kh = __shfl_sync(0xffffffffu, head, k);
        for (u32 i = kw0 + f.lane; i < kw1; i += FARM_W) farm_weight_entry_d(a, f, a.w_occ[2 * i], a.w_occ[2 * i + 1]);
        // A body kp falsifies is no atom's source any more (an atom has one source: no two
        // lanes withdraw the same).
        for (u32 i = ku0 + f.lane; i < ku1; i += FARM_W) farm_u_lost_d(a, f, a.u_fals[i]);
        __syncwarp();
        if (kh != 0u) farm_watches_d(a, f, kp, kh);
    }
}

// Takes back what processing literal p added to the counts (one lane; others undo other literals
// at once, so every update is atomic). Watches need nothing undone.
__device__ void farm_unprocess_d(const FarmArgs& a, const FarmSearch& f, u32 p) {
    for (u32 i = a.occ_start[p]; i < a.occ_start[p + 1]; i++) atomicSub(&f.cnt[a.occ[i]], 1u);
    for (u32 i = a.w_occ_start[p]; i < a.w_occ_start[p + 1]; i++) {
        u32 c = a.w_occ[2 * i], code = a.w_occ[2 * i + 1], kind = code & 3u;
        if (kind < 2u) atomicAdd((u64*)&f.wsum[2 * (u64)c + kind], (u64)(-a.w_weight[code >> 2]));
        else f.whead[c] = 0u;
    }
}

// Processes the trail up to a fixpoint or a conflict (in st[FS_CONFLICT]): true on a conflict.
__device__ bool farm_propagate_d(const FarmArgs& a, const FarmSearch& f) {
    for (;;) {
        __syncwarp();
        u32 q = f.st[FS_QHEAD], conflict = f.st[FS_CONFLICT], end = f.st[FS_TSIZE];
        // Every lane has read before any lane processes: processing writes the conflict and
        // the trail's size, and a lane that read them after another's write would leave the
        // warp divided.
        __syncwarp();
        if (conflict != 0u) return true;
        if (q == end) return false;
        u32 e = end - q > FARM_W ? q + FARM_W : end;
        farm_process_d(a, f, q, e);
        if (f.lane == 0u) {
            f.st[FS_QHEAD] = e;
            farm_add64_d(f.st, FS_PROPS, e - q);
        }
    }
}

// Undoes the trail down to the end of level `target`, a literal a lane.
__device__ void farm_backjump_d(const FarmArgs& a, const FarmSearch& f, u32 target, bool save) {
    __syncwarp();
    u32 end = f.st[FS_TSIZE], q = f.st[FS_QHEAD], start = f.lim[target + 1u];
    for (u32 i = start + f.lane; i < end; i += FARM_W) {
        u32 l = f.trail[i];
        if (i < q) farm_unprocess_d(a, f, l);
        f.val[l >> 1] = 0u;
        // A cyclic atom without a source, no longer false, needs one again.
        if ((a.flags & FARM_LOOPS) && a.u_cyc[l >> 1] != 0u && f.usrc[l >> 1] == 0u) farm_u_push_d(f, l >> 1);
        atomicMax(&f.bmax[l >> 6], farm_key_d(f.act[l >> 1]));
        if (save) f.phase[l >> 1] = (l & 1u) + 1u;
    }
    __syncwarp();
    if (f.lane == 0u) {
        f.st[FS_TSIZE] = start;
        f.st[FS_QHEAD] = start;
        f.st[FS_LEVEL] = target;
        f.st[FS_CONFLICT] = 0u;
    }
    __syncwarp();
}
