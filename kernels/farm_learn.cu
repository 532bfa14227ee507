// farm_learn.cu: the search farm's learning (kernels/farm.cu has its data and propagation):
// the reasons of the propagation, 1-UIP analysis, the learned nogoods' store and chunked watch
// lists, nogoods added at level 0, the exchange ring and deletion.

#ifndef FARM_HOST_EMU
#include "common.cuh"
#endif

// Nogood k's literals (input below ngoods, learned above), and in `*len` how many.
__device__ __forceinline__ const u32* farm_nogood_d(const FarmArgs& a, const FarmSearch& f, u32 k, u32* len) {
    if (k < a.ngoods) {
        *len = a.ng_start[k + 1] - a.ng_start[k];
        return a.ng_lits + a.ng_start[k];
    }
    *len = f.l_len[k - a.ngoods];
    return f.l_lits + f.l_start[k - a.ngoods];
}

// Calls `fn` on each literal of reason r (all true) but `v`'s (FARM_NONE: a conflict, all of
// them). A weight constraint's reason is found afresh: the terms on W's side that precede `v`.
template <class F>
__device__ void farm_reason_d(const FarmArgs& a, const FarmSearch& f, u32 r, u32 v, F fn) {
    if ((r & FARM_WEIGHT) == 0u) {
        u32 len;
        const u32* lits = farm_nogood_d(a, f, r - 1u, &len);
        for (u32 i = 0; i < len; i++)
            if ((lits[i] >> 1) != v) fn(lits[i]);
        return;
    }
    u32 c = r & ~FARM_WEIGHT, head = a.w_head[c];
    u32 before = v == FARM_NONE ? FARM_NONE : f.tpos[v];
    // Which side: W's value where v is W or a conflict, else the implied term's.
    bool too_many;  // the reason is true terms (W false, or W implied true)
    u32 side = 0u;  // W's literal in the reason (0: none)
    if (v == FARM_NONE) {
        too_many = farm_lit_d(f, head) == 2u;
        side = too_many ? head ^ 1u : head;
    } else if (v == (head >> 1)) {
        too_many = farm_lit_d(f, head) == 1u;
    } else {
        u32 wval = farm_lit_d(f, head);
        too_many = wval == 2u;
        side = too_many ? head ^ 1u : head;
    }
    if (side != 0u) fn(side);
    for (u32 j = a.w_start[c]; j < a.w_start[c + 1]; j++) {
        u32 l = a.w_lits[j], x = farm_lit_d(f, l);
        if ((l >> 1) == v || (before != FARM_NONE && f.tpos[l >> 1] >= before)) continue;
        if (too_many && x == 1u) fn(l);
        if (!too_many && x == 2u) fn(l ^ 1u);
    }
}

// Scales every activity down (lane 0), with the blocks' bounds afresh, once one has passed 1e20.
__device__ void farm_rescale_d(const FarmSearch& f) {
    for (u32 u = 0; u < f.nv; u++) f.act[u] *= 1e-20f;
    for (u32 b = 0; b <= f.nv / 32u; b++) f.bmax[b] = farm_block_key_d(f, b);
    f.st[FS_VAR_INC] = __float_as_uint(__uint_as_float(f.st[FS_VAR_INC]) * 1e-20f);
}

// Marks the literals of reason r (of v; FARM_NONE: a conflict) above level 0 that are not yet
// marked (seen), bumps their variables' activities, counts in `path` those of level `cur` and
// appends the others to learnt[n..). The whole warp: a nogood's literals a lane each, those it
// appends in the nogood's order; a weight constraint's on lane 0. Every lane gets path and n.
// The variables are assigned (they are true), so the blocks' bounds need no update.
__device__ void farm_expand_d(const FarmArgs& a, const FarmSearch& f, u32 r, u32 v, u32 cur, u32& path, u32& n) {
    float inc = __uint_as_float(f.st[FS_VAR_INC]);
    bool over = false;
    if ((r & FARM_WEIGHT) == 0u) {
        u32 len;
        const u32* lits = farm_nogood_d(a, f, r - 1u, &len);
        for (u32 base = 0; base < len; base += FARM_W) {
            u32 i = base + f.lane, q = 0u, lv = 0u;
            bool mark = false;
            if (i < len) {
                q = lits[i];
                u32 u = q >> 1;
                // The mark is claimed: were a variable in the reason twice, one lane takes it.
                if (u != v && (lv = f.level[u]) != 0u && f.seen[u] == 0u) mark = atomicExch(&f.seen[u], 1u) == 0u;
                if (mark) over |= (f.act[u] += inc) > 1e20f;
            }
            u32 at = __ballot_sync(0xffffffffu, mark && lv >= cur), low = __ballot_sync(0xffffffffu, mark && lv < cur);
            if (mark && lv < cur) f.learnt[n + __popc(low & f.below)] = q;
            path += __popc(at);
            n += __popc(low);
        }
    } else {
        if (f.lane == 0u) {
            farm_reason_d(a, f, r, v, [&](u32 q) {
                u32 u = q >> 1;
                if (f.seen[u] || f.level[u] == 0u) return;
                f.seen[u] = 1u;
                over |= (f.act[u] += inc) > 1e20f;
                if (f.level[u] >= cur) path++;
                else f.learnt[n++] = q;
            });
        }
        path = __shfl_sync(0xffffffffu, path, 0);
        n = __shfl_sync(0xffffffffu, n, 0);
    }
    // Every lane has written its marks and activities before any lane reads them again.
    __syncwarp();
    if (__ballot_sync(0xffffffffu, over) && f.lane == 0u) farm_rescale_d(f);
    __syncwarp();
}

#ifdef FARM_CHECK
// The invariants, checked by the host emulation (tests/farm_emu, FARM_CHECK): the counts agree
// with the processed trail, the blocks' bounds hold, the learned nogoods are in their watches'
// lists, the atoms without a source are queued, and a conflict's literals are all true.
__device__ void farm_check_d(const FarmArgs& a, const FarmSearch& f, u32 conflict) {
    u32 q = f.st[FS_QHEAD];
    for (u32 g = 0; g < a.ngoods; g++) {
        if (a.ng_start[g + 1] - a.ng_start[g] == 2u) continue;  // an implication, not counted
        u32 c = 0;
        for (u32 i = a.ng_start[g]; i < a.ng_start[g + 1]; i++) {
            u32 l = a.ng_lits[i];
            if (farm_lit_d(f, l) == 1u && f.tpos[l >> 1] < q) c++;
        }
        if (c != f.cnt[g]) farm_fail_d("input count", g, c, f.cnt[g]);
    }
    // Each block's bound is at least the key of each of its unassigned variables' activities.
    for (u32 v = 0; v < f.nv; v++) {
        if (f.val[v] == 0u && farm_key_d(f.act[v]) > f.bmax[v >> 5]) farm_fail_d("block bound", v, f.bmax[v >> 5], 0u);
    }
    // Each learned nogood is in the watch lists of its literals 0 and 1, once each.
    for (u32 k = 0; k < f.st[FS_NLEARNED]; k++) {
        const u32* lits = f.l_lits + f.l_start[k];
        for (u32 w = 0; w < 2u; w++) {
            u32 seen = 0u;
            for (u32 ci = f.l_head[lits[w]]; ci != 0u; ci = f.l_chunk[(u64)(ci - 1u) * FARM_CW + FARM_NEXT]) {
                const u32* ch = f.l_chunk + (u64)(ci - 1u) * FARM_CW;
                for (u32 j = 0; j < ch[FARM_FILL]; j++) seen += ch[2u * j] == k;
            }
            if (seen != 1u) farm_fail_d("learned watch", k, lits[w], seen);
        }
    }
    // Every cyclic atom that is not false has a source or is queued for one (farm_unfounded.cu).
    for (u32 v = 0; (a.flags & FARM_LOOPS) && v < f.nv; v++) {
        if (a.u_cyc[v] && f.val[v] != 2u && f.usrc[v] == 0u && !(f.uflag[v] & FARM_U_TODO)) farm_fail_d("an atom without a source, not queued", v, f.val[v], 0u);
    }
    if (conflict != 0u) {
        farm_reason_d(a, f, conflict, FARM_NONE, [&](u32 l) {
            if (farm_lit_d(f, l) != 1u) farm_fail_d("conflict literal not true", conflict, l, farm_lit_d(f, l));
        });
    }
    for (u32 i = 0; i < f.st[FS_TSIZE]; i++) {
        u32 l = f.trail[i], v = l >> 1, r = f.reason[v];
        if (farm_lit_d(f, l) != 1u || f.tpos[v] != i) farm_fail_d("trail", i, l, f.tpos[v]);
        if (r != 0u && f.level[v] > 0u) {
            farm_reason_d(a, f, r, v, [&](u32 x) {
                if (farm_lit_d(f, x) != 1u || f.tpos[x >> 1] >= i) farm_fail_d("reason", l, x, r);
            });
        }
    }
}
#endif

// 1-UIP analysis of the conflict in st[FS_CONFLICT] (the whole warp): the learned nogood into
// learnt[0..n) (learnt[0] the UIP, learnt[1] one of the backjump level), with local
// minimisation; returns n and sets `*bj` (the backjump level) and `*lbd`, the same on every lane;
// 0 if the conflict breaks the invariants (the search then fails). The lanes share each step:
// a reason's literals, FARM_W places of the trail in the walk back to the next marked literal,
// the learned literals in the minimisation and the levels.
__device__ u32 farm_analyze_d(const FarmArgs& a, const FarmSearch& f, u32* bj, u32* lbd) {
    u32 cur = f.st[FS_LEVEL], r = f.st[FS_CONFLICT], n = 1u, path = 0u, v = FARM_NONE;
#ifdef FARM_CHECK
    if (f.lane == 0u) farm_check_d(a, f, r);
    __syncwarp();
#endif
    u32 idx = f.st[FS_TSIZE], p = 0u;
    for (;;) {
        farm_expand_d(a, f, r, v, cur, path, n);
        if (path == 0u) {
            // No literal of the conflict's level: a broken invariant.
#ifdef FARM_CHECK
            farm_reason_d(a, f, r, v, [&](u32 q) { farm_fail_d("no literal at the level", r, q, f.level[q >> 1]); });
            farm_fail_d("no literal at the level (empty reason)", r, v, cur);
#endif
            return 0u;
        }
        // Back along the trail to the latest marked literal, FARM_W places at once (the first
        // place, where none is marked: a broken invariant the path count then shows).
        for (;;) {
            bool hit = idx > f.lane && f.seen[f.trail[idx - 1u - f.lane] >> 1] != 0u;
            u32 b = __ballot_sync(0xffffffffu, hit);
            if (b != 0u) {
                idx -= (u32)__ffs(b);
                break;
            }
            if (idx <= FARM_W) {
                idx = 0u;
                break;
            }
            idx -= FARM_W;
        }
        p = f.trail[idx];
        v = p >> 1;
        __syncwarp();
        if (f.lane == 0u) f.seen[v] = 0u;
        __syncwarp();
        if (--path == 0u) break;
        r = f.reason[v];
    }
    // Local minimisation: a literal whose reason's literals are all in the nogood (or at level
    // 0) is implied by the others. Marked first (bit 31), while every mark is still set; a lane
    // a literal.
    for (u32 i = 1u + f.lane; i < n; i += FARM_W) {
        u32 q = f.learnt[i], rq = f.reason[q >> 1];
        bool redundant = rq != 0u;
        if (redundant) {
            farm_reason_d(a, f, rq, q >> 1, [&](u32 x) {
                if (!f.seen[x >> 1] && f.level[x >> 1] != 0u) redundant = false;
            });
        }
        if (redundant) f.learnt[i] = q | FARM_WEIGHT;
    }
    __syncwarp();
    // The marks cleared and the kept literals moved down, in order (a lane writes below where
    // every lane has read).
    u32 m = 1u;
    for (u32 base = 1u; base < n; base += FARM_W) {
        u32 i = base + f.lane, q = i < n ? f.learnt[i] : FARM_WEIGHT;
        if (i < n) f.seen[(q & ~FARM_WEIGHT) >> 1] = 0u;
        u32 keep = __ballot_sync(0xffffffffu, !(q & FARM_WEIGHT));
        if (!(q & FARM_WEIGHT)) f.learnt[m + __popc(keep & f.below)] = q;
        m += __popc(keep);
        __syncwarp();
    }
    // The levels: the highest (its first literal becomes learnt[1]) and how many (the LBD).
    u32 tag = f.st[FS_CONFLICTS] + 1u, b = 0u, top = 1u, levels = 0u;
    if (f.lane == 0u) f.stamp[cur] = tag;
    __syncwarp();
    for (u32 i = 1u + f.lane; i < m; i += FARM_W) {
        u32 lv = f.level[f.learnt[i] >> 1];
        if (lv > b) {
            b = lv;
            top = i;
        }
        if (atomicExch(&f.stamp[lv], tag) != tag) levels++;
    }
    levels = farm_warp_sum_d(levels) + 1u;
    farm_warp_argmax_d(b, top);
    if (f.lane == 0u) {
        // The second watch: a literal of the backjump level, the last to stay true.
        f.learnt[0] = p;
        u32 t = f.learnt[1];
        f.learnt[1] = f.learnt[top];
        f.learnt[top] = t;
    }
    __syncwarp();
    *bj = b;
    *lbd = levels;
    return m;
}

// Whether a learned nogood of `len` literals has room: in the arena, the nogood table and the
// chunk pool, for its two watches (lane 0).
__device__ bool farm_room_d(const FarmArgs& a, const FarmSearch& f, u32 len) {
    return f.st[FS_NLEARNED] < a.max_learned && f.st[FS_ARENA] + len <= a.arena && f.st[FS_CHUNKS] + 2u <= a.chunks;
}

// Stores learnt nogood lits[0..len) (lane 0; len >= 2), watched on lits[0] and lits[1], which the
// caller chose by the watch invariant: false if the arena, the nogood table or the chunk pool is
// full.
__device__ bool farm_store_d(const FarmArgs& a, const FarmSearch& f, const u32* lits, u32 len, u32 lbd, u32* id) {
    u32 k = f.st[FS_NLEARNED], at = f.st[FS_ARENA];
    if (!farm_room_d(a, f, len)) return false;
    for (u32 i = 0; i < len; i++) f.l_lits[at + i] = lits[i];
    farm_link_d(f, lits[0], k, lits[1], a.chunks);
    farm_link_d(f, lits[1], k, lits[0], a.chunks);
    f.l_start[k] = at;
    f.l_len[k] = len;
    f.l_lbd[k] = lbd < 1u ? 1u : lbd;
    f.st[FS_NLEARNED] = k + 1u;
    f.st[FS_ARENA] = at + len;
    *id = a.ngoods + k + 1u;
    return true;
}

// Adds nogood lits[0..len) at level 0 with everything propagated so far (lane 0): satisfied ones
// are dropped, unit ones assign, violated ones prove that there is no model (returns false).
__device__ bool farm_add_at_root_d(const FarmArgs& a, const FarmSearch& f, u32* lits, u32 len, u32 lbd) {
    u32 open = FARM_NONE;
    for (u32 i = 0; i < len; i++) {
        if (farm_lit_d(f, lits[i]) == 2u) return true;
    }
    for (u32 i = 0; i < len; i++) {
        if (farm_lit_d(f, lits[i]) != 0u) continue;
        if (open == FARM_NONE) {
            open = i;
            continue;
        }
        // Two open literals (at `open` and i): the watches, first.
        u32 t = lits[0];
        lits[0] = lits[open];
        lits[open] = t;
        t = lits[1];
        lits[1] = lits[i];
        lits[i] = t;
        u32 id;
        if (!farm_store_d(a, f, lits, len, lbd, &id)) f.st[FS_DROPPED]++;
        return true;
    }
    if (open == FARM_NONE) return false;
    farm_assign_d(f, lits[open] ^ 1u, 0u);
    return true;
}

// Imports the other searches' exchanged nogoods (lane 0, at level 0), the latest FARM_IMPORTS at
// most (a thousand searches export more than a search can keep): false if one is violated.
#define FARM_IMPORTS 256u
__device__ bool farm_import_d(const FarmArgs& a, const FarmSearch& f) {
    volatile u32* ctl = a.ctl;
    volatile u32* seq = a.x_seq;
    u32 head = ctl[FC_XHEAD], cur = f.st[FS_XCURSOR];
    u32 most = a.xcap < FARM_IMPORTS ? a.xcap : FARM_IMPORTS;
    if (head - cur > most) cur = head - most;
    u32 lits[FARM_XLEN];
    for (; cur != head; cur++) {
        u32 i = cur % a.xcap;
        u32 s1 = seq[i];
        if (s1 != cur + 1u) continue;
        __threadfence();
        u32 meta = ((volatile u32*)a.x_meta)[i], len = meta & 0xffu;
        if ((meta >> 8) == f.s || len == 0u || len > FARM_XLEN) continue;
        for (u32 j = 0; j < len; j++) lits[j] = ((volatile u32*)a.x_lits)[i * FARM_XLEN + j];
        __threadfence();
        if (seq[i] != s1) continue;
        // A well-formed nogood only: literals of the program, no variable twice.
        bool ok = true;
        for (u32 j = 0; j < len && ok; j++) {
            ok = (lits[j] >> 1) < f.nv;
            for (u32 k = 0; k < j && ok; k++) ok = (lits[j] >> 1) != (lits[k] >> 1);
        }
        if (!ok) continue;
        f.st[FS_IMPORTED]++;
        if (!farm_add_at_root_d(a, f, lits, len, 2u)) return false;
    }
    f.st[FS_XCURSOR] = cur;
    return true;
}

__device__ void farm_export_d(const FarmArgs& a, const FarmSearch& f, const u32* lits, u32 len) {
    u32 n = atomicAdd(&a.ctl[FC_XHEAD], 1u), i = n % a.xcap;
    // The writer owns the entry while its seq is 0: a writer that finds it owned (another one a
    // lap of the ring ahead or behind) drops its nogood rather than mix their literals.
    u32 old = ((volatile u32*)a.x_seq)[i];
    if (old == 0u || atomicCAS(&a.x_seq[i], old, 0u) != old) return;
    __threadfence();
    for (u32 j = 0; j < len; j++) ((volatile u32*)a.x_lits)[i * FARM_XLEN + j] = lits[j];
    ((volatile u32*)a.x_meta)[i] = f.s << 8 | len;
    __threadfence();
    atomicExch(&a.x_seq[i], n + 1u);
    f.st[FS_EXPORTED]++;
}

// Deletes the worse half of the learned nogoods (LBD above 2, older half) and those satisfied at
// level 0, compacting the arena (lane 0, at level 0, or in enumeration at the backtrack level).
// A nogood that is the reason of a literal above level 0 stays, and the reason follows it.
#define FARM_LOCKED 0x80000000u
__device__ void farm_reduce_d(const FarmArgs& a, const FarmSearch& f) {
    u32 n = f.st[FS_NLEARNED], kept = 0u, at = 0u;
    for (u32 i = f.lim[1]; i < f.st[FS_TSIZE] && f.st[FS_LEVEL] > 0u; i++) {
        u32 r = f.reason[f.trail[i] >> 1];
        if (r > a.ngoods && (r & FARM_WEIGHT) == 0u) f.l_lbd[r - a.ngoods - 1u] |= FARM_LOCKED;
    }
    for (u32 l = 0; l < f.nl; l++) f.l_head[l] = 0u;
    f.st[FS_CHUNKS] = 0u;
    f.st[FS_BUMP] = 0u;
    f.st[FS_FREE] = 0u;
    for (u32 k = 0; k < n; k++) {
        u32 start = f.l_start[k], len = f.l_len[k], lbd = f.l_lbd[k] & ~FARM_LOCKED;
        bool locked = (f.l_lbd[k] & FARM_LOCKED) != 0u;
        bool keep = locked || (lbd != 0u && (lbd <= 2u || 2u * k >= n));
        for (u32 i = 0; keep && i < len; i++) {
            u32 x = farm_lit_d(f, f.l_lits[start + i]);
            if (x == 2u && f.level[f.l_lits[start + i] >> 1] == 0u) keep = locked;
        }
        // Each watch takes at most one new chunk: a nogood the pool has no room for goes (a
        // locked one fits: its lists fitted before, with every other nogood's).
        if (!keep || (!locked && f.st[FS_CHUNKS] + 2u > a.chunks)) continue;
        for (u32 i = 0; i < len; i++) {
            u32 l = f.l_lits[start + i];
            f.l_lits[at + i] = l;
            // Reasons of earlier nogoods have moved down already: none names k but its own.
            if (locked && f.reason[l >> 1] == a.ngoods + k + 1u) f.reason[l >> 1] = a.ngoods + kept + 1u;
        }
        // The watches stay where they were: the invariant does not depend on the lists.
        farm_link_d(f, f.l_lits[at], kept, f.l_lits[at + 1u], a.chunks);
        farm_link_d(f, f.l_lits[at + 1u], kept, f.l_lits[at], a.chunks);
        f.l_start[kept] = at;
        f.l_len[kept] = len;
        f.l_lbd[kept] = lbd;
        at += len;
        kept++;
    }
    farm_add64_d(f.st, FS_DELETED, n - kept);
    f.st[FS_REDUCES]++;
    f.st[FS_NLEARNED] = kept;
    f.st[FS_ARENA] = at;
}
