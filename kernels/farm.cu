// farm.cu: the search farm. Many whole searches on one GPU, a warp each, in one persistent
// kernel: each decides, propagates, analyses its conflicts (1-UIP), learns, backjumps, restarts
// and exchanges short learned nogoods with the others, all on the device (issue #26).
//
// The program's nogoods and weight constraints live once in global memory and are read by every
// search; each search owns a slice of the state arrays (`FarmArgs`, below): its assignment,
// trail, counters and learned nogoods. The host launches farm_search_k for a time slice at a
// time (each search returns at its next step after `slice_ns`) and looks at the control words in
// between: a search that found a total assignment (a model of the completion: the farm runs on
// tight programs only) or proved that there is none ends the run.
//
// Propagation counts (no watches): cnt[g] is the number of nogood g's literals that are true and
// processed (their place on the trail is below the search's queue head). Processing a literal
// adds one to the count of every nogood it occurs in: a nogood whose count reaches its length is
// violated; one at its length less one is unit unless its last literal is already false (it is
// then satisfied) or true (it is violated when that literal is processed). A weight constraint
// `W <-> sum >= bound` keeps the processed true and false weights (wsum) and, once W is processed,
// its value (whead). Undoing a processed literal subtracts what processing added, so the counts
// always describe the processed prefix of the trail.
//
// Invariants (per search): the trail's literals are true, in order of assignment, levels
// non-decreasing; trail[0..qhead) are processed and cnt/wsum/whead agree with exactly them; a
// literal's reason, where it has one, names a nogood or weight constraint whose other literals
// (those the reason enumerates) precede it on the trail. Every literal below the queue head of a
// level below the current one was processed before its level's successor was decided, so a
// backjump leaves the whole remaining trail processed.
//
// Learned nogoods live in the search's arena (l_lits); each literal's learned occurrences are a
// list of chunks of FARM_CHUNK nogood numbers (l_head, the pool l_chunk), the entries of a chunk
// processed by the warp's lanes at once.
// Everything else in a step is shared among the warp's lanes (FARM_W; 1 in the host emulation,
// tests/farm_emu).

#ifndef FARM_HOST_EMU
#include "common.cuh"
#endif

#ifndef FARM_W
#define FARM_W 32
#endif

// Reasons: 0 none (a decision, or level 0); nogood k (input below ngoods, learned above) is
// k + 1; weight constraint c is FARM_WEIGHT | c.
#define FARM_WEIGHT 0x80000000u
#define FARM_NONE 0xffffffffu

// Words of a search's scalars (st), mirrored by `farm::Word` in src/engine/cuda/farm.rs.
#define FS_LEVEL 0
#define FS_TSIZE 1
#define FS_QHEAD 2
#define FS_STATUS 3      // FARM_RUNNING, FARM_SAT, FARM_UNSAT, FARM_FAILED
#define FS_NLEARNED 4
#define FS_ARENA 5       // arena slots used
#define FS_CONFL_LEFT 6  // conflicts before the next restart
#define FS_LUBY 7
#define FS_XCURSOR 8     // the next exchange entry to import
#define FS_RNG 9
#define FS_VAR_INC 10    // float bits
#define FS_CONFLICT 11   // the conflict of the current step (a reason code; 0: none)
#define FS_INIT 12
#define FS_REDUCE_AT 13
#define FS_CONFLICTS 14  // 64-bit counts, low word first
#define FS_DECISIONS 16
#define FS_PROPS 18
#define FS_RESTARTS 20
#define FS_EXPORTED 21
#define FS_IMPORTED 22
#define FS_DROPPED 23    // learned nogoods that did not fit the arena
#define FS_CHUNKS 24     // chunks of the pool in use
#define FS_T_PROPAGATE 32  // clock cycles (64-bit) spent in each part of the step
#define FS_T_ANALYZE 34
#define FS_T_BACKJUMP 36
#define FS_T_RESTART 38
#define FS_T_DECIDE 40
#define FS_WORDS 48

#define FARM_RUNNING 0u
#define FARM_SAT 1u
#define FARM_UNSAT 2u
#define FARM_FAILED 3u

// Control words (ctl), mirrored in farm.rs.
#define FC_WINNER 0  // the first search to find a model (FARM_NONE: none yet)
#define FC_UNSAT 1   // 1 once a search proved that there is no model
#define FC_XHEAD 2   // exchange entries written so far
#define FC_WORDS 8

// The exchange: a ring of xcap entries of at most FARM_XLEN literals. Entry i of the ring holds
// exchange number n (n % xcap == i) once x_seq[i] == n + 1 (FARM_NONE: never written); its writer
// takes it by setting x_seq to 0 (only from a value other than 0: one writer at a time) and sets
// it last, and a reader that sees it change meanwhile drops what it read.
#define FARM_XLEN 8u

// Mirrored by `FarmArgs` in src/engine/cuda/layout.rs: keep the order (pointers, then scalars).
struct FarmArgs {
    // The problem, read by every search.
    const u32* ng_start;     // ngoods + 1
    const u32* ng_lits;
    const u32* occ_start;    // 2 * nvars + 1: literal -> input nogoods
    const u32* occ;
    const u32* w_head;       // nweights: the constraint's literal W
    const i64* w_bound;
    const i64* w_total;
    const u32* w_start;      // nweights + 1
    const u32* w_lits;       // terms, heaviest first
    const i64* w_weight;
    const u32* w_occ_start;  // 2 * nvars + 1: literal -> [constraint, code] pairs; code is
    const u32* w_occ;        //   term << 2 | kind (0 term true, 1 term false, 2 W true, 3 W false)
    const u32* units;        // literals that are false at level 0
    // The searches' state: search s owns slice s of each (its length says after the name).
    u32* val;       // nvars: 0 unassigned, 1 true, 2 false
    u32* level;     // nvars
    u32* reason;    // nvars
    u32* tpos;      // nvars: place on the trail
    u32* trail;     // nvars
    u32* lim;       // nvars + 1: where each level begins on the trail
    u32* seen;      // nvars: the analysis' marks
    float* act;     // nvars: activities
    u32* phase;     // nvars: the sign a decision takes (1 true, 2 false)
    u32* learnt;    // nvars + FARM_XLEN: the analysis' nogood
    u32* stamp;     // nvars + 1: per level, the last analysis that met it (LBD)
    u32* cnt;       // ngoods
    i64* wsum;      // 2 * nweights: true and false weight processed
    u32* whead;     // nweights: W's processed value (0 not yet)
    u32* l_head;    // 2 * nvars: the literal's first chunk + 1 (0: none)
    u32* l_chunk;   // chunks * FARM_CW: FARM_CHUNK nogoods, the next chunk + 1, the fill
    u32* l_lits;    // arena
    u32* l_start;   // max_learned
    u32* l_len;     // max_learned
    u32* l_cnt;     // max_learned
    u32* l_lbd;     // max_learned (0: deleted)
    u32* st;        // FS_WORDS
    // Shared by all searches.
    u32* x_seq;     // xcap
    u32* x_meta;    // xcap: owner << 8 | length
    u32* x_lits;    // xcap * FARM_XLEN
    u32* ctl;       // FC_WORDS
    u64 slice_ns;   // each search returns at its first step after this long
    u32 nvars, ngoods, nweights, nunits;
    u32 searches, arena, max_learned, xcap;
    u32 seed, restart_base, flags, chunks;
};

#define FARM_CHUNK 32u
#ifndef FARM_WARPS
#define FARM_WARPS 4u  // searches a block (farm/mod.rs: WARPS_PER_BLOCK)
#endif
#define FARM_CW (FARM_CHUNK + 2u)

// flags
#define FARM_SHARE 1u  // export and import learned nogoods

#ifndef FARM_HOST_EMU
__device__ __forceinline__ u64 farm_now_d() {
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
#endif

// One search's view of the arrays: its slices.
struct FarmSearch {
    u32 s, lane, nv, nl;
    u32 *val, *level, *reason, *tpos, *trail, *lim, *seen, *phase, *learnt, *stamp, *cnt, *whead;
    float* act;
    i64* wsum;
    u32 *l_head, *l_chunk, *l_lits, *l_start, *l_len, *l_cnt, *l_lbd, *st;
};

__device__ __forceinline__ FarmSearch farm_search_d(const FarmArgs& a, u32 s, u32 lane, u32* st) {
    FarmSearch f;
    u64 n = a.nvars;
    f.s = s;
    f.lane = lane;
    f.nv = a.nvars;
    f.nl = 2 * a.nvars;
    f.val = a.val + s * n;
    f.level = a.level + s * n;
    f.reason = a.reason + s * n;
    f.tpos = a.tpos + s * n;
    f.trail = a.trail + s * n;
    f.lim = a.lim + s * (n + 1);
    f.seen = a.seen + s * n;
    f.act = a.act + s * n;
    f.phase = a.phase + s * n;
    f.learnt = a.learnt + s * (n + FARM_XLEN);
    f.stamp = a.stamp + s * (n + 1);
    f.cnt = a.cnt + (u64)s * a.ngoods;
    f.wsum = a.wsum + (u64)s * 2 * a.nweights;
    f.whead = a.whead + (u64)s * a.nweights;
    f.l_head = a.l_head + s * 2 * n;
    f.l_chunk = a.l_chunk + (u64)s * a.chunks * FARM_CW;
    f.l_lits = a.l_lits + (u64)s * a.arena;
    f.l_start = a.l_start + (u64)s * a.max_learned;
    f.l_len = a.l_len + (u64)s * a.max_learned;
    f.l_cnt = a.l_cnt + (u64)s * a.max_learned;
    f.l_lbd = a.l_lbd + (u64)s * a.max_learned;
    f.st = st;
    return f;
}

// A literal's value under val: 1 true, 2 false, 0 unassigned.
__device__ __forceinline__ u32 farm_lit_d(const FarmSearch& f, u32 l) {
    u32 v = f.val[l >> 1];
    if (v == 0) return 0;
    return (v == (l & 1u) + 1u) ? 1u : 2u;
}

__device__ __forceinline__ void farm_add64_d(u32* st, u32 w, u64 x) {
    u64 v = ((u64)st[w + 1] << 32 | st[w]) + x;
    st[w] = (u32)v;
    st[w + 1] = (u32)(v >> 32);
}

// Makes l true at the current level with reason r, unless its variable has a value: true if it
// did. Any lane may call it; the trail slot comes from an atomic counter.
__device__ __forceinline__ bool farm_assign_d(const FarmSearch& f, u32 l, u32 r) {
    u32 v = l >> 1;
    if (atomicCAS(&f.val[v], 0u, (l & 1u) + 1u) != 0u) return false;
    u32 slot = atomicAdd(&f.st[FS_TSIZE], 1u);
    f.trail[slot] = l;
    f.tpos[v] = slot;
    f.level[v] = f.st[FS_LEVEL];
    f.reason[v] = r;
    return true;
}

__device__ __forceinline__ void farm_conflict_d(const FarmSearch& f, u32 r) {
    atomicCAS(&f.st[FS_CONFLICT], 0u, r);
}

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

// Processes literal p: every lane takes part.
__device__ void farm_process_d(const FarmArgs& a, const FarmSearch& f, u32 p) {
    for (u32 i = a.occ_start[p] + f.lane; i < a.occ_start[p + 1]; i += FARM_W) {
        u32 g = a.occ[i];
        u32 c = atomicAdd(&f.cnt[g], 1u) + 1u;
        u32 b = a.ng_start[g], len = a.ng_start[g + 1] - b;
        if (c == len) farm_conflict_d(f, g + 1u);
        else if (c + 1u == len) farm_unit_d(f, a.ng_lits + b, len, g + 1u);
    }
    for (u32 i = a.w_occ_start[p] + f.lane; i < a.w_occ_start[p + 1]; i += FARM_W) {
        farm_weight_entry_d(a, f, a.w_occ[2 * i], a.w_occ[2 * i + 1]);
    }
    for (u32 ci = f.l_head[p]; ci != 0u;) {
        const u32* ch = f.l_chunk + (u64)(ci - 1u) * FARM_CW;
        for (u32 j = f.lane; j < ch[FARM_CHUNK + 1u]; j += FARM_W) {
            u32 k = ch[j];  // a nogood occurs once in a literal's list: no two lanes share it
            u32 c = atomicAdd(&f.l_cnt[k], 1u) + 1u, len = f.l_len[k];
            if (c == len) farm_conflict_d(f, a.ngoods + k + 1u);
            else if (c + 1u == len) farm_unit_d(f, f.l_lits + f.l_start[k], len, a.ngoods + k + 1u);
        }
        ci = ch[FARM_CHUNK];
    }
    __syncwarp();
}

// Takes back what processing literal p added (one lane; others undo other literals at once, so
// every update is atomic).
__device__ void farm_unprocess_d(const FarmArgs& a, const FarmSearch& f, u32 p) {
    for (u32 i = a.occ_start[p]; i < a.occ_start[p + 1]; i++) atomicSub(&f.cnt[a.occ[i]], 1u);
    for (u32 i = a.w_occ_start[p]; i < a.w_occ_start[p + 1]; i++) {
        u32 c = a.w_occ[2 * i], code = a.w_occ[2 * i + 1], kind = code & 3u;
        if (kind < 2u) atomicAdd((u64*)&f.wsum[2 * (u64)c + kind], (u64)(-a.w_weight[code >> 2]));
        else f.whead[c] = 0u;
    }
    for (u32 ci = f.l_head[p]; ci != 0u;) {
        const u32* ch = f.l_chunk + (u64)(ci - 1u) * FARM_CW;
        for (u32 j = 0; j < ch[FARM_CHUNK + 1u]; j++) atomicSub(&f.l_cnt[ch[j]], 1u);
        ci = ch[FARM_CHUNK];
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
        farm_process_d(a, f, f.trail[q]);
        if (f.lane == 0u) {
            f.st[FS_QHEAD] = q + 1u;
            farm_add64_d(f.st, FS_PROPS, 1u);
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

// Calls `fn` on each literal of reason r (all true) but `v`'s (FARM_NONE: a conflict, all of
// them). A weight constraint's reason is found afresh: the terms on W's side that precede `v`.
template <class F>
__device__ void farm_reason_d(const FarmArgs& a, const FarmSearch& f, u32 r, u32 v, F fn) {
    if ((r & FARM_WEIGHT) == 0u) {
        u32 k = r - 1u;
        const u32* lits;
        u32 len;
        if (k < a.ngoods) {
            lits = a.ng_lits + a.ng_start[k];
            len = a.ng_start[k + 1] - a.ng_start[k];
        } else {
            lits = f.l_lits + f.l_start[k - a.ngoods];
            len = f.l_len[k - a.ngoods];
        }
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

__device__ void farm_bump_d(const FarmSearch& f, u32 v) {
    float inc = __uint_as_float(f.st[FS_VAR_INC]);
    if ((f.act[v] += inc) > 1e20f) {
        for (u32 u = 0; u < f.nv; u++) f.act[u] *= 1e-20f;
        f.st[FS_VAR_INC] = __float_as_uint(inc * 1e-20f);
    }
}

#ifdef FARM_CHECK
// The invariants, checked by the host emulation (tests/farm_emu, FARM_CHECK): the counts agree
// with the processed trail, and a conflict's literals are all true.
__device__ void farm_check_d(const FarmArgs& a, const FarmSearch& f, u32 conflict) {
    u32 q = f.st[FS_QHEAD];
    for (u32 g = 0; g < a.ngoods; g++) {
        u32 c = 0;
        for (u32 i = a.ng_start[g]; i < a.ng_start[g + 1]; i++) {
            u32 l = a.ng_lits[i];
            if (farm_lit_d(f, l) == 1u && f.tpos[l >> 1] < q) c++;
        }
        if (c != f.cnt[g]) farm_fail_d("input count", g, c, f.cnt[g]);
    }
    for (u32 k = 0; k < f.st[FS_NLEARNED]; k++) {
        u32 c = 0;
        for (u32 i = 0; i < f.l_len[k]; i++) {
            u32 l = f.l_lits[f.l_start[k] + i];
            if (farm_lit_d(f, l) == 1u && f.tpos[l >> 1] < q) c++;
        }
        if (c != f.l_cnt[k]) farm_fail_d("learned count", k, c, f.l_cnt[k]);
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

// 1-UIP analysis of the conflict in st[FS_CONFLICT] (lane 0): the learned nogood into learnt[0..n)
// (learnt[0] the UIP), with local minimisation; returns n and sets `*bj` (the backjump level)
// and `*lbd`; 0 if the conflict breaks the invariants (the search then fails).
__device__ u32 farm_analyze_d(const FarmArgs& a, const FarmSearch& f, u32* bj, u32* lbd) {
    u32 cur = f.st[FS_LEVEL], r = f.st[FS_CONFLICT], n = 1u, path = 0u, v = FARM_NONE;
#ifdef FARM_CHECK
    farm_check_d(a, f, r);
#endif
    u32 idx = f.st[FS_TSIZE];
    u32 p = 0u;
    for (;;) {
        farm_reason_d(a, f, r, v, [&](u32 q) {
            u32 u = q >> 1;
            if (f.seen[u] || f.level[u] == 0u) return;
            f.seen[u] = 1u;
            farm_bump_d(f, u);
            if (f.level[u] >= cur) path++;
            else f.learnt[n++] = q;
        });
        if (path == 0u) {
            // No literal of the conflict's level: a broken invariant.
#ifdef FARM_CHECK
            farm_reason_d(a, f, r, v, [&](u32 q) { farm_fail_d("no literal at the level", r, q, f.level[q >> 1]); });
            farm_fail_d("no literal at the level (empty reason)", r, v, cur);
#endif
            return 0u;
        }
        do {
            p = f.trail[--idx];
        } while (!f.seen[p >> 1] && idx > 0u);
        v = p >> 1;
        f.seen[v] = 0u;
        if (--path == 0u) break;
        r = f.reason[v];
    }
    f.learnt[0] = p;
    // Local minimisation: a literal whose reason's literals are all in the nogood (or at level
    // 0) is implied by the others. Marked first (bit 31), while every mark is still set.
    for (u32 i = 1; i < n; i++) {
        u32 q = f.learnt[i], rq = f.reason[q >> 1];
        bool redundant = rq != 0u;
        if (redundant) {
            farm_reason_d(a, f, rq, q >> 1, [&](u32 x) {
                if (!f.seen[x >> 1] && f.level[x >> 1] != 0u) redundant = false;
            });
        }
        if (redundant) f.learnt[i] = q | FARM_WEIGHT;
    }
    u32 m = 1u;
    for (u32 i = 1; i < n; i++) {
        u32 q = f.learnt[i];
        f.seen[(q & ~FARM_WEIGHT) >> 1] = 0u;
        if (!(q & FARM_WEIGHT)) f.learnt[m++] = q;
    }
    u32 tag = f.st[FS_CONFLICTS] + 1u, b = 0u, levels = 1u;
    f.stamp[cur] = tag;
    for (u32 i = 1; i < m; i++) {
        u32 lv = f.level[f.learnt[i] >> 1];
        if (lv > b) b = lv;
        if (f.stamp[lv] != tag) {
            f.stamp[lv] = tag;
            levels++;
        }
    }
    *bj = b;
    *lbd = levels;
    return m;
}

// Puts learned nogood k into literal l's list (lane 0; the caller made sure the pool of `cap`
// chunks has one to spare).
__device__ void farm_link_d(const FarmSearch& f, u32 l, u32 k, u32 cap) {
    u32 c = f.l_head[l];
    u32* ch = f.l_chunk + (u64)(c == 0u ? 0u : c - 1u) * FARM_CW;
    if (c == 0u || ch[FARM_CHUNK + 1u] == FARM_CHUNK) {
        u32 nc = f.st[FS_CHUNKS]++;
#ifdef FARM_CHECK
        if (nc >= cap) farm_fail_d("chunk pool overflow", nc, cap, l);
#endif
        ch = f.l_chunk + (u64)nc * FARM_CW;
        ch[FARM_CHUNK] = c;
        ch[FARM_CHUNK + 1u] = 0u;
        f.l_head[l] = nc + 1u;
    }
    ch[ch[FARM_CHUNK + 1u]++] = k;
}

// Stores learnt nogood lits[0..len) (lane 0) with `count` of its literals true and processed:
// false if the arena, the nogood table or the chunk pool is full.
__device__ bool farm_store_d(const FarmArgs& a, const FarmSearch& f, const u32* lits, u32 len, u32 count,
                             u32 lbd, u32* id) {
    u32 k = f.st[FS_NLEARNED], at = f.st[FS_ARENA];
    if (k >= a.max_learned || at + len > a.arena || f.st[FS_CHUNKS] + len > a.chunks) return false;
    for (u32 i = 0; i < len; i++) {
        f.l_lits[at + i] = lits[i];
        farm_link_d(f, lits[i], k, a.chunks);
    }
    f.l_start[k] = at;
    f.l_len[k] = len;
    f.l_cnt[k] = count;
    f.l_lbd[k] = lbd < 1u ? 1u : lbd;
    f.st[FS_NLEARNED] = k + 1u;
    f.st[FS_ARENA] = at + len;
    *id = a.ngoods + k + 1u;
    return true;
}

// Adds nogood lits[0..len) at level 0 with everything propagated so far (lane 0): satisfied ones
// are dropped, unit ones assign, violated ones prove that there is no model (returns false).
__device__ bool farm_add_at_root_d(const FarmArgs& a, const FarmSearch& f, const u32* lits, u32 len, u32 lbd) {
    u32 open = FARM_NONE, q = f.st[FS_QHEAD];
    for (u32 i = 0; i < len; i++) {
        u32 x = farm_lit_d(f, lits[i]);
        if (x == 2u) return true;
        if (x == 0u) {
            if (open != FARM_NONE) {
                u32 id;
                u32 count = 0u;
                for (u32 j = 0; j < len; j++)
                    if (farm_lit_d(f, lits[j]) == 1u && f.tpos[lits[j] >> 1] < q) count++;
                if (!farm_store_d(a, f, lits, len, count, lbd, &id)) farm_add64_d(f.st, FS_DROPPED, 1u);
                return true;
            }
            open = lits[i];
        }
    }
    if (open == FARM_NONE) return false;
    farm_assign_d(f, open ^ 1u, 0u);
    return true;
}

__device__ u32 farm_luby_d(u32 i) {
    // The i-th term (from 1) of 1 1 2 1 1 2 4 ...
    for (;;) {
        u32 k = 1u;
        while (((1u << k) - 1u) < i) k++;
        if (i == (1u << k) - 1u) return 1u << (k - 1u);
        i -= (1u << (k - 1u)) - 1u;
    }
}

__device__ __forceinline__ u32 farm_rand_d(u32* st) {
    u32 x = st[FS_RNG];
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    st[FS_RNG] = x;
    return x;
}

// Imports the other searches' exchanged nogoods (lane 0, at level 0): false if one is violated.
__device__ bool farm_import_d(const FarmArgs& a, const FarmSearch& f) {
    volatile u32* ctl = a.ctl;
    volatile u32* seq = a.x_seq;
    u32 head = ctl[FC_XHEAD], cur = f.st[FS_XCURSOR];
    if (head - cur > a.xcap) cur = head - a.xcap;
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
        farm_add64_d(f.st, FS_IMPORTED, 1u);
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
    farm_add64_d(f.st, FS_EXPORTED, 1u);
}

// Deletes the worse half of the learned nogoods (LBD above 2, older half) and those satisfied at
// level 0, compacting the arena (lane 0, at level 0).
__device__ void farm_reduce_d(const FarmArgs& a, const FarmSearch& f) {
    u32 n = f.st[FS_NLEARNED], q = f.st[FS_QHEAD], kept = 0u, at = 0u;
    for (u32 l = 0; l < f.nl; l++) f.l_head[l] = 0u;
    f.st[FS_CHUNKS] = 0u;
    for (u32 k = 0; k < n; k++) {
        u32 start = f.l_start[k], len = f.l_len[k], lbd = f.l_lbd[k];
        bool keep = lbd != 0u && (lbd <= 2u || 2u * k >= n);
        u32 count = 0u;
        for (u32 i = 0; keep && i < len; i++) {
            u32 x = farm_lit_d(f, f.l_lits[start + i]);
            if (x == 2u) keep = false;
            else if (x == 1u && f.tpos[f.l_lits[start + i] >> 1] < q) count++;
        }
        // Each literal takes at most one new chunk: a nogood the pool has no room for goes.
        if (!keep || f.st[FS_CHUNKS] + len > a.chunks) continue;
        for (u32 i = 0; i < len; i++) {
            u32 l = f.l_lits[start + i];
            f.l_lits[at + i] = l;
            farm_link_d(f, l, kept, a.chunks);
        }
        f.l_start[kept] = at;
        f.l_len[kept] = len;
        f.l_cnt[kept] = count;
        f.l_lbd[kept] = lbd;
        at += len;
        kept++;
    }
    f.st[FS_NLEARNED] = kept;
    f.st[FS_ARENA] = at;
}

// The unassigned variable of highest activity (0: none is left), over the warp.
__device__ u32 farm_pick_d(const FarmSearch& f) {
    float best = -1.0f;
    u32 bv = 0u;
    // Four variables a lane a step, their loads issued together.
    for (u32 base = 1u + f.lane; base < f.nv; base += 4u * FARM_W) {
        u32 x[4];
        float y[4];
#pragma unroll
        for (u32 j = 0; j < 4u; j++) {
            u32 v = base + j * FARM_W;
            x[j] = v < f.nv ? f.val[v] : 1u;
            y[j] = v < f.nv ? f.act[v] : 0.0f;
        }
#pragma unroll
        for (u32 j = 0; j < 4u; j++) {
            if (x[j] == 0u && y[j] > best) {
                best = y[j];
                bv = base + j * FARM_W;
            }
        }
    }
    for (int off = FARM_W / 2; off > 0; off >>= 1) {
        float ob = __shfl_down_sync(0xffffffffu, best, off);
        u32 ov = __shfl_down_sync(0xffffffffu, bv, off);
        if (ob > best || (ob == best && ov != 0u && (bv == 0u || ov < bv))) {
            best = ob;
            bv = ov;
        }
    }
    return __shfl_sync(0xffffffffu, bv, 0);
}

// A search's first step: activities (perturbed, but for search 0), phases, level 0's literals.
__device__ void farm_init_d(const FarmArgs& a, const FarmSearch& f) {
    u32 h0 = (a.seed * 0x9e3779b9u) ^ (f.s * 0x85ebca6bu) ^ 0x2545f491u;
    for (u32 v = f.lane; v < f.nv; v += FARM_W) {
        u32 h = h0 ^ (v * 0xcc9e2d51u);
        h ^= h >> 15;
        h *= 0x1b873593u;
        h ^= h >> 13;
        f.act[v] = f.s == 0u ? 0.0f : (float)(h & 0xffffu) * 1e-9f;
        // Every other search starts with random signs; the others decide false first, as clasp.
        f.phase[v] = (f.s & 1u) ? 1u + ((h >> 16) & 1u) : 2u;
    }
    __syncwarp();
    if (f.lane == 0u) {
        f.st[FS_RNG] = h0 | 1u;
        f.st[FS_VAR_INC] = __float_as_uint(1.0f);
        f.st[FS_LUBY] = 1u;
        f.st[FS_CONFL_LEFT] = a.restart_base;
        f.st[FS_REDUCE_AT] = 2000u;
        f.st[FS_XCURSOR] = 0u;
        f.lim[0] = 0u;
        f.lim[1] = 0u;
        farm_assign_d(f, 0u, 0u);  // T 0, the constant
        bool ok = true;
        for (u32 i = 0; i < a.nunits && ok; i++) {
            u32 u = a.units[i];
            if (farm_lit_d(f, u) == 1u) ok = false;
            else farm_assign_d(f, u ^ 1u, 0u);
        }
        f.st[FS_STATUS] = ok ? FARM_RUNNING : FARM_UNSAT;
        if (!ok) atomicExch(&a.ctl[FC_UNSAT], 1u);
        f.st[FS_INIT] = 1u;
    }
    __syncwarp();
}

__device__ void farm_finish_d(const FarmArgs& a, const FarmSearch& f, u32 status) {
    if (f.lane == 0u) {
        f.st[FS_STATUS] = status;
        if (status == FARM_SAT) atomicCAS(&a.ctl[FC_WINNER], FARM_NONE, f.s);
        if (status == FARM_UNSAT) atomicExch(&a.ctl[FC_UNSAT], 1u);
    }
    __syncwarp();
}

// Runs search f for a time slice.
__device__ void farm_run_d(const FarmArgs& a, const FarmSearch& f) {
    u32 lane = f.lane, s = f.s;
    if (f.st[FS_INIT] == 0u) farm_init_d(a, f);
    if (f.st[FS_STATUS] != FARM_RUNNING) return;
    u64 t0 = farm_now_d();
    volatile u32* ctl = a.ctl;
    bool save = (s & 2u) != 0u;  // progress saving in every other pair of searches
    long long tick = clock64();
    // Lane 0 charges the cycles since the last mark to part w of the step.
#define FARM_MARK(w)                                                 \
    if (lane == 0u) {                                                \
        long long now = clock64();                                   \
        farm_add64_d(f.st, (w), (u64)(now - tick));                  \
        tick = now;                                                  \
    }
    for (;;) {
        // Lane 0 decides for the warp (the lanes' clocks and reads of ctl may differ).
        u32 done = 0u;
        if (lane == 0u) done = ctl[FC_WINNER] != FARM_NONE || ctl[FC_UNSAT] != 0u || farm_now_d() - t0 > a.slice_ns;
        if (__shfl_sync(0xffffffffu, done, 0)) return;
        bool conflict = farm_propagate_d(a, f);
        FARM_MARK(FS_T_PROPAGATE);
        if (conflict) {
            if (__shfl_sync(0xffffffffu, f.st[FS_LEVEL], 0) == 0u) {
                farm_finish_d(a, f, FARM_UNSAT);
                return;
            }
            u32 bj = 0u, lbd = 0u, n = 0u;
            if (lane == 0u) n = farm_analyze_d(a, f, &bj, &lbd);
            n = __shfl_sync(0xffffffffu, n, 0);
            bj = __shfl_sync(0xffffffffu, bj, 0);
            if (n == 0u) {
                farm_finish_d(a, f, FARM_FAILED);
                return;
            }
            FARM_MARK(FS_T_ANALYZE);
            farm_backjump_d(a, f, bj, save);
            FARM_MARK(FS_T_BACKJUMP);
            if (lane == 0u) {
                u32 id = 0u;
                const u32* l = f.learnt;
                if (n == 1u) {
                    farm_assign_d(f, l[0] ^ 1u, 0u);
                } else if (farm_store_d(a, f, l, n, n - 1u, lbd, &id)) {
                    farm_assign_d(f, l[0] ^ 1u, id);
                } else {
                    // No room: restart now, and delete at the restart.
                    f.st[FS_CONFL_LEFT] = 1u;
                    f.st[FS_REDUCE_AT] = 0u;
                    farm_add64_d(f.st, FS_DROPPED, 1u);
                }
                if ((a.flags & FARM_SHARE) && (n <= 2u || (lbd <= 2u && n <= FARM_XLEN))) farm_export_d(a, f, l, n);
                farm_add64_d(f.st, FS_CONFLICTS, 1u);
                f.st[FS_VAR_INC] = __float_as_uint(__uint_as_float(f.st[FS_VAR_INC]) * (1.0f / 0.95f));
                if (f.st[FS_CONFL_LEFT] > 0u) f.st[FS_CONFL_LEFT]--;
            }
            FARM_MARK(FS_T_ANALYZE);
            continue;
        }
        // Lane 0 decides for the warp, as everywhere a lane may write what the others read.
        u32 restart = lane == 0u && f.st[FS_CONFL_LEFT] == 0u && f.st[FS_LEVEL] > 0u;
        if (__shfl_sync(0xffffffffu, restart, 0)) {
            farm_backjump_d(a, f, 0u, save);
            bool ok = true;
            if (lane == 0u) {
                u32 i = ++f.st[FS_LUBY];
                f.st[FS_CONFL_LEFT] = farm_luby_d(i) * a.restart_base;
                f.st[FS_RESTARTS]++;
                if ((a.flags & FARM_SHARE)) ok = farm_import_d(a, f);
                u32 at = f.st[FS_REDUCE_AT], most = a.max_learned / 4u * 3u;
                if (ok && (f.st[FS_NLEARNED] >= (at < most ? at : most) || 2u * f.st[FS_ARENA] > a.arena ||
                           2u * f.st[FS_CHUNKS] > a.chunks)) {
                    farm_reduce_d(a, f);
                    f.st[FS_REDUCE_AT] = (at > f.st[FS_NLEARNED] ? at : f.st[FS_NLEARNED]) + 300u;
                }
            }
            if (!__shfl_sync(0xffffffffu, (u32)ok, 0)) {
                farm_finish_d(a, f, FARM_UNSAT);
                return;
            }
            FARM_MARK(FS_T_RESTART);
            continue;
        }
        u32 v = farm_pick_d(f);
        if (v == 0u) {
            farm_finish_d(a, f, FARM_SAT);
            return;
        }
        if (lane == 0u) {
            u32 lv = ++f.st[FS_LEVEL];
            f.lim[lv] = f.st[FS_TSIZE];
            f.lim[lv + 1u] = f.st[FS_TSIZE];
            farm_assign_d(f, (v << 1) | (f.phase[v] == 2u ? 1u : 0u), 0u);
            farm_add64_d(f.st, FS_DECISIONS, 1u);
        }
        FARM_MARK(FS_T_DECIDE);
    }
#undef FARM_MARK
}

// One warp a search, FARM_WARPS a block: runs each for a time slice, its scalars in shared
// memory meanwhile.
extern "C" __global__ void farm_search_k(FarmArgs a) {
    __shared__ u32 scalars[FARM_WARPS * FS_WORDS];
    u32 lane = threadIdx.x % FARM_W, warp = threadIdx.x / FARM_W, s = blockIdx.x * FARM_WARPS + warp;
    if (s >= a.searches || warp >= FARM_WARPS) return;
    u32* st = a.st + (u64)s * FS_WORDS;
    u32* sh = scalars + warp * FS_WORDS;
    for (u32 i = lane; i < FS_WORDS; i += FARM_W) sh[i] = st[i];
    __syncwarp();
    farm_run_d(a, farm_search_d(a, s, lane, sh));
    __syncwarp();
    for (u32 i = lane; i < FS_WORDS; i += FARM_W) st[i] = sh[i];
}
