// fixpoint.cu: unit propagation to the fixpoint in one cooperative launch (--gpu-rounds=device).
// The rounds of propagate.cu run inside one kernel, separated by barriers, so a whole
// propagation costs one launch and one read-back of the control block instead of several
// launches and a host synchronisation per round. Launched with cuLaunchCooperativeKernel and no
// more blocks than can be resident at once, which is what makes the grid barrier safe.
#include "common.cuh"

// A grid-wide barrier (all blocks resident): arrivals counted in barrier[0], released by bumping
// the generation in barrier[1]. The fences order each block's writes before its arrival and the
// loads after the release, as cooperative groups' grid.sync() does.
__device__ __forceinline__ void grid_sync_d(u32* barrier) {
    __syncthreads();
    if (threadIdx.x == 0) {
        volatile u32* gen = barrier + 1;
        u32 g = *gen;
        __threadfence();
        if (atomicAdd(barrier, 1u) == gridDim.x - 1) {
            atomicExch(barrier, 0u);
            __threadfence();
            atomicAdd(barrier + 1, 1u);
        } else {
            while (*gen == g) {
#if __CUDA_ARCH__ >= 700
                __nanosleep(20);
#endif
            }
        }
        __threadfence();
    }
    __syncthreads();
}

// Step A of a round with a frontier: the occurrences of each frontier literal in the input
// nogoods of the three length classes and in the weight constraints, in one pass: a unit of `p`
// per frontier literal, its lanes over the four occurrence lists end to end. The classes' chains
// of dependent loads then overlap instead of following one another.
__device__ __forceinline__ void frontier_d(const FixArgs& a, const Db& db, Par p, u32 qhead, u32 qend) {
    for (u32 i = qhead + p.unit; i < qend; i += p.units) {
        u32 l = a.trail[i];
        u32 s0 = a.occ_start[0][l], s1 = a.occ_start[1][l], s2 = a.occ_start[2][l];
        u32 e0 = a.occ_start[0][l + 1] - s0;
        u32 e1 = e0 + a.occ_start[1][l + 1] - s1;
        u32 e2 = e1 + a.occ_start[2][l + 1] - s2;
        u32 sw = a.nweights ? a.w_occ_start[l] : 0u;
        u32 e3 = e2 + (a.nweights ? a.w_occ_start[l + 1] - sw : 0u);
        for (u32 k = p.lane; k < e3; k += p.lanes) {
            if (k < e0) bin_occ_d(a.val, a.prop, a.prop_list, a.prop_reason, a.ctl, a.occ[0], s0 + k);
            else if (k < e1) tern_occ_d(a.val, a.prop, a.prop_list, a.prop_reason, a.ctl, a.occ[1], s1 + (k - e0));
            else if (k < e2)
                long_occ_d(a.val, a.prop, a.prop_list, a.prop_reason, a.ctl, a.occ[2], s2 + (k - e1), db.ng_start,
                           db.ng_lits);
            else weight_occ_d(a.ctl, a.w_occ, sw + (k - e2), a.dirty, a.dirty_list);
        }
    }
}

// One round over the frontier qhead..qend, or, when it is empty (the input nogoods' fixpoint), a
// sweep of the learned nogoods, by the threads of `p` with `sync` (a barrier over exactly them)
// between the steps:
//   A  with a frontier: its occurrences in input nogoods (all length classes in one pass) and
//      marking the weight constraints it touches; without: every learned group; | sync
//   B  the dirty weight constraints;                                      | sync
//   C  merging the proposals onto the trail;                              | sync
//   D  dependency bitmaps (forward learning); the leader ends the round in the control block.
// The round state (frontier, trail length) lives in registers, the same in every thread, so all
// take the same branches and meet every barrier. Returns 2 on a conflict, 1 when a sweep merged
// nothing (propagation is complete), else 0. The caller syncs before the next round.
template <typename Sync>
__device__ __forceinline__ u32 round_d(const FixArgs& a, const Db& db, Par p, Sync sync, bool leader, u32& qhead,
                                       u32& qend, u32& base) {
    Control* ctl = a.ctl;
    bool sweep = qhead == qend;
    if (!sweep) {
        frontier_d(a, db, p, qhead, qend);
    } else {
        for (u32 g = 0; g < LEARNED_GROUPS; g++) {
            if (a.lg_count[g])
                prop_learned_d(a.val, a.prop, a.prop_list, a.prop_reason, ctl, db.lg_start[g], db.lg_lits[g],
                               a.lg_count[g], g, p);
        }
    }
    sync();
    if (a.nweights) {
        weight_check_d(a.val, a.prop, a.prop_list, a.prop_reason, ctl, a.dirty, a.dirty_list, db.w_head, db.w_bound,
                       db.w_start, db.w_lits, db.w_weights, p);
        sync();
    }
    u32 n = ctl->nprop;
    bool conflict = ctl->conflict != NO_CONFLICT;
    merge_d(a.val, a.prop, a.prop_list, a.prop_reason, n, a.trail, a.trail_pos, a.reason, base, p);
    sync();
    if (a.deps) deps_d(a.val, a.trail, a.trail_pos, a.reason, n, a.deps, a.words, base, db, p);
    qhead = base;
    base += n;
    qend = base;
    if (leader) {
        ctl->trail_len = base;
        ctl->qhead = qhead;
        ctl->qend = qend;
        ctl->nprop = 0;
        ctl->ndirty = 0;
        ctl->rounds++;
    }
    return conflict ? 2u : (sweep && n == 0 ? 1u : 0u);
}

// Propagation to the fixpoint of all nogoods, or a conflict. The rounds with a frontier are
// short (a few literals, their occurrences) and many: block 0 runs them alone, a warp per
// frontier literal, with block barriers, while the other blocks wait at the grid barrier. At the
// input nogoods' fixpoint the whole grid sweeps the learned nogoods, with grid barriers; what the
// sweep merges is the next frontier. Ends after a sweep that merged nothing, having ranked the
// decisions there (a.rank), so that the host needs no decide_k launch and no read-back. The
// last block to finish copies the control block to the host's mirror.
extern "C" __global__ void propagate_fix_k(FixArgs a, Db db) {
    __shared__ u64 s_best[32];
    Control* ctl = a.ctl;
    // Only block 0 uses these first values; the others read the control block after the barrier.
    u32 qhead = ctl->qhead, qend = ctl->qend, base = ctl->trail_len;
    if (blockIdx.x == 0 && threadIdx.x == 0) ctl->ranked = 0;
    auto block_sync = []() { __syncthreads(); };
    auto grid_sync = [&]() { grid_sync_d(a.barrier); };
    bool leader = blockIdx.x == 0 && threadIdx.x == 0;
    u64 t0 = leader ? now_ns_d() : 0, t1 = t0;
    for (;;) {
        if (blockIdx.x == 0) {
            while (qhead < qend) {
                u32 r = round_d(a, db, warp_par_d(), block_sync, leader, qhead, qend, base);
                __syncthreads();
                if (r == 2) break;
            }
        }
        if (leader) {
            t1 = now_ns_d();
            ctl->ns_input += t1 - t0;
        }
        grid_sync();
        qhead = ctl->qhead;
        qend = ctl->qend;
        base = ctl->trail_len;
        if (ctl->conflict != NO_CONFLICT) break;
        u32 r = round_d(a, db, grid_par_d(), grid_sync, leader, qhead, qend, base);
        if (leader) {
            t0 = now_ns_d();
            ctl->ns_sweep += t0 - t1;
            ctl->sweeps++;
        }
        if (r == 1 && a.rank) {
            // The fixpoint: values are final since the sweep's merge barrier. The leader zeroed
            // `ranked` at the start, several barriers ago.
            rank_d(a.val, &ctl->ranked, a.e_body, a.e_head, a.entries, a.b_lit, a.def_start, a.def_lits,
                   a.def_weights, a.bound, a.score, s_best);
        }
        if (r != 0) break;
        grid_sync();
    }
    // The last block to finish publishes the control block (the blocks may still be ranking).
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(a.barrier + 2, 1u) == gridDim.x - 1) {
            a.barrier[2] = 0;
            __threadfence();
            publish_d(ctl, a.ctl_host);
        }
    }
}
