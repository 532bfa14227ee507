// common.cuh: the data layout the CUDA engine's kernels and the host (src/engine/cuda) share.
//
// Literals are `var << 1 | negative` (as on the host); variable 0 is the constant true.
// val[v]: 0 unassigned, +(level+1) true, -(level+1) false. A literal l is true when
// lit_val_d(val, l) > 0.
//
// Propagation runs in rounds over a snapshot: kernels read the values as they were when the round
// began and write proposals (one claim per literal); the merge then applies them in one go,
// appending to the trail with reasons and (forward learning) dependency bitmaps. A proposal that
// contradicts another or the snapshot records the proposing nogood as the conflict: once the
// other value is applied, every literal of that nogood is true. Where the values and claims live
// is a view: GlobalView (below: `val`, a claim per variable in `prop`) or, for block 0 of
// propagate_fix_k, fixpoint.cu's SharedView (bitmaps in shared memory).
//
// Reasons are 32-bit: kind in bits 29..31, index below. Learned nogoods live in four groups by
// length (2, 3, 4..7, 8 and more); a learned index is group << 26 | position.

typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;
typedef long long i64;

#define R_DECISION 0u
#define R_UNIT 1u
#define R_INPUT 2u
#define R_LEARNED 3u
#define R_WEIGHT 4u
#define REASON(kind, index) (((kind) << 29) | (index))
#define REASON_KIND(r) ((r) >> 29)
#define REASON_INDEX(r) ((r) & 0x1fffffffu)
#define NO_CONFLICT 0xffffffffu
#define VAR_ENTRY 0xfffffffeu  // a decision entry on a variable (e_body): e_head is its literal
#define LEARNED_GROUPS 4
#define WIDE_NOGOOD 32u  // input nogoods this long are checked by a warp in propagate_fix_k
#define GROUP_SHIFT 26
#define GROUP_MASK ((1u << GROUP_SHIFT) - 1)

// The learned-nogood group of a length: 2, 3, 4..7, 8 and more (layout.rs, `group_of`).
__device__ __forceinline__ u32 group_of_d(u32 len) { return len <= 2u ? 0u : len == 3u ? 1u : len <= 7u ? 2u : 3u; }

// Conflict details for weight constraints (control.conflict_aux).
#define WC_TOO_MANY 1u
#define WC_TOO_FEW 2u

// Decisions propagate_fix_k may make before it returns to the host (layout.rs, DECIDE_MAX), and
// conflicts it may analyse itself (LEARN_MAX); its record of both, in order, has room for an
// analysis queued before it besides (EVENTS_MAX). An event is a decision's trail position (its
// level's start), or EVENT_LEARN | the backjump level of an analysis.
#define DECIDE_MAX 8u
#define LEARN_MAX 8u
#define EVENTS_MAX (DECIDE_MAX + LEARN_MAX + 1u)
#define EVENT_LEARN 0x80000000u

// Mirrored by `Control` in src/engine/cuda/layout.rs (#[repr(C)]): keep the order.
struct Control {
    u32 trail_len;     // literals on the trail
    u32 qhead;         // the current round's frontier is trail[qhead..qend)
    u32 qend;
    u32 level;         // current decision level
    u32 conflict;      // reason-encoded source of a conflict, or NO_CONFLICT
    u32 conflict_aux;  // for weight constraints: WC_TOO_MANY / WC_TOO_FEW
    u32 nprop;         // proposals made this round (entries of prop_list); 0 between launches:
                       // every kernel that proposes merges its proposals before it ends
    u32 ndirty;        // weight constraints to check this round
    u32 decided;       // the decision literal, or NO_CONFLICT when no rule is applicable
    u32 learned_len;   // length of the nogood in the learning buffer
    u32 bj_level;      // where the learned nogood asserts
    u32 unsat;         // the conflict depends on no decision
    u64 best;          // decision argmax key: score bits << 32 | (~entry)
    u32 uip;           // the literal the learned nogood asserts false
    u32 conflict_level;// the level of the analysed conflict
    u32 rounds;        // propagation rounds run (statistics)
    u32 sweeps;        // sweeps of the learned nogoods in propagate_fix_k (statistics)
    u64 ns_input;      // propagate_fix_k: nanoseconds in block 0's input rounds (statistics)
    u64 ns_sweep;      //   and in the grid's sweeps, barriers included (statistics)
    u64 ranked;        // propagate_fix_k at a fixpoint: the best decision's key (as best), 0: none
    u64 ns_learn;      // nanoseconds in the learning kernels (statistics)
    u32 lbd;           // the learned nogood's LBD: how many decision levels its literals have
    u32 events;        // propagate_fix_k's decisions and analyses (the queued one first), in order,
    u32 event[EVENTS_MAX];   //   for the host's mirror of the levels (EVENT_LEARN above)
    u32 an_len[LEARN_MAX + 1u];  // the analyses' nogood lengths and LBDs, in the order of their events,
    u32 an_lbd[LEARN_MAX + 1u];  //   and the trail's length when each began (0 for the queued one)
    u32 an_trail[LEARN_MAX + 1u];
};                     // (the size stays a multiple of 8 bytes, which publish_d copies by)

// The device's nanosecond clock (for the statistics above).
__device__ __forceinline__ u64 now_ns_d() {
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Copies the control block to its host mirror (src/engine/cuda/mirror.rs), one thread, as the
// last act of a kernel the host waits on: the host then reads it without a copy. Volatile loads
// read the block as other threads and blocks left it (not a stale L1 line).
// Eight words at a time: all of the block's words in flight at once would take two registers
// each, in every kernel that publishes (the host reads the mirror only after the kernel ends).
__device__ __forceinline__ void publish_d(const Control* ctl, Control* host) {
    const volatile u64* src = reinterpret_cast<const volatile u64*>(ctl);
    volatile u64* dst = reinterpret_cast<volatile u64*>(host);
    const u32 n = sizeof(Control) / 8;
    for (u32 i0 = 0; i0 < n; i0 += 8u) {
        u64 w[8];
#pragma unroll
        for (u32 j = 0; j < 8u; j++) w[j] = i0 + j < n ? src[i0 + j] : 0ull;
#pragma unroll
        for (u32 j = 0; j < 8u; j++)
            if (i0 + j < n) dst[i0 + j] = w[j];
    }
    __threadfence_system();
}

// A view of one CSR list: items[start[i] .. start[i+1]).
struct Csr {
    const u32* start;
    const u32* items;
};

__device__ __forceinline__ u32 lit_var_d(u32 l) { return l >> 1; }
__device__ __forceinline__ u32 lit_not_d(u32 l) { return l ^ 1u; }

// > 0 true, < 0 false, 0 unassigned.
__device__ __forceinline__ int lit_val_d(const int* val, u32 l) {
    int v = val[l >> 1];
    return (l & 1u) ? -v : v;
}

__device__ __forceinline__ u32 level_of_d(const int* val, u32 var) {
    int x = val[var];
    return (u32)((x > 0 ? x : -x) - 1);
}

// The value to store for literal l made true at level lv.
__device__ __forceinline__ int encode_d(u32 l, u32 lv) {
    int x = (int)lv + 1;
    return (l & 1u) ? -x : x;
}

// Puts `lit` on the trail at `pos` with `value` (encode_d of it and its level) and reason `why`:
// every assignment goes through here (a round's merge, an assertion, a decision).
__device__ __forceinline__ void place_on_trail_d(int* val, u32* trail, u32* trail_pos, u32* reason, u32 pos, u32 lit,
                                                 int value, u32 why) {
    u32 v = lit_var_d(lit);
    val[v] = value;
    trail[pos] = lit;
    trail_pos[v] = pos;
    reason[v] = why;
}

// How a step's work is split: `units` workers (blocks, or warps) take the frontier literals and
// the `lanes` threads of a worker a literal's occurrences; one-item-per-thread loops use all
// units * lanes threads (index unit * lanes + lane).
struct Par {
    u32 unit, units, lane, lanes;
};

// The whole grid: a block per frontier literal.
__device__ __forceinline__ Par grid_par_d() {
    Par p = {blockIdx.x, gridDim.x, threadIdx.x, blockDim.x};
    return p;
}

// One block on its own: a warp per frontier literal.
__device__ __forceinline__ Par warp_par_d() {
    Par p = {threadIdx.x >> 5, blockDim.x >> 5, threadIdx.x & 31u, 32u};
    return p;
}

// Warp-level OR and max reductions by shuffles.
__device__ __forceinline__ u64 warp_or_d(u64 x) {
    for (int off = 16; off > 0; off >>= 1) x |= __shfl_down_sync(0xffffffffu, x, off);
    return x;
}

__device__ __forceinline__ u64 warp_max_d(u64 x) {
    for (int off = 16; off > 0; off >>= 1) {
        u64 y = __shfl_down_sync(0xffffffffu, x, off);
        x = y > x ? y : x;
    }
    return x;
}

// Warp-level OR, the result in every lane: the warp's reduction instruction (REDUX, sm_80 and
// later) on each half, where the shuffles' five steps of two words each would hold more registers.
__device__ __forceinline__ u64 warp_or_all_d(u64 x) {
#if __CUDA_ARCH__ >= 800
    u32 lo = __reduce_or_sync(0xffffffffu, (u32)x), hi = __reduce_or_sync(0xffffffffu, (u32)(x >> 32));
    return (u64)hi << 32 | lo;
#else
    for (int off = 16; off > 0; off >>= 1) x |= __shfl_xor_sync(0xffffffffu, x, off);
    return x;
#endif
}

// Warp-level sum, the result in every lane.
__device__ __forceinline__ i64 warp_sum_all_d(i64 x) {
    for (int off = 16; off > 0; off >>= 1) x += __shfl_xor_sync(0xffffffffu, x, off);
    return x;
}

// Where a round reads values and puts its proposals. GlobalView: the global arrays (the
// host-driven kernels, the grid's sweeps, and block 0's rounds where its shared memory is too
// small); fixpoint.cu's SharedView keeps both in block 0's shared memory. The round steps of
// propagate.cu are templates over the view, so both propagate alike.
struct GlobalView {
    const int* val;
    int* prop;
    u32* prop_list;
    u32* prop_reason;
    Control* ctl;

    // > 0 true, < 0 false, 0 unassigned (in the snapshot the round began with).
    __device__ __forceinline__ int value_d(u32 l) const { return lit_val_d(val, l); }

    // Records the round's conflict: the nogood (or weight constraint) `reason` is violated once
    // the round's proposals are applied.
    __device__ __forceinline__ void conflict_d(u32 reason, u32 aux) const {
        if (atomicCAS(&ctl->conflict, NO_CONFLICT, reason) == NO_CONFLICT) ctl->conflict_aux = aux;
    }

    // Proposes literal l (to be made true) with a reason. A proposal against the snapshot or
    // against another proposal records the proposing nogood as the round's conflict: once the
    // other value is applied, every literal of that nogood is true. One atomicCAS per variable.
    // True when this call put the proposal on the list (it won the claim).
    __device__ __forceinline__ bool propose_d(u32 l, u32 reason, u32 aux) const {
        u32 v = lit_var_d(l);
        int want = encode_d(l, ctl->level);
        int cur = val[v];
        if (cur != 0) {
            if ((cur > 0) != !(l & 1u)) conflict_d(reason, aux);
            return false;
        }
        int old = atomicCAS(&prop[v], 0, want);
        if (old == 0) {
            u32 slot = atomicAdd(&ctl->nprop, 1u);
            prop_list[slot] = l;
            prop_reason[slot] = reason;
            return true;
        }
        if ((old > 0) != (want > 0)) conflict_d(reason, aux);
        return false;
    }

    // The round's i-th proposal and its reason, read after the merge (forward learning's rows:
    // deps_d), and whether the round is at level 0.
    __device__ __forceinline__ bool merged_d(u32 i, u32& l, u32& r) const {
        l = prop_list[i];
        r = prop_reason[i];
        return ctl->level == 0u;
    }

    // The round's proposals so far, and whether it found a conflict (read after a barrier).
    __device__ __forceinline__ u32 count_d() const { return ctl->nprop; }
    __device__ __forceinline__ bool conflicted_d() const { return ctl->conflict != NO_CONFLICT; }
    // Clears the proposals for the next round (the leader, after the merge's barrier).
    __device__ __forceinline__ void reset_d() const { ctl->nprop = 0; }

    // Applies the round's `n` proposals: values (`out`, the array this view reads, which the
    // read-only kernels hold as const), trail from position `base`, trail positions, reasons.
    __device__ __forceinline__ void merge_d(u32 n, int* out, u32* trail, u32* trail_pos, u32* reason, u32 base,
                                            Par p) const {
        for (u32 i = p.unit * p.lanes + p.lane; i < n; i += p.units * p.lanes) {
            u32 l = prop_list[i], v = lit_var_d(l);
            place_on_trail_d(out, trail, trail_pos, reason, base + i, l, prop[v], prop_reason[i]);
            prop[v] = 0;
        }
    }
};

// The weight constraints a round must check (its step B): marked in step A by the frontier's
// literals, or by the host's cost bound (mark_dirty_k), unmarked as they are checked; the round's
// end resets the count. Global marks are a word per constraint (`flags`), a list and its count in
// the control block (ndirty). Block 0's input rounds keep their own in shared memory where the
// plan has room (FixArgs.sweights): a bit per constraint, a list of every constraint, a count in
// shared memory. The global marks (the host's) are then checked by the grid's sweep, which every
// propagation runs before it ends. Invariant between rounds: the count is 0, except for global
// marks the host made, and a constraint is marked exactly when it is on the list.
struct Marks {
    u32* flags;
    u32* list;
    u32* n;
    bool bits;  // flags is a bitmap (shared memory)

    __device__ __forceinline__ void mark_d(u32 c) const {
        if (bits) {
            u32 b = 1u << (c & 31u);
            if (atomicOr(&flags[c >> 5], b) & b) return;
        } else if (atomicExch(&flags[c], 1u) != 0u) {
            return;
        }
        list[atomicAdd(n, 1u)] = c;
    }

    // After a barrier. Volatile: the count is written by atomics, and a stale value in one block
    // would skip a grid barrier the others wait at.
    __device__ __forceinline__ u32 count_d() const { return *(volatile u32*)n; }
    __device__ __forceinline__ u32 at_d(u32 k) const { return list[k]; }

    __device__ __forceinline__ void unmark_d(u32 c) const {
        if (bits) atomicAnd(&flags[c >> 5], ~(1u << (c & 31u)));
        else flags[c] = 0u;
    }

    // The leader, after the barrier that follows the count's last read in the round.
    __device__ __forceinline__ void reset_d() const { *n = 0u; }
};

__device__ __forceinline__ Marks global_marks_d(Control* ctl, u32* dirty, u32* dirty_list) {
    Marks m = {dirty, dirty_list, &ctl->ndirty, false};
    return m;
}

// Pointers to everything a reason can name. Mirrored by `DeviceDb` in src/engine/cuda/layout.rs.
struct Db {
    const u32* ng_start;  // input nogoods (CSR, sorted by length)
    const u32* ng_lits;
    // Learned nogoods by length group (CSR) with their LBDs. Only the learning kernels write
    // them (commit_learned_d appends); the host sees to it that one more nogood of any length fits.
    u32* lg_start[LEARNED_GROUPS];
    u32* lg_lits[LEARNED_GROUPS];
    u32* lg_lbd[LEARNED_GROUPS];
    u32* lg_fill;         // the nogoods in each group, then the literals used in each group
    const u32* w_head;    // weight constraints: head literal, bound, members (CSR), weights
    const i64* w_bound;
    const u32* w_start;
    const u32* w_lits;
    const i64* w_weights;
};

// Everything propagate_fix_k needs besides the Db. Mirrored by `FixArgs` in
// src/engine/cuda/layout.rs: keep the order.
struct FixArgs {
    int* val;
    int* prop;
    u32* prop_list;
    u32* prop_reason;
    Control* ctl;
    u32* trail;
    u32* trail_pos;
    u32* reason;
    const u32* occ_start[3];  // input nogoods of lengths 2, 3 and longer: literal -> entries
    const u32* occ[3];        //   [n, other], [n, x, y, 0], [n, start, len, 0] (layout.rs, `occurrences`)
    u32 class_size[3];
    const u32* w_occ_start;   // weight constraints: literal -> constraints
    const u32* w_occ;
    u32* dirty;
    u32* dirty_list;
    u32 nweights;
    u32 words;                // forward learning: bitmap words per variable (deps null otherwise)
    u64* deps;                //   a row per variable, bit k set when it depends on level k's decision;
                              //   invariant: a variable assigned at level 0 has an empty row (checked
                              //   in debug builds: CudaEngine::check_ground_rows)
    u32* barrier;             // ten words: grid_sync_d's arrival counter; a word unused; blocks done;
                              //   stop (a conflict left to the host, or an analysis failed); the last
                              //   analysis learned; the analyses made so far; two 64-bit ranking keys
    Control* ctl_host;        // the control block's host mirror (mirror.rs), written at the end
    u32 rank;                 // rank the decisions at a fixpoint (into ctl->ranked); the tables:
    u32 entries;
    const u32* e_body;
    const u32* e_head;
    const u32* b_lit;
    const u32* def_start;
    const u32* def_lits;
    const i64* def_weights;
    const i64* bound;
    float* score;             //   (and bumped by its analyses)
    u32 nvars;                // variables (val's length)
    u32 swords;               // block 0's shared bitmaps: words each (0: its rounds use global memory)
    u32 scap;                 //   and the shared part of its proposal list (fixpoint.cu, SharedView)
    u32 sweights;             //   and its weight constraints' marks there (nweights, or 0: global; Marks)
    u32 decide;               // decisions it may make at its fixpoints before returning (<= DECIDE_MAX)
    u32* level_start;         //   and where it records their levels' starts
    u32 learn;                // conflicts it may analyse itself (res or fwd) before returning one (<= LEARN_MAX)
    u32 pending;              // an analysis was queued before it: its outcome becomes the first event
    u32 seg_cap;              // its analysis' shared memory after block 0's SharedView (ResShared)
    u32 seen_words;
    u32 mark_words;
    u32 pool_cap;
    float inc;                // the first analysis' activity bump (each next one 1/0.95 times more)
    u32* learned;             // the learning buffer, and the scratch bitmaps of levels too long
    u32* res_bits;            //   for mark_words
    const uint4* wide;        // input nogoods of WIDE_NOGOOD literals and more: [n, start, len, index]
    u32 nwide;                //   and how many, where block 0's marks have room for them after the
                              //   weight constraints' (mark nweights + index), else 0: checked in place
};

// Assigns `lit` at level `lv` at the end of the trail with `reason_code` and makes it the
// frontier (one thread). Returns its variable's dependency row, cleared, under forward learning
// (deps not null), else null.
__device__ __forceinline__ u64* assign_at_end_d(Control* ctl, int* val, u32* trail, u32* trail_pos, u32* reason,
                                                u32 lit, u32 lv, u32 reason_code, u64* deps, u32 words) {
    u32 pos = ctl->trail_len++;
    u32 v = lit_var_d(lit);
    place_on_trail_d(val, trail, trail_pos, reason, pos, lit, encode_d(lit, lv), reason_code);
    ctl->qhead = pos;
    ctl->qend = pos + 1;
    if (!deps) return nullptr;
    u64* row = deps + (u64)v * words;
    for (u32 w = 0; w < words; w++) row[w] = 0;
    return row;
}

// Forward learning: the union of some variables' rows of the dependency table, four words (from
// word `w0`) at a time, held in registers and written once (store_d), so that the loads of
// successive rows overlap instead of each waiting on the store before it (the row written is one
// of the same table). A row of more than four words (over 256 levels) takes one union per four.
struct RowUnion {
    const u64* deps;
    u32 words, w0;
    u64 acc[4];

    __device__ __forceinline__ void add_d(u32 var) {
        const u64* src = deps + (u64)var * words + w0;
#pragma unroll
        for (u32 k = 0; k < 4u; k++) {
            if (w0 + k < words) acc[k] |= src[k];
        }
    }

    __device__ __forceinline__ void store_d(u64* row) const {
#pragma unroll
        for (u32 k = 0; k < 4u; k++) {
            if (w0 + k < words) row[w0 + k] = acc[k];
        }
    }
};

// The control state after a backjump to `level`, whose trail ends at `len` (one thread). ndirty
// stays: queued weight constraints are checked in the next round (always safe).
__device__ __forceinline__ void set_level_d(Control* ctl, u32 level, u32 len) {
    ctl->level = level;
    ctl->trail_len = len;
    ctl->qhead = len;
    ctl->qend = len;
    ctl->conflict = NO_CONFLICT;
    ctl->nprop = 0;
}

// Backjumps to level `bj`, below the current one, after conflict analysis: threads `tid` (of
// `stride`) unassign trail[level_start[bj + 1] .. end), where `end` is the trail length read
// before anything wrote the control block; thread 0 sets the control state of level bj. The
// caller must not read the values of the unassigned variables afterwards.
__device__ __forceinline__ void backjump_to_d(Control* ctl, int* val, const u32* trail, const u32* level_start,
                                              u32 bj, u32 end, u32 tid, u32 stride) {
    u32 from = level_start[bj + 1];
    for (u32 i = from + tid; i < end; i += stride) val[lit_var_d(trail[i])] = 0;
    if (tid == 0) set_level_d(ctl, bj, from);
}

// The literals of the input or learned nogood that reason `r` names; false for other reasons.
__device__ __forceinline__ bool nogood_lits_d(const Db& db, u32 r, const u32*& lits, u32& len) {
    u32 kind = REASON_KIND(r), idx = REASON_INDEX(r);
    if (kind == R_INPUT) {
        lits = db.ng_lits + db.ng_start[idx];
        len = db.ng_start[idx + 1] - db.ng_start[idx];
        return true;
    }
    if (kind == R_LEARNED) {
        u32 g = idx >> GROUP_SHIFT, n = idx & GROUP_MASK;
        lits = db.lg_lits[g] + db.lg_start[g][n];
        len = db.lg_start[g][n + 1] - db.lg_start[g][n];
        return true;
    }
    return false;
}

// Calls f(q) for every literal q (true) of the reason `r` of literal `p` at trail position
// `pos`, with the work split over `stride` threads. For a conflict, p is NO_CONFLICT and pos
// unbounded: the violated constraint's true literals. Weight reasons take the members assigned
// before `pos` that justify the implication (all of them, not a minimal subset).
template <typename F>
__device__ void reason_lits_d(const Db& db, const int* val, const u32* trail_pos, u32 r, u32 aux, u32 p, u32 pos,
                              u32 tid, u32 stride, F f) {
    u32 kind = REASON_KIND(r), idx = REASON_INDEX(r);
    u32 pvar = p == NO_CONFLICT ? 0xffffffffu : lit_var_d(p);
    const u32* lits;
    u32 len;
    if (nogood_lits_d(db, r, lits, len)) {
        // Four loads in flight per thread before the calls: long reasons are latency-bound.
        for (u32 k0 = tid; k0 < len; k0 += 4u * stride) {
            u32 q[4];
#pragma unroll
            for (u32 j = 0; j < 4u; j++) q[j] = k0 + j * stride < len ? lits[k0 + j * stride] : NO_CONFLICT;
#pragma unroll
            for (u32 j = 0; j < 4u; j++)
                if (q[j] != NO_CONFLICT && lit_var_d(q[j]) != pvar) f(q[j]);
        }
    } else if (kind == R_WEIGHT) {
        u32 w = db.w_head[idx];
        // Which members count: true ones (want_true) or false ones (as their complements).
        bool want_true;
        u32 extra = NO_CONFLICT;
        if (p == NO_CONFLICT) {
            want_true = aux == WC_TOO_MANY;
            extra = want_true ? lit_not_d(w) : w;
        } else if (pvar == lit_var_d(w)) {
            want_true = p == w;
        } else {
            // Under W a member was forced true, under not W one was forced false.
            bool member_true = lit_val_d(val, w) > 0;
            want_true = !member_true;
            extra = member_true ? w : lit_not_d(w);
        }
        if (tid == 0 && extra != NO_CONFLICT && lit_var_d(extra) != 0) f(extra);
        for (u32 i = db.w_start[idx] + tid; i < db.w_start[idx + 1]; i += stride) {
            u32 m = db.w_lits[i];
            u32 q = want_true ? m : lit_not_d(m);
            if (lit_var_d(m) != pvar && lit_val_d(val, q) > 0 && trail_pos[lit_var_d(q)] < pos) f(q);
        }
    }
}
