// propagate.cu: unit propagation in rounds (Algorithm 2 of the paper). A round checks the input
// nogoods that contain a literal made true in the previous round (separate kernels for lengths
// 2, 3 and longer, one block per frontier literal, one thread per occurrence) and the weight
// constraints the frontier touches; a round with an empty frontier (the input nogoods' fixpoint)
// sweeps the learned nogoods instead (one launch per length group, a thread or, for the long ones,
// a warp per nogood). Then merge_k applies the round's proposals. The steps are device
// functions (_d), templates over the view they read values from and propose into (common.cuh),
// launched one by one by the host (the _k wrappers below, GlobalView) or run in one cooperative
// launch (fixpoint.cu).
#include "common.cuh"

// Initial propagation of the unit nogoods, by one block: a thread per unit nogood {u} proposes
// that u is false, then the proposals are merged onto the trail after the constant (a conflict
// between two units is recorded as usual). The frontier then runs from the constant to the last
// unit, so that the first round sees all of them; no proposal is left for propagate_fix_k, whose
// block 0 keeps its own (SharedView).
extern "C" __global__ void init_units_k(int* val, int* prop, u32* prop_list, u32* prop_reason, Control* ctl,
                                        u32* trail, u32* trail_pos, u32* reason, const u32* units, u32 n) {
    GlobalView view = {val, prop, prop_list, prop_reason, ctl};
    for (u32 i = threadIdx.x; i < n; i += blockDim.x) view.propose_d(lit_not_d(units[i]), REASON(R_UNIT, i), 0);
    __syncthreads();
    u32 m = ctl->nprop, base = ctl->trail_len;
    Par p = {0u, 1u, threadIdx.x, blockDim.x};
    view.merge_d(m, val, trail, trail_pos, reason, base, p);
    __syncthreads();
    if (threadIdx.x == 0) {
        ctl->trail_len = base + m;
        ctl->qend = base + m;
        ctl->nprop = 0;
    }
}

// Calls f(l, k) for every occurrence entry k (of the occurrence lists `occ_start`) of every
// frontier literal l = trail[i], qhead <= i < qend: a unit of `p` per frontier literal, a lane
// per occurrence.
template <typename F>
__device__ __forceinline__ void for_occurrences_d(const u32* trail, u32 qhead, u32 qend, const u32* occ_start,
                                                  Par p, F f) {
    for (u32 i = qhead + p.unit; i < qend; i += p.units) {
        u32 l = trail[i];
        for (u32 k = occ_start[l] + p.lane; k < occ_start[l + 1]; k += p.lanes) f(l, k);
    }
}

// Forward learning in the propagation kernel's input rounds: the dependency row of a literal that
// a binary or ternary input nogood forces is made where the proposal is won (step A), as the
// union of the rows of the nogood's other literals (true in the round's snapshot, so their rows
// are final), and step D (deps_d) skips it. The proposal's literals are at hand there, where step
// D would load the nogood again. `deps` null: no rows here (resolution learning, and the
// host-driven rounds, whose deps_k makes every row).
struct ShortRows {
    u64* deps;
    u32 words;

    // The row of `lit`: the union of the rows of `a` and, unless NO_CONFLICT, `b` (for `a` alone,
    // its row twice), two words at a time (`words` is even; four at a time spilled registers in
    // the kernel's step A).
    __device__ __forceinline__ void write_d(u32 lit, u32 a, u32 b) const {
        if (!deps) return;
        const u64* ra = deps + (u64)lit_var_d(a) * words;
        union_d(ra, b == NO_CONFLICT ? ra : deps + (u64)lit_var_d(b) * words, deps + (u64)lit_var_d(lit) * words);
    }

    // The destination row is neither source (a literal's own variable is not among its
    // antecedents), so the next words' loads need not wait for the stores before them.
    __device__ __forceinline__ void union_d(const u64* __restrict__ ra, const u64* __restrict__ rb,
                                            u64* __restrict__ dst) const {
        for (u32 w = 0; w < words; w += 2u) {
            u64 x0 = ra[w] | rb[w], x1 = ra[w + 1] | rb[w + 1];
            dst[w] = x0;
            dst[w + 1] = x1;
        }
    }
};

// Occurrence entry k of the class of length 2 ([n, other], layout.rs) of the frontier literal
// `l`: l just became true, so the other literal must be false. (Occurrence lists are read-only:
// loaded through the non-coherent cache.)
template <typename V>
__device__ __forceinline__ void bin_occ_d(const V& view, const u32* occ, u32 k, u32 l, const ShortRows& rows) {
    uint2 e = __ldg(reinterpret_cast<const uint2*>(occ) + k);
    u32 n = e.x, other = e.y;
    int ov = view.value_d(other);
    if (ov > 0) {
        view.conflict_d(REASON(R_INPUT, n), 0);
    } else if (ov == 0) {
        if (view.propose_d(lit_not_d(other), REASON(R_INPUT, n), 0)) rows.write_d(lit_not_d(other), l, NO_CONFLICT);
    }
}

// Occurrence entry k of the class of length 3 ([n, x, y, 0]) of the frontier literal `l`: with l
// true, both others true is a conflict, one true forces the other false.
template <typename V>
__device__ __forceinline__ void tern_occ_d(const V& view, const u32* occ, u32 k, u32 l, const ShortRows& rows) {
    uint4 e = __ldg(reinterpret_cast<const uint4*>(occ) + k);
    u32 n = e.x, x = e.y, y = e.z;
    int vx = view.value_d(x), vy = view.value_d(y);
    if (vx < 0 || vy < 0) return;
    if (vx > 0 && vy > 0) {
        view.conflict_d(REASON(R_INPUT, n), 0);
    } else if (vx > 0) {
        if (view.propose_d(lit_not_d(y), REASON(R_INPUT, n), 0)) rows.write_d(lit_not_d(y), l, x);
    } else if (vy > 0) {
        if (view.propose_d(lit_not_d(x), REASON(R_INPUT, n), 0)) rows.write_d(lit_not_d(x), l, y);
    }
}

// The end of a nogood check that found no false literal and at most one open (unassigned) one,
// `last`: with none open the nogood is violated, with one that literal must be false.
template <typename V>
__device__ __forceinline__ void conclude_d(const V& view, u32 open, u32 last, u32 reason) {
    if (open == 0) {
        view.conflict_d(reason, 0);
    } else {
        view.propose_d(lit_not_d(last), reason, 0);
    }
}

// Checks one nogood: all true is a conflict, all but one true forces that one false. Four
// literals and then their four values are loaded at once: the check is a chain of loads.
template <typename V>
__device__ __forceinline__ void check_nogood_d(const V& view, const u32* lits, u32 len, u32 reason) {
    u32 open = 0, last = 0;
    for (u32 k0 = 0; k0 < len; k0 += 4) {
        u32 q[4];
        int v[4];
#pragma unroll
        for (u32 j = 0; j < 4; j++) q[j] = k0 + j < len ? lits[k0 + j] : 0u;
#pragma unroll
        for (u32 j = 0; j < 4; j++) v[j] = k0 + j < len ? view.value_d(q[j]) : 1;
#pragma unroll
        for (u32 j = 0; j < 4; j++) {
            if (v[j] < 0) return;
            if (v[j] == 0) {
                if (++open > 1) return;
                last = q[j];
            }
        }
    }
    conclude_d(view, open, last, reason);
}

// Occurrence entry k of the class of 4 literals and more ([n, start, len, w]: where the nogood's
// literals are, and for one of WIDE_NOGOOD literals or more its index among those): the whole nogood is checked, by this thread, unless it has `wide` literals or
// more: then the entry is returned for a whole warp to check (wide_checks_d), else an entry with
// x = NO_CONFLICT.
template <typename V>
__device__ __forceinline__ uint4 long_occ_d(const V& view, const u32* occ, u32 k, const u32* ng_lits, u32 wide) {
    uint4 e = __ldg(reinterpret_cast<const uint4*>(occ) + k);
    if (e.z >= wide) return e;
    check_nogood_d(view, ng_lits + e.y, e.z, REASON(R_INPUT, e.x));
    return make_uint4(NO_CONFLICT, 0u, 0u, 0u);
}

// Marks weight constraint occ[k] to be checked this round.
__device__ __forceinline__ void weight_occ_d(const Marks& marks, const u32* occ, u32 k) {
    marks.mark_d(__ldg(occ + k));
}

// A long nogood checked by one warp, 32 * PER literals a step (coalesced; each lane issues its
// PER loads together, one trip to memory a step), stopping after the step with a false literal
// or a second open one. Every lane must call it with the same nogood. PER = 1 where one step
// nearly always settles the nogood (input nogoods: their first 32 literals hold a false one or
// two open ones; PER = 4 made those checks slower, step 41 in BENCHMARKS.md); PER = 4 for learned
// nogoods of more than 64 literals (prop_learned_d), which sweeps read further (ppm-200's average
// 148 literals; its sweeps 5 % faster).
template <u32 PER, typename V>
__device__ __forceinline__ void check_nogood_warp_d(const V& view, const u32* lits, u32 len, u32 reason, u32 lane) {
    u32 open = 0, last = 0;
    for (u32 k0 = 0; k0 < len; k0 += 32u * PER) {
        u32 q[PER];
        int v[PER];
        bool falsified = false;
#pragma unroll
        for (u32 j = 0; j < PER; j++) q[j] = k0 + 32u * j + lane < len ? lits[k0 + 32u * j + lane] : 0u;
#pragma unroll
        for (u32 j = 0; j < PER; j++) {
            v[j] = k0 + 32u * j + lane < len ? view.value_d(q[j]) : 1;
            falsified |= v[j] < 0;
        }
        if (__any_sync(0xffffffffu, falsified)) return;
#pragma unroll
        for (u32 j = 0; j < PER; j++) {
            u32 m = __ballot_sync(0xffffffffu, v[j] == 0);
            if (m) last = __shfl_sync(0xffffffffu, q[j], __ffs(m) - 1);
            open += (u32)__popc(m);
        }
        if (open > 1) return;
    }
    if (lane == 0) conclude_d(view, open, last, reason);
}

// Input nogoods of WIDE_NOGOOD literals and more, which long_occ_d left to the warp: each lane
// offers one (its occurrence entry, or x = NO_CONFLICT) and the warp checks them one after
// another, 32 literals a step. One thread checking ppm-200's nogoods of 182 literals, four
// literals a step, held up every round. All 32 lanes must call it.
template <typename V>
__device__ __forceinline__ void wide_checks_d(const V& view, const u32* ng_lits, uint4 e, u32 lane) {
    for (u32 m = __ballot_sync(0xffffffffu, e.x != NO_CONFLICT); m; m &= m - 1u) {
        u32 j = __ffs(m) - 1;
        u32 n = __shfl_sync(0xffffffffu, e.x, j), s = __shfl_sync(0xffffffffu, e.y, j);
        u32 len = __shfl_sync(0xffffffffu, e.z, j);
        check_nogood_warp_d<1>(view, ng_lits + s, len, REASON(R_INPUT, n), lane);
    }
}

// One group of learned nogoods: one thread per nogood, or one warp per nogood in the group of
// long ones (8 literals and more: 1-UIP and loop nogoods, often hundreds of literals). `p` must
// have whole warps as lanes.
template <typename V>
__device__ __forceinline__ void prop_learned_d(const V& view, const u32* start, const u32* lits, u32 count,
                                               u32 group, Par p) {
    if (group == LEARNED_GROUPS - 1) {
        u32 lane = p.lane & 31u, warps = p.units * (p.lanes >> 5);
        for (u32 n = p.unit * (p.lanes >> 5) + (p.lane >> 5); n < count; n += warps) {
            u32 s = start[n], len = start[n + 1] - s, reason = REASON(R_LEARNED, (group << GROUP_SHIFT) | n);
            if (len > 64u) check_nogood_warp_d<4>(view, lits + s, len, reason, lane);
            else check_nogood_warp_d<1>(view, lits + s, len, reason, lane);
        }
        return;
    }
    for (u32 n = p.unit * p.lanes + p.lane; n < count; n += p.units * p.lanes) {
        u32 s = start[n];
        check_nogood_d(view, lits + s, start[n + 1] - s, REASON(R_LEARNED, (group << GROUP_SHIFT) | n));
    }
}

// Checks each dirty weight constraint W <-> sum(w_i [l_i]) >= bound from the snapshot: a warp
// per constraint, its lanes over the members (sorted heaviest first), the sums by shuffles; every
// lane then takes the same branches. `p` must have whole warps as lanes. (One thread per
// constraint made ppm-200's input rounds, whose 20 constraints have 181 members each, take 65 us.)
// A mark c >= nweights is the wide input nogood wide[c - nweights] ([n, start, len, index], as
// its occurrence entries): block 0's rounds check those here, once a round, rather than once for
// each of their literals on the frontier (fixpoint.cu, frontier_d).
template <typename V>
__device__ __forceinline__ void weight_check_d(const V& view, const Marks& marks, const u32* head, const i64* bound,
                                               const u32* start, const u32* lits, const i64* weights,
                                               const uint4* wide, const u32* ng_lits, u32 nweights, Par p) {
    u32 n = marks.count_d();
    u32 lane = p.lane & 31u, warps = p.units * (p.lanes >> 5);
    for (u32 k = p.unit * (p.lanes >> 5) + (p.lane >> 5); k < n; k += warps) {
        u32 c = marks.at_d(k);
        if (c >= nweights) {
            if (lane == 0) marks.unmark_d(c);
            uint4 e = wide[c - nweights];
            check_nogood_warp_d<1>(view, ng_lits + e.y, e.z, REASON(R_INPUT, e.x), lane);
            continue;
        }
        u32 s = start[c], e = start[c + 1];
        i64 ts = 0, fs = 0, total = 0;
        for (u32 i = s + lane; i < e; i += 32u) {
            int v = view.value_d(lits[i]);
            i64 w = weights[i];
            total += w;
            if (v > 0) ts += w;
            else if (v < 0) fs += w;
        }
        ts = warp_sum_all_d(ts);
        fs = warp_sum_all_d(fs);
        total = warp_sum_all_d(total);
        if (lane == 0) marks.unmark_d(c);
        u32 w = head[c];
        int hv = view.value_d(w);
        i64 b = bound[c], maxsum = total - fs;
        u32 r = REASON(R_WEIGHT, c);
        if (ts >= b) {
            if (hv < 0) {
                if (lane == 0) view.conflict_d(r, WC_TOO_MANY);
                continue;
            }
            if (hv == 0 && lane == 0) view.propose_d(w, r, WC_TOO_MANY);
        }
        if (maxsum < b) {
            if (hv > 0) {
                if (lane == 0) view.conflict_d(r, WC_TOO_FEW);
                continue;
            }
            if (hv == 0 && lane == 0) view.propose_d(lit_not_d(w), r, WC_TOO_FEW);
        }
        // Members heavier than the slack (W true) or the room (W false) are forced: a prefix.
        if (hv == 0) continue;
        i64 limit = hv > 0 ? maxsum - b : b - 1 - ts;
        for (u32 i0 = s; i0 < e && weights[i0] > limit; i0 += 32u) {
            u32 i = i0 + lane;
            if (i >= e || weights[i] <= limit) continue;
            u32 m = lits[i];
            if (view.value_d(m) != 0) continue;
            if (hv > 0) view.propose_d(m, r, WC_TOO_FEW);
            else view.propose_d(lit_not_d(m), r, WC_TOO_MANY);
        }
    }
}

// The number of literals the reason `r` of a literal names at most: a nogood's length, a weight
// constraint's members and its head; 0 for decisions and units.
__device__ __forceinline__ u32 reason_len_d(const Db& db, u32 r) {
    const u32* lits;
    u32 len;
    if (nogood_lits_d(db, r, lits, len)) return len;
    if (REASON_KIND(r) == R_WEIGHT) return db.w_start[REASON_INDEX(r) + 1] - db.w_start[REASON_INDEX(r)] + 1u;
    return 0u;
}

// Reasons longer than this are taken by a whole warp in deps_d; shorter ones by their own thread
// (two steps of four loads at most).
#define DEPS_WARP_LEN 8u
#define MERGED_GROUND 1u
#define MERGED_DONE 2u

// The dependency row of literal `l` merged at trail position `base` or later with reason `r`: the
// union of the rows of the reason's literals, four words at a time. WARP: the lanes of the whole
// warp walk the reason, the union is OR-reduced across it (warp_or_all_d) and lane 0 stores it;
// else the calling thread alone.
template <bool WARP>
__device__ __forceinline__ void reason_row_d(const Db& db, const int* val, const u32* trail_pos, u64* deps, u32 words,
                                             u32 r, u32 l, u32 base, u32 lane) {
    for (u32 w0 = 0; w0 < words; w0 += 4u) {
        RowUnion u = {deps, words, w0, {0ull, 0ull, 0ull, 0ull}};
        reason_lits_d(db, val, trail_pos, r, 0, l, base, WARP ? lane : 0u, WARP ? 32u : 1u,
                      [&](u32 q) { u.add_d(lit_var_d(q)); });
        if (WARP) {
#pragma unroll
            for (u32 k = 0; k < 4u; k++) u.acc[k] = warp_or_all_d(u.acc[k]);
        }
        if (!WARP || lane == 0) u.store_d(deps + (u64)lit_var_d(l) * words);
    }
}

// Forward learning: the dependency bitmap of each of the `n` literals merged this round (from
// trail position `base`), the union of its antecedents' bitmaps (`words` 64-bit words per
// variable). A thread per literal; a literal whose reason has more than DEPS_WARP_LEN literals is
// taken by its thread's whole warp instead, the lanes over the reason's literals, their unions
// OR-reduced across the warp (warp_or_all_d). One thread walking ppm-200's reasons of 182
// literals, four loads a step, made a forward-learning input round 2.6 times as long as a
// resolution one. Every lane of a warp runs the same iterations, so `p` must have whole warps as
// lanes. The round proposed the literals from the assignment it began with, so a weight
// constraint's members count only from before `base`: those merged this round have their rows
// written now, by other threads, and a row not yet written is its variable's previous one (stale
// decision levels). A reason's literals at level 0 add nothing: their rows are empty (common.cuh,
// FixArgs::deps), so no load of their values stands between a literal and its row.
// `merged(i, l, r)` gives the round's i-th literal and its reason, and MERGED_GROUND where it is
// at level 0, MERGED_DONE where its row was made in step A (ShortRows), else 0.
template <typename M>
__device__ __forceinline__ void deps_d(const int* val, const u32* trail_pos, u32 n, u64* deps, u32 words, u32 base,
                                       const Db& db, Par p, M merged) {
    // Literal i0 + lane * warps + warp: consecutive literals go to different warps, so that the
    // long reasons of a round, which often come together (the members a cardinality constraint
    // forces, one after another on the trail), are shared out among the warps rather than queued
    // in one.
    u32 lane = p.lane & 31u, threads = p.units * p.lanes, warps = threads >> 5;
    u32 first = ((p.unit * p.lanes + p.lane) >> 5) + lane * warps;
    for (u32 i0 = 0; i0 < n; i0 += threads) {
        u32 i = i0 + first, l = 0, r = 0;
        bool wide = false;
        if (i < n) {
            u32 kind = merged(i, l, r);
            bool ground = kind == MERGED_GROUND;
            wide = !ground && kind != MERGED_DONE && reason_len_d(db, r) > DEPS_WARP_LEN;
            // A ground literal's row is empty: a decision's reason adds no literal.
            if (!wide && kind != MERGED_DONE) {
                reason_row_d<false>(db, val, trail_pos, deps, words, ground ? REASON(R_DECISION, 0u) : r, l, base, 0u);
            }
        }
        // The warp's long reasons, one after another.
        for (u32 m = __ballot_sync(0xffffffffu, wide); m; m &= m - 1u) {
            u32 j = __ffs(m) - 1;
            u32 lj = __shfl_sync(0xffffffffu, l, j), rj = __shfl_sync(0xffffffffu, r, j);
            reason_row_d<true>(db, val, trail_pos, deps, words, rj, lj, base, lane);
        }
    }
}

// The kernels of the host-driven rounds (--gpu-rounds=host): one launch per step of a round. The
// three classes' kernels share one signature (one launch loop); only prop_long_k reads ng_lits,
// and its occurrence entries say where a nogood's literals start.
extern "C" __global__ void prop_bin_k(const int* val, int* prop, u32* prop_list, u32* prop_reason, Control* ctl,
                                      const u32* trail, u32 qhead, u32 qend, const u32* occ_start,
                                      const u32* occ, const u32* ng_lits) {
    for_occurrences_d(trail, qhead, qend, occ_start, grid_par_d(),
                      [&](u32 l, u32 k) {
                          bin_occ_d(GlobalView{val, prop, prop_list, prop_reason, ctl}, occ, k, l, ShortRows{nullptr, 0u});
                      });
}

extern "C" __global__ void prop_tern_k(const int* val, int* prop, u32* prop_list, u32* prop_reason, Control* ctl,
                                       const u32* trail, u32 qhead, u32 qend, const u32* occ_start,
                                       const u32* occ, const u32* ng_lits) {
    for_occurrences_d(trail, qhead, qend, occ_start, grid_par_d(),
                      [&](u32 l, u32 k) {
                          tern_occ_d(GlobalView{val, prop, prop_list, prop_reason, ctl}, occ, k, l, ShortRows{nullptr, 0u});
                      });
}

extern "C" __global__ void prop_long_k(const int* val, int* prop, u32* prop_list, u32* prop_reason, Control* ctl,
                                       const u32* trail, u32 qhead, u32 qend, const u32* occ_start,
                                       const u32* occ, const u32* ng_lits) {
    for_occurrences_d(trail, qhead, qend, occ_start, grid_par_d(), [&](u32, u32 k) {
        long_occ_d(GlobalView{val, prop, prop_list, prop_reason, ctl}, occ, k, ng_lits, 0xffffffffu);
    });
}

extern "C" __global__ void prop_learned_k(const int* val, int* prop, u32* prop_list, u32* prop_reason,
                                          Control* ctl, const u32* start, const u32* lits, u32 count, u32 group) {
    prop_learned_d(GlobalView{val, prop, prop_list, prop_reason, ctl}, start, lits, count, group, grid_par_d());
}

extern "C" __global__ void weight_mark_k(Control* ctl, const u32* trail, u32 qhead, u32 qend,
                                         const u32* occ_start, const u32* occ, u32* dirty, u32* dirty_list) {
    for_occurrences_d(trail, qhead, qend, occ_start, grid_par_d(),
                      [&](u32, u32 k) { weight_occ_d(global_marks_d(ctl, dirty, dirty_list), occ, k); });
}

extern "C" __global__ void weight_check_k(const int* val, int* prop, u32* prop_list, u32* prop_reason, Control* ctl,
                                          u32* dirty, u32* dirty_list, const u32* head, const i64* bound,
                                          const u32* start, const u32* lits, const i64* weights) {
    weight_check_d(GlobalView{val, prop, prop_list, prop_reason, ctl}, global_marks_d(ctl, dirty, dirty_list), head,
                   bound, start, lits, weights, nullptr, nullptr, NO_CONFLICT, grid_par_d());
}

extern "C" __global__ void merge_k(int* val, int* prop, u32* prop_list, u32* prop_reason,
                                   Control* ctl, u32* trail, u32* trail_pos, u32* reason, u32 base) {
    GlobalView{val, prop, prop_list, prop_reason, ctl}.merge_d(ctl->nprop, val, trail, trail_pos, reason, base,
                                                               grid_par_d());
}

extern "C" __global__ void deps_k(const int* val, const u32* trail, const u32* trail_pos, const u32* reason,
                                  Control* ctl, u64* deps, u32 words, u32 base, Db db) {
    deps_d(val, trail_pos, ctl->nprop, deps, words, base, db, grid_par_d(), [&](u32 i, u32& l, u32& r) {
        l = trail[base + i];
        r = reason[lit_var_d(l)];
        return level_of_d(val, lit_var_d(l)) == 0 ? MERGED_GROUND : 0u;
    });
}

// Ends a round: the merged proposals become the next frontier.
extern "C" __global__ void round_end_k(Control* ctl) {
    u32 base = ctl->trail_len;
    ctl->trail_len = base + ctl->nprop;
    ctl->qhead = base;
    ctl->qend = ctl->trail_len;
    ctl->nprop = 0;
    ctl->ndirty = 0;
    ctl->rounds++;
}

// The safety net before a total assignment is accepted: any violated nogood is a conflict.
extern "C" __global__ void check_nogoods_k(const int* val, Control* ctl, const u32* start, const u32* lits,
                                           u32 count, u32 kind, u32 group) {
    for (u32 n = blockIdx.x * blockDim.x + threadIdx.x; n < count; n += gridDim.x * blockDim.x) {
        bool all = true;
        for (u32 k = start[n]; k < start[n + 1] && all; k++) all = lit_val_d(val, lits[k]) > 0;
        if (all) atomicCAS(&ctl->conflict, NO_CONFLICT, REASON(kind, kind == R_LEARNED ? (group << GROUP_SHIFT) | n : n));
    }
}

// The same for weight constraints under a total assignment.
extern "C" __global__ void check_weights_k(const int* val, Control* ctl, u32 count, Db db) {
    for (u32 c = blockIdx.x * blockDim.x + threadIdx.x; c < count; c += gridDim.x * blockDim.x) {
        i64 ts = 0;
        for (u32 i = db.w_start[c]; i < db.w_start[c + 1]; i++) {
            if (lit_val_d(val, db.w_lits[i]) > 0) ts += db.w_weights[i];
        }
        bool head = lit_val_d(val, db.w_head[c]) > 0;
        if (head != (ts >= db.w_bound[c]) && atomicCAS(&ctl->conflict, NO_CONFLICT, REASON(R_WEIGHT, c)) == NO_CONFLICT) {
            ctl->conflict_aux = head ? WC_TOO_FEW : WC_TOO_MANY;
        }
    }
}
