// farm.cu: the search farm. Many whole searches on one GPU, a warp each, in one persistent
// kernel: each decides, propagates, analyses its conflicts (1-UIP), learns, backjumps, restarts
// and exchanges short learned nogoods with the others, all on the device (issue #26).
//
// The program's nogoods and weight constraints live once in global memory and are read by every
// search; each search owns a slice of the state arrays (`FarmArgs`, below): its assignment,
// trail, counters and learned nogoods. The host launches farm_search_k for a time slice at a
// time (each search returns at its next step after `slice_ns`) and looks at the control words in
// between: a search that found a total assignment (a model of the completion, and in a program
// that is not tight free of unfounded sets: kernels/farm_unfounded.cu) or proved that there is
// none ends the run.
//
// The program's binary nogoods are implications: processing a literal makes the other literal of
// each it occurs in false (or finds it true: a conflict). A search processes the literals of its
// trail up to 32 at once (kernels/farm_propagate.cu): a step waits on memory, and one literal's
// lists seldom fill a warp. The longer ones propagate by counts:
// cnt[g] is the number of nogood g's literals that are true and processed (their place on the trail is below the search's queue head). Processing a
// literal adds one to the count of every nogood it occurs in: a nogood whose count reaches its
// length is violated; one at its length less one is unit unless its last literal is already false
// (it is then satisfied) or true (it is violated when that literal is processed). A weight
// constraint `W <-> sum >= bound` keeps the processed true and false weights (wsum) and, once W is
// processed, its value (whead). Undoing a processed literal subtracts what processing added, so
// the counts always describe the processed prefix of the trail.
//
// Learned nogoods are watched, as in the CPU engine (src/engine/cpu/db.rs): they live in the
// search's arena (l_lits), and the literals at positions 0 and 1 of each are its watches. Each
// literal's watch list is a list of chunks of FARM_CHUNK entries (l_head, the pool l_chunk), a
// nogood and a blocker an entry, the entries of a chunk visited by the warp's lanes at once when
// the literal is processed: a nogood whose blocker (a literal of it, as the CPU engine's) or other
// watch is false is satisfied; otherwise the watch moves to a literal that is not true, and where
// there is none the other watch is implied false (or, true, the nogood is violated). A visit
// reads values in one phase and assigns in the next, so that every literal it found true has its
// place on the trail before what it implies. Nothing is undone on a backjump. Chunks emptied by
// moves go to a free list (FS_FREE); deletion rebuilds the lists.
//
// Invariants (per search): the trail's literals are true, in order of assignment, levels
// non-decreasing; trail[0..qhead) are processed and cnt (of nogoods longer than two), wsum and
// whead agree with exactly them; a literal's reason, where it has one, names a nogood or weight
// constraint whose other literals (those the reason enumerates) precede it on the trail. Every
// literal below the queue head of a level below the current one was processed before its level's
// successor was decided, so a backjump leaves the whole remaining trail processed. Learned nogood
// k (of two literals or more) is in the watch lists of exactly its literals 0 and 1, once each. A
// processed true watch has a false blocker or other watch (false when the watch was processed,
// so at its level or below: no backjump undoes it and keeps the watch), or every other literal
// true; unless a move found the pool empty (the search then rebuilds its lists at the next
// restart): so a violated nogood is always found, and an implication is at most missed until then.
//
// Everything else in a step is shared among the warp's lanes (FARM_W; 1 or 32 in the host
// emulation, tests/farm_emu).
//
// Enumeration (FARM_ENUM, split mode) backtracks from each model as clasp's `--enum-mode=bt`
// does, with nothing recorded: a search that finds a model writes its atoms to the model ring
// (m_ring; the host reads it between slices), undoes its last decision's level and makes the
// decision's complement true, without a reason, at the level below: the backtrack level
// (FS_BT), below which no backjump or restart goes. A conflict at the backtrack level flips that
// level's decision the same way. When the level to flip is the cube's own (FS_ROOT: where its
// literals all hold), the cube's models are all found. Learned nogoods stay consequences of the
// program (a flipped literal enters them as a decision does). The cubes are disjoint, so no two
// searches find one model.
//
// This file has the data; farm_propagate.cu the propagation and backjumps; farm_learn.cu the
// analysis, the learned nogoods, the exchange and deletion; farm_unfounded.cu the unfounded-set
// check; farm_search.cu the search loop and the kernel. They are compiled in that order, as one
// translation unit (src/engine/cuda/kernels.rs, tests/farm_emu/harness.cpp).

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
#define FS_CUBE 9        // split mode: the search's cube, its number + 1 (0: none taken yet)
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
#define FS_DROPPED 23    // learned nogoods that found no room (arena, table or pool)
#define FS_CHUNKS 24     // chunks of the pool in watch lists
#define FS_FREE 25       // the first chunk of the pool's free list + 1 (0: none)
#define FS_MODELS 26     // enumeration: models found (64-bit)
#define FS_BT 28         // enumeration: the backtrack level
#define FS_ROOT 29       // enumeration: the level where the cube's literals all hold, + 1 (0: not yet)
#define FS_U_WORK 30     // entries written to u_work's ring in the unfounded-set check
#define FS_T_PROPAGATE 32  // clock cycles (64-bit) spent in each part of the step
#define FS_T_ANALYZE 34
#define FS_T_BACKJUMP 36
#define FS_T_RESTART 38
#define FS_T_DECIDE 40
#define FS_DELETED 42    // learned nogoods deleted (64-bit)
#define FS_REDUCES 44    // deletions (rounds of farm_reduce_d)
#define FS_BUMP 45       // chunks of the pool handed out since the last deletion (the free list
                         // holds those of them not in a list)
#define FS_U_TODO 46     // entries of u_todo
#define FS_U_EXP 47      // entries of u_todo whose dependents have lost their sources
#define FS_WORDS 48

#define FARM_RUNNING 0u
#define FARM_SAT 1u
#define FARM_UNSAT 2u
#define FARM_FAILED 3u
#define FARM_IDLE 4u     // split mode: every cube was taken

// Control words (ctl), mirrored in farm.rs.
#define FC_WINNER 0  // the first search to find a model (FARM_NONE: none yet)
#define FC_UNSAT 1   // 1 once a search proved that there is no model
#define FC_XHEAD 2   // exchange entries written so far
#define FC_CUBE_NEXT 3  // split mode: cubes handed out so far
#define FC_CUBES_DONE 4 // split mode: cubes proved to have no model
#define FC_MHEAD 5      // enumeration: model ring entries claimed so far (those past the ring's
                        //   room, FC_MREAD + mcap on, are not written)
#define FC_MREAD 6      // enumeration: entries the host has read or skipped (it writes this
                        //   between slices)
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
    const u32* occ_start;    // 2 * nvars + 1: literal -> input nogoods of three literals or more
    const u32* occ;
    const u32* bin_start;    // 2 * nvars + 1: literal -> [nogood, other literal] pairs of the
    const u32* bin;          //   binary input nogoods
    const u32* w_head;       // nweights: the constraint's literal W
    const i64* w_bound;
    const i64* w_total;
    const u32* w_start;      // nweights + 1
    const u32* w_lits;       // terms, heaviest first
    const i64* w_weight;
    const u32* w_occ_start;  // 2 * nvars + 1: literal -> [constraint, code] pairs; code is
    const u32* w_occ;        //   term << 2 | kind (0 term true, 1 term false, 2 W true, 3 W false)
    const u32* units;        // literals that are false at level 0
    const u32* cubes;        // ncubes * cube_len: the searches' parts of the space (split mode)
    const u32* sign;         // nvars: the sign clasp's --sign-def=asp decides (1 true: a rule's
                             //   body of two literals or more, 2 false: an atom)
    const float* act0;       // nvars: first activities, the occurrences in the nogoods scaled to
                             //   at most 1 (src/engine/scores.rs, as the CPU engine's)
    // The unfounded-set check (kernels/farm_unfounded.cu; all empty for a tight program). Bodies
    // are numbered among those that support a cyclic atom.
    const u32* u_cyc;        // nvars: 1 for a cyclic atom
    const u32* u_sup_start;  // nvars + 1: atom -> its support bodies
    const u32* u_sup;
    const u32* u_blit;       // body -> its literal
    const u32* u_pos_start;  // bodies + 1: body -> the cyclic atoms of its positive literals
    const u32* u_pos;
    const u32* u_head_start; // bodies + 1: body -> the cyclic atoms it supports
    const u32* u_head;
    const u32* u_fals_start; // 2 * nvars + 1: literal -> the bodies it falsifies (the
    const u32* u_fals;       //   complement of their literal)
    const u32* u_pocc_start; // nvars + 1: cyclic atom -> the bodies it is a positive literal of
    const u32* u_pocc;
    const u32* u_sum_start;  // bodies + 1: a weight or disjunctive body -> its [literal, weight]
    const u32* u_sum;        //   terms, a pair an entry (none for a conjunction)
    const u32* u_bound;      // bodies: a weight body's bound (0 where it has no terms)
    // The searches' state: search s owns slice s of each (its length says after the name).
    u32* val;       // nvars: 0 unassigned, 1 true, 2 false
    u32* level;     // nvars
    u32* reason;    // nvars
    u32* tpos;      // nvars: place on the trail
    u32* trail;     // nvars
    u32* lim;       // nvars + 1: where each level begins on the trail
    u32* seen;      // nvars: the analysis' marks
    float* act;     // nvars: activities
    u32* bmax;      // nvars / 32 + 1: per block of 32 variables, at least the highest key
                    //   (farm_key_d) of its unassigned variables' activities (0: none)
    u32* phase;     // nvars: the sign a decision takes (1 true, 2 false)
    u32* learnt;    // nvars + FARM_XLEN: the analysis' nogood
    u32* stamp;     // nvars + 1: per level, the last analysis that met it (LBD)
    u32* cnt;       // ngoods
    i64* wsum;      // 2 * nweights: true and false weight processed
    u32* whead;     // nweights: W's processed value (0 not yet)
    u32* u_src;     // nvars: a cyclic atom's source, a support body + 1 (0: none)
    u32* u_flag;    // nvars: FARM_U_TODO (in u_todo), FARM_U_WORK, FARM_U_CLOSED (of atoms),
                    //   FARM_U_WITNESS (of a body's variable)
    u32* u_todo;    // nvars: the cyclic atoms without a source, st[FS_U_TODO] of them
    u32* u_work;    // nvars: the check's work list (a ring while sources are found)
    u32* l_head;    // 2 * nvars: the first chunk of the literal's watch list + 1 (0: none)
    u32* l_chunk;   // chunks * FARM_CW: FARM_CHUNK [nogood, blocker] pairs, the next chunk + 1,
                    //   the fill
    u32* l_lits;    // arena
    u32* l_start;   // max_learned
    u32* l_len;     // max_learned
    u32* l_lbd;     // max_learned (0: deleted)
    u32* st;        // FS_WORDS
    // Shared by all searches.
    u32* x_seq;     // xcap
    u32* x_meta;    // xcap: owner << 8 | length
    u32* x_lits;    // xcap * FARM_XLEN
    u32* ctl;       // FC_WORDS
    u32* m_ring;    // mcap * mwords: enumeration's models, entry n % mcap holding model n
    u64 slice_ns;   // each search returns at its first step after this long
    u32 nvars, ngoods, nweights, nunits;
    u32 searches, arena, max_learned, xcap;
    u32 seed, restart_base, flags, chunks;
    u32 ncubes, cube_len;
    u32 mcap, mwords;  // model ring entries, and words an entry: a bit a variable of the atoms,
                       //   then the number of the search that found it
    u32 smem;          // the arrays a slice keeps in shared memory (bit FARM_SM_x), smem_words
    u32 smem_words;    //   words a search
};

#define FARM_CHUNK 32u
#ifndef FARM_WARPS
#define FARM_WARPS 4u  // searches a block (farm/mod.rs: WARPS_PER_BLOCK)
#endif
#define FARM_CW (2u * FARM_CHUNK + 2u)
#define FARM_NEXT (2u * FARM_CHUNK)     // a chunk's word: the next chunk of its list + 1 (0: none)
#define FARM_FILL (2u * FARM_CHUNK + 1u) // a chunk's word: its entries

// flags
#define FARM_SHARE 1u  // export and import learned nogoods
#define FARM_ENUM 2u   // enumerate: report every model in the ring and go on (split mode only)
#define FARM_LOOPS 4u  // the program is not tight: the unfounded-set check runs (u_* non-empty)

#ifndef FARM_HOST_EMU
__device__ __forceinline__ u64 farm_now_d() {
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
#endif

// One search's view of the arrays: its slices.
struct FarmSearch {
    // below: the mask of the lanes below this one (a warp's lanes write in lane order by it).
    u32 s, lane, below, nv, nl;
    u32 *val, *level, *reason, *tpos, *trail, *lim, *seen, *phase, *learnt, *stamp, *cnt, *whead;
    float* act;
    u32* bmax;
    i64* wsum;
    u32 *l_head, *l_chunk, *l_lits, *l_start, *l_len, *l_lbd, *st;
    u32 *usrc, *uflag, *utodo, *uwork;
};

__device__ __forceinline__ FarmSearch farm_search_d(const FarmArgs& a, u32 s, u32 lane, u32* st) {
    FarmSearch f;
    u64 n = a.nvars;
    f.s = s;
    f.lane = lane;
    f.below = (1u << lane) - 1u;
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
    f.bmax = a.bmax + s * (n / 32u + 1u);
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
    f.l_lbd = a.l_lbd + (u64)s * a.max_learned;
    f.st = st;
    f.usrc = a.u_src + s * n;
    f.uflag = a.u_flag + s * n;
    f.utodo = a.u_todo + s * n;
    f.uwork = a.u_work + s * n;
    return f;
}

// A search's arrays that a slice keeps in shared memory where they fit, the most read first
// (mirrored by `SHARED_ORDER` in src/engine/cuda/farm/tables.rs, which chooses them for the
// device): the slice copies each in at its start, points the search at the copy and copies it
// back at its end (farm_search_k), so that between slices the global arrays hold the state.
#define FARM_SM_VAL 0
#define FARM_SM_CNT 1
#define FARM_SM_SEEN 2
#define FARM_SM_ACT 3
#define FARM_SM_LEVEL 4
#define FARM_SM_REASON 5
#define FARM_SM_TPOS 6
#define FARM_SM_TRAIL 7
#define FARM_SM_PHASE 8
#define FARM_SM_ARRAYS 9

// Array i (FARM_SM_i) of search f, its words read as u32 (the activities' bits too).
__device__ __forceinline__ u32* farm_sm_get_d(const FarmSearch& f, u32 i) {
    switch (i) {
        case FARM_SM_VAL: return f.val;
        case FARM_SM_CNT: return f.cnt;
        case FARM_SM_SEEN: return f.seen;
        case FARM_SM_ACT: return (u32*)f.act;
        case FARM_SM_LEVEL: return f.level;
        case FARM_SM_REASON: return f.reason;
        case FARM_SM_TPOS: return f.tpos;
        case FARM_SM_TRAIL: return f.trail;
        default: return f.phase;
    }
}

// Points search f's array i at p.
__device__ __forceinline__ void farm_sm_set_d(FarmSearch& f, u32 i, u32* p) {
    switch (i) {
        case FARM_SM_VAL: f.val = p; break;
        case FARM_SM_CNT: f.cnt = p; break;
        case FARM_SM_SEEN: f.seen = p; break;
        case FARM_SM_ACT: f.act = (float*)p; break;
        case FARM_SM_LEVEL: f.level = p; break;
        case FARM_SM_REASON: f.reason = p; break;
        case FARM_SM_TPOS: f.tpos = p; break;
        case FARM_SM_TRAIL: f.trail = p; break;
        default: f.phase = p; break;
    }
}

// Copies the arrays of a.smem to `sm` (in) and points f at the copies, or copies them back to
// their global places (out, f still pointing at the copies); every lane takes part.
__device__ void farm_sm_move_d(const FarmArgs& a, FarmSearch& f, u32 s, u32* sm, bool in) {
    FarmSearch g = farm_search_d(a, s, f.lane, f.st);
    for (u32 i = 0; i < FARM_SM_ARRAYS; i++) {
        if (((a.smem >> i) & 1u) == 0u) continue;
        u32 n = i == FARM_SM_CNT ? a.ngoods : a.nvars;
        u32* global = farm_sm_get_d(g, i);
        for (u32 j = f.lane; j < n; j += FARM_W) {
            if (in) sm[j] = global[j];
            else global[j] = sm[j];
        }
        if (in) farm_sm_set_d(f, i, sm);
        sm += n;
    }
    __syncwarp();
}

// The key of an activity (>= 0) in bmax: ordered as the activities, and above 0.
__device__ __forceinline__ u32 farm_key_d(float x) { return __float_as_uint(x) + 1u; }

// The highest key of block b's variables, assigned or not: a bound afresh.
__device__ __forceinline__ u32 farm_block_key_d(const FarmSearch& f, u32 b) {
    u32 k = 0u;
    for (u32 v = b * 32u; v < b * 32u + 32u && v < f.nv; v++) k = max(k, farm_key_d(f.act[v]));
    return k;
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

// The highest key k over the warp's lanes and, among equal keys, the lowest index i; every lane
// gets both. A lane with nothing to offer gives k = 0 (and i = 0).
__device__ void farm_warp_argmax_d(u32& k, u32& i) {
    for (int off = FARM_W / 2; off > 0; off >>= 1) {
        u32 ok = __shfl_down_sync(0xffffffffu, k, off), oi = __shfl_down_sync(0xffffffffu, i, off);
        if (ok > k || (ok == k && oi < i)) {
            k = ok;
            i = oi;
        }
    }
    k = __shfl_sync(0xffffffffu, k, 0);
    i = __shfl_sync(0xffffffffu, i, 0);
}

// The sum of x over the warp's lanes; every lane gets it.
__device__ __forceinline__ u32 farm_warp_sum_d(u32 x) {
    for (int off = FARM_W / 2; off > 0; off >>= 1) x += __shfl_down_sync(0xffffffffu, x, off);
    return __shfl_sync(0xffffffffu, x, 0);
}

// u_flag's bits.
#define FARM_U_TODO 1u
#define FARM_U_WORK 2u
#define FARM_U_CLOSED 4u
#define FARM_U_WITNESS 8u

// Queues cyclic atom v for a new source, once (any lane).
__device__ __forceinline__ void farm_u_push_d(const FarmSearch& f, u32 v) {
    if ((atomicOr(&f.uflag[v], FARM_U_TODO) & FARM_U_TODO) == 0u) f.utodo[atomicAdd(&f.st[FS_U_TODO], 1u)] = v;
}

// Body b can no longer be a source (it is false, or an atom it relies on lost its source): the
// atoms it is the source of lose theirs and are queued (any lane; lanes that withdraw the same
// source at once queue its atom once).
__device__ __forceinline__ void farm_u_lost_d(const FarmArgs& a, const FarmSearch& f, u32 b) {
    for (u32 j = a.u_head_start[b]; j < a.u_head_start[b + 1]; j++) {
        u32 h = a.u_head[j];
        if (f.usrc[h] == b + 1u) {
            f.usrc[h] = 0u;
            farm_u_push_d(f, h);
        }
    }
}
