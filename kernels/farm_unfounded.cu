// farm_unfounded.cu: the search farm's unfounded-set check, for programs that are not tight
// (FARM_LOOPS; kernels/farm.cu has its data). Source pointers as the CPU engine's
// (src/engine/unfounded.rs), kept by each search, and loop nogoods stored as learned nogoods, so
// that the analysis reads them as any other reason. Compiled after farm_learn.cu.
//
// Invariant (between checks): every cyclic atom that is not false has a source (a support body
// that is not false and whose positive cyclic atoms have sources, so that following sources never
// loops), or is in u_todo (flagged FARM_U_TODO, once). Sources go when their body is falsified
// (processing, kernels/farm_propagate.cu) and, here, when an atom of the body's positive literals
// lost its own: the entries of u_todo from st[FS_U_EXP] on have not been followed yet. A backjump
// queues the atoms it unassigns that have none. A weight body (terms in u_sum) also loses the
// sources it gave when a term becomes false (u_fals lists it under each term's complement), and
// is valid when its terms that are neither false nor cyclic atoms without a source reach its
// bound. The programs have no head cycle (the host checks).

#ifndef FARM_HOST_EMU
#include "common.cuh"
#endif

// What farm_unfounded_d did: nothing (every atom has a source), a literal implied, a conflict (in
// st[FS_CONFLICT]), no room for the loop nogood (the caller restarts and deletes), or a broken
// invariant (the search fails).
#define FARM_U_NONE 0u
#define FARM_U_IMPLIED 1u
#define FARM_U_CONFLICT 2u
#define FARM_U_FULL 3u
#define FARM_U_BROKEN 4u

// Whether the terms of weight body b that are neither false nor cyclic atoms without a source
// reach its bound.
__device__ bool farm_u_sum_valid_d(const FarmArgs& a, const FarmSearch& f, u32 b) {
    u64 sum = 0u, bound = a.u_bound[b];
    for (u32 j = a.u_sum_start[b]; j < a.u_sum_start[b + 1] && sum < bound; j++) {
        u32 l = a.u_sum[2u * j], y = l >> 1;
        if (farm_lit_d(f, l) == 2u || ((l & 1u) == 0u && a.u_cyc[y] != 0u && f.usrc[y] == 0u)) continue;
        sum += a.u_sum[2u * j + 1u];
    }
    return sum >= bound;
}

// Whether body b can be an atom's source.
__device__ bool farm_u_valid_d(const FarmArgs& a, const FarmSearch& f, u32 b) {
    if (farm_lit_d(f, a.u_blit[b]) == 2u) return false;
    if (a.u_sum_start[b] != a.u_sum_start[b + 1]) return farm_u_sum_valid_d(a, f, b);
    for (u32 j = a.u_pos_start[b]; j < a.u_pos_start[b + 1]; j++) {
        u32 y = a.u_pos[j];
        if (f.usrc[y] == 0u || f.val[y] == 2u) return false;
    }
    return true;
}

// Queues in u_work (a ring of nvars entries, st[FS_U_WORK] written so far), once, every cyclic
// atom without a source, not false, that a body containing atom x positively supports: x's new
// source may make that body valid. Lanes may queue at once.
__device__ void farm_u_forward_d(const FarmArgs& a, const FarmSearch& f, u32 x) {
    for (u32 k = a.u_pocc_start[x]; k < a.u_pocc_start[x + 1]; k++) {
        u32 b = a.u_pocc[k];
        for (u32 m = a.u_head_start[b]; m < a.u_head_start[b + 1]; m++) {
            u32 h = a.u_head[m];
            if (f.usrc[h] == 0u && f.val[h] != 2u && !(f.uflag[h] & FARM_U_WORK) &&
                !(atomicOr(&f.uflag[h], FARM_U_WORK) & FARM_U_WORK)) {
                f.uwork[atomicAdd(&f.st[FS_U_WORK], 1u) % f.nv] = h;
            }
        }
    }
}

// Withdraws the sources that relied on atom x, which lost its own (any lane).
__device__ void farm_u_withdraw_d(const FarmArgs& a, const FarmSearch& f, u32 x) {
    for (u32 j = a.u_pocc_start[x]; j < a.u_pocc_start[x + 1]; j++) farm_u_lost_d(a, f, a.u_pocc[j]);
}

// Puts the literal of the highest level of lits[from..len) at position `from` (lane 0).
__device__ void farm_u_highest_d(const FarmSearch& f, u32* lits, u32 from, u32 len) {
    for (u32 i = from + 1u; i < len; i++) {
        if (f.level[lits[i] >> 1] > f.level[lits[from] >> 1]) {
            u32 t = lits[from];
            lits[from] = lits[i];
            lits[i] = t;
        }
    }
}

// Appends l, true, to the loop nogood ng[0..len) unless its variable is there already: the new
// length.
__device__ __forceinline__ u32 farm_u_witness_d(const FarmSearch& f, u32* ng, u32 len, u32 l) {
    if (f.uflag[l >> 1] & FARM_U_WITNESS) return len;
    f.uflag[l >> 1] |= FARM_U_WITNESS;
    ng[len] = l;
    return len + 1u;
}

// Falsifies `start`, an atom of the unfounded set U in u_todo, by its loop nogood (lane 0; see
// farm_unfounded_d): what farm_unfounded_d answers.
// Whether weight-body term t is a positive literal whose atom is in the closure (only cyclic
// atoms are ever flagged FARM_U_CLOSED).
__device__ __forceinline__ bool farm_u_in_closure_d(const FarmSearch& f, u32 t) {
    return (t & 1u) == 0u && (f.uflag[t >> 1] & FARM_U_CLOSED) != 0u;
}

__device__ u32 farm_u_loop_d(const FarmArgs& a, const FarmSearch& f, u32 start, u32 floor) {
    // start's closure in U (flagged FARM_U_CLOSED), in u_work.
    u32 c = 1u;
    f.uwork[0] = start;
    f.uflag[start] |= FARM_U_CLOSED;
    for (u32 i = 0; i < c; i++) {
        u32 x = f.uwork[i];
        for (u32 j = a.u_sup_start[x]; j < a.u_sup_start[x + 1]; j++) {
            u32 b = a.u_sup[j];
            if (farm_lit_d(f, a.u_blit[b]) == 2u) continue;
            for (u32 k = a.u_pos_start[b]; k < a.u_pos_start[b + 1]; k++) {
                u32 y = a.u_pos[k];
                if ((f.uflag[y] & (FARM_U_TODO | FARM_U_CLOSED)) == FARM_U_TODO) {
                    f.uflag[y] |= FARM_U_CLOSED;
                    f.uwork[c++] = y;
                }
            }
        }
    }
    // The loop nogood, in learnt: T start, then what keeps each external body from supporting
    // the closure, each once (its variable flagged FARM_U_WITNESS meanwhile): F B, or
    // for a weight body that is not false its false terms outside the closure, which keep it
    // below its bound. A body that needs the closure whatever the assignment (a conjunction
    // with an atom of it, a weight body whose other terms cannot reach its bound) takes none.
    u32* ng = f.learnt;
    u32 len = 0u;
    bool broken = false;
    ng[len++] = start << 1;
    for (u32 i = 0; i < c; i++) {
        u32 x = f.uwork[i];
        for (u32 j = a.u_sup_start[x]; j < a.u_sup_start[x + 1]; j++) {
            u32 b = a.u_sup[j];
            u32 s0 = a.u_sum_start[b], s1 = a.u_sum_start[b + 1];
            u64 outside = 0u, open = 0u;
            bool internal = false;
            if (s0 == s1) {
                for (u32 k = a.u_pos_start[b]; k < a.u_pos_start[b + 1] && !internal; k++) {
                    internal = (f.uflag[a.u_pos[k]] & FARM_U_CLOSED) != 0u;
                }
            }
            for (u32 k = s0; k < s1; k++) {
                u32 t = a.u_sum[2u * k];
                if (farm_u_in_closure_d(f, t)) continue;
                outside += a.u_sum[2u * k + 1u];
                if (farm_lit_d(f, t) != 2u) open += a.u_sum[2u * k + 1u];
            }
            if (internal || (s0 != s1 && outside < a.u_bound[b])) continue;
            u32 l = a.u_blit[b];
            if (farm_lit_d(f, l) == 2u) {
                len = farm_u_witness_d(f, ng, len, l ^ 1u);
                continue;
            }
            if (s0 == s1 || open >= a.u_bound[b]) {
                broken = true;
                continue;
            }
            for (u32 k = s0; k < s1; k++) {
                u32 t = a.u_sum[2u * k];
                if (farm_u_in_closure_d(f, t)) continue;
                if (farm_lit_d(f, t) == 2u) len = farm_u_witness_d(f, ng, len, t ^ 1u);
            }
        }
    }
    for (u32 i = 0; i < c; i++) f.uflag[f.uwork[i]] &= ~FARM_U_CLOSED;
    for (u32 i = 1; i < len; i++) f.uflag[ng[i] >> 1] &= ~FARM_U_WITNESS;
    u32 level = f.st[FS_LEVEL];
    bool conflict = f.val[start] == 1u;
    // An external body that is not false, or (above the floor) an atom that no body can ever
    // support: the level-0 checks falsify those before any decision.
    if (broken || (len < 2u && level > floor)) {
#ifdef FARM_CHECK
        farm_fail_d(broken ? "an unfounded set with a body that can support it" : "a loop nogood of one literal", start, len, level);
#endif
        return FARM_U_BROKEN;
    }
    if (level <= floor) {
        // A conflict here proves no model (level 0) or ends the backtrack level (enumeration),
        // with no analysis: st[FS_CONFLICT] only needs to be set.
        if (conflict) f.st[FS_CONFLICT] = FARM_NONE;
        else farm_assign_d(f, (start << 1) ^ 1u, 0u);
        return conflict ? FARM_U_CONFLICT : FARM_U_IMPLIED;
    }
    // The watches: the literals of the highest levels (start first where it is implied).
    if (conflict) farm_u_highest_d(f, ng, 0u, len);
    farm_u_highest_d(f, ng, 1u, len);
    u32 id = 0u;
    if (!farm_store_d(a, f, ng, len, len, &id)) return FARM_U_FULL;
    if (conflict) farm_conflict_d(f, id);
    else farm_assign_d(f, (start << 1) ^ 1u, id);
    return conflict ? FARM_U_CONFLICT : FARM_U_IMPLIED;
}

// The check at a propagation fixpoint (the whole warp). Withdraws the sources that relied on
// atoms that lost theirs, finds new sources, and of the atoms left without one and not false (an
// unfounded set U) falsifies one, `start` (a true one first: a conflict), by the loop nogood
// {T start} + {F B : B an external body of start's closure in U}. The closure is the atoms of U
// that the bodies of start that are not false rely on, transitively: every body of it that is
// not false has a positive atom in it, so its external bodies are all false. The rest of U stays
// in u_todo for the next check. `floor`: the level at or below which an implied literal needs no
// reason, as no analysis reads it (0, or in enumeration the backtrack level). Every lane gets the
// answer.
//
// The lanes share the first three steps, FARM_W atoms of a work list at once. New sources are
// found in rounds: a round's lanes each look for a valid body of their atom among the sources
// set before the round, and set theirs only when every lane has looked, so that no source
// relies on one set in its own round and following sources never loops.
__device__ u32 farm_unfounded_d(const FarmArgs& a, const FarmSearch& f, u32 floor) {
    // 1. A source that relied on an atom without one goes too, transitively.
    for (u32 i = f.st[FS_U_EXP];;) {
        __syncwarp();
        u32 n = f.st[FS_U_TODO];
        __syncwarp();
        if (i >= n) break;
        if (i + f.lane < n) farm_u_withdraw_d(a, f, f.utodo[i + f.lane]);
        i = min(i + FARM_W, n);
    }
    // 2. New sources, found forward from the atoms that get one.
    u32 n = f.st[FS_U_TODO], w = 0u;
    for (u32 base = 0; base < n; base += FARM_W) {
        u32 x = base + f.lane < n ? f.utodo[base + f.lane] : 0u;
        bool q = base + f.lane < n && f.usrc[x] == 0u && f.val[x] != 2u;
        u32 b = __ballot_sync(0xffffffffu, q);
        if (q) {
            f.uflag[x] |= FARM_U_WORK;
            f.uwork[w + __popc(b & f.below)] = x;
        }
        w += __popc(b);
    }
    if (f.lane == 0u) f.st[FS_U_WORK] = w;
    for (u32 done = 0u;;) {
        __syncwarp();
        u32 end = f.st[FS_U_WORK];
        __syncwarp();
        if (done >= end) break;
        u32 x = 0u, src = 0u;
        if (done + f.lane < end) {
            x = f.uwork[(done + f.lane) % f.nv];
            f.uflag[x] &= ~FARM_U_WORK;
            for (u32 j = a.u_sup_start[x]; j < a.u_sup_start[x + 1] && f.usrc[x] == 0u && f.val[x] != 2u; j++) {
                if (farm_u_valid_d(a, f, a.u_sup[j])) {
                    src = a.u_sup[j] + 1u;
                    break;
                }
            }
        }
        __syncwarp();
        if (src != 0u) f.usrc[x] = src;
        __syncwarp();
        if (src != 0u) farm_u_forward_d(a, f, x);
        done = min(done + FARM_W, end);
    }
    // 3. u_todo keeps what is left without a source and not false: U, in order (a lane writes
    // below where every lane has read); start is its first true atom, else its first.
    u32 u = 0u, start = FARM_NONE;
    bool started_true = false;
    for (u32 base = 0; base < n; base += FARM_W) {
        u32 i = base + f.lane, x = i < n ? f.utodo[i] : 0u;
        bool keep = i < n && f.usrc[x] == 0u && f.val[x] != 2u;
        if (i < n && !keep) f.uflag[x] &= ~FARM_U_TODO;
        u32 k = __ballot_sync(0xffffffffu, keep), t = __ballot_sync(0xffffffffu, keep && f.val[x] == 1u);
        if (keep) f.utodo[u + __popc(k & f.below)] = x;
        if (!started_true && t != 0u) {
            start = __shfl_sync(0xffffffffu, x, __ffs(t) - 1);
            started_true = true;
        } else if (start == FARM_NONE && k != 0u) {
            start = __shfl_sync(0xffffffffu, x, __ffs(k) - 1);
        }
        u += __popc(k);
        __syncwarp();
    }
    if (f.lane == 0u) {
        f.st[FS_U_TODO] = u;
        f.st[FS_U_EXP] = u;
    }
    __syncwarp();
    if (u == 0u) return FARM_U_NONE;
    u32 r = f.lane == 0u ? farm_u_loop_d(a, f, start, floor) : FARM_U_NONE;
    return __shfl_sync(0xffffffffu, r, 0);
}
