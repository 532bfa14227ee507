// fixpoint.cu: unit propagation to the fixpoint in one cooperative launch (--gpu-rounds=device).
// The rounds of propagate.cu run inside one kernel, separated by barriers, so a whole
// propagation costs one launch and one read-back of the control block instead of several
// launches and a host synchronisation per round. Launched with cuLaunchCooperativeKernel and no
// more blocks than can be resident at once, which is what makes the grid barrier safe. Block 0
// runs the many short rounds of the input nogoods alone, over values and proposals in its shared
// memory (SharedView) where they fit.
#include "common.cuh"

// A grid-wide barrier (all blocks resident), as cooperative groups' grid.sync(): one arrival
// counter, barrier[0], to which block 0 adds 2^31 - (blocks - 1) and every other block 1, so that
// the arrivals together add exactly 2^31: bit 31 flips when the last block arrives, and each
// block waits for the flip from the value it found. The last arrival is itself the release (no
// reset and no second word for the waiters to poll, which put two more trips to memory on every
// barrier's path). Invariant between barriers: bits 0..30 of barrier[0] are 0. The fences order
// each block's writes before its arrival and the loads after the release.
__device__ __forceinline__ void grid_sync_d(u32* barrier) {
    __syncthreads();
    if (threadIdx.x == 0) {
        u32 add = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1u) : 1u;
        __threadfence();
        u32 old = atomicAdd(barrier, add);
        const volatile u32* count = barrier;
        while (((old ^ *count) & 0x80000000u) == 0u) {
#if __CUDA_ARCH__ >= 700
            __nanosleep(20);
#endif
        }
        __threadfence();
    }
    __syncthreads();
}

// Block 0's view of its input nogoods' rounds: the values and the round's proposals in shared
// memory, so that the short rounds' chains of dependent accesses stay on the multiprocessor.
// Both bitmaps are indexed by literal (word l >> 5, bit l & 31; a variable's two literals share
// a word): `s_true` has bit l set when literal l is true, `s_claim` when l was proposed (bits of
// earlier rounds may stay set: their literals are true, which propose_d checks first). The
// proposals' list has `cap` entries in shared memory and continues in the global prop_list.
// The global values are kept in step (merge_d writes both), so every other reader, and the grid's
// sweeps, see the same assignment; what a sweep merges is copied in (refresh_d).
struct SharedView {
    u32* s_true;
    u32* s_claim;
    u32* s_list;
    u32* s_reason;
    u32* s_n;         // proposals this round
    u32* s_conflict;  // nonzero once the round has a conflict
    u32 cap;
    u32* g_list;
    u32* g_reason;
    int* val;
    Control* ctl;
    u32 level;

    __device__ __forceinline__ int value_d(u32 l) const {
        u32 w = s_true[l >> 5], b = l & 31u;
        return (w >> b) & 1u ? 1 : ((w >> (b ^ 1u)) & 1u ? -1 : 0);
    }

    __device__ __forceinline__ void conflict_d(u32 reason, u32 aux) const {
        if (atomicCAS(&ctl->conflict, NO_CONFLICT, reason) == NO_CONFLICT) ctl->conflict_aux = aux;
        atomicExch(s_conflict, 1u);
    }

    // As GlobalView::propose_d, with the claim a bit of s_claim: of two contradicting proposals,
    // the later one finds the other's bit. True when this call put the proposal on the list.
    __device__ __forceinline__ bool propose_d(u32 l, u32 reason, u32 aux) const {
        u32 bit = 1u << (l & 31u), other = 1u << ((l & 31u) ^ 1u);
        u32 w = s_true[l >> 5];
        if (w & bit) return false;
        if (w & other) {
            conflict_d(reason, aux);
            return false;
        }
        u32 old = atomicOr(&s_claim[l >> 5], bit);
        if (old & bit) return false;
        if (old & other) {
            conflict_d(reason, aux);
            return false;
        }
        u32 slot = atomicAdd(s_n, 1u);
        if (slot < cap) {
            s_list[slot] = l;
            s_reason[slot] = reason;
        } else {
            g_list[slot] = l;
            g_reason[slot] = reason;
        }
        return true;
    }

    __device__ __forceinline__ u32 count_d() const { return *s_n; }
    __device__ __forceinline__ bool conflicted_d() const { return *s_conflict != 0u; }
    __device__ __forceinline__ void reset_d() const { *s_n = 0u; }

    // As GlobalView::merge_d (`out` is `val`), keeping the bitmap of true literals in step.
    __device__ __forceinline__ void merge_d(u32 n, int* out, u32* trail, u32* trail_pos, u32* reason, u32 base,
                                            Par p) const {
        for (u32 i = p.unit * p.lanes + p.lane; i < n; i += p.units * p.lanes) {
            u32 l = i < cap ? s_list[i] : g_list[i];
            place_on_trail_d(out, trail, trail_pos, reason, base + i, l, encode_d(l, level),
                             i < cap ? s_reason[i] : g_reason[i]);
            atomicOr(&s_true[l >> 5], 1u << (l & 31u));
        }
    }

    // The round's i-th proposal and its reason, read after the merge (forward learning's rows:
    // deps_d), and whether the round is at level 0.
    __device__ __forceinline__ bool merged_d(u32 i, u32& l, u32& r) const {
        l = i < cap ? s_list[i] : g_list[i];
        r = i < cap ? s_reason[i] : g_reason[i];
        return level == 0u;
    }

    // Block 0, all threads: the values from the global array, no claims, no proposals.
    __device__ __forceinline__ void load_d(u32 nvars, u32 words) const {
        u32 lane = threadIdx.x & 31u;
        for (u32 w = threadIdx.x; w < words; w += blockDim.x) s_claim[w] = 0u;
        // A warp reads 32 variables; each half-warp ORs its 16 two-bit fields into one word.
        for (u32 v0 = (threadIdx.x >> 5) * 32u; v0 < nvars; v0 += blockDim.x) {
            u32 v = v0 + lane;
            int x = v < nvars ? val[v] : 0;
            u32 bits = (x > 0 ? 1u : x < 0 ? 2u : 0u) << (2u * (lane & 15u));
            for (u32 off = 8; off > 0; off >>= 1) bits |= __shfl_xor_sync(0xffffffffu, bits, off);
            if ((lane & 15u) == 0 && (v >> 4) < words) s_true[v >> 4] = bits;
        }
        if (threadIdx.x == 0) {
            *s_n = 0u;
            *s_conflict = ctl->conflict != NO_CONFLICT;
        }
    }

    // Block 0, all threads: the literals trail[from..to) (what a sweep merged) become true here.
    __device__ __forceinline__ void refresh_d(const u32* trail, u32 from, u32 to) const {
        for (u32 i = from + threadIdx.x; i < to; i += blockDim.x) {
            u32 l = trail[i];
            atomicOr(&s_true[l >> 5], 1u << (l & 31u));
        }
    }
};

// Step A of a round with a frontier: the occurrences of each frontier literal in the input
// nogoods of the three length classes and in the weight constraints, in one pass: a unit of `p`
// per frontier literal, its lanes over the four occurrence lists end to end. The classes' chains
// of dependent loads then overlap instead of following one another. Nogoods of WIDE_NOGOOD
// literals and more go to the lane's whole warp (wide_checks_d). Every lane of a unit runs the
// same iterations, so `p` must have whole warps as lanes.
template <bool FWD, typename V>
__device__ __forceinline__ void frontier_d(const FixArgs& a, const Db& db, const V& view, const Marks& marks, Par p,
                                           u32 qhead, u32 qend) {
    ShortRows rows = {FWD ? a.deps : nullptr, a.words};
    for (u32 i = qhead + p.unit; i < qend; i += p.units) {
        u32 l = a.trail[i];
        u32 s0 = __ldg(a.occ_start[0] + l), s1 = __ldg(a.occ_start[1] + l), s2 = __ldg(a.occ_start[2] + l);
        u32 e0 = __ldg(a.occ_start[0] + l + 1) - s0;
        u32 e1 = e0 + __ldg(a.occ_start[1] + l + 1) - s1;
        u32 e2 = e1 + __ldg(a.occ_start[2] + l + 1) - s2;
        u32 sw = a.nweights ? __ldg(a.w_occ_start + l) : 0u;
        u32 e3 = e2 + (a.nweights ? __ldg(a.w_occ_start + l + 1) - sw : 0u);
        for (u32 k0 = 0; k0 < e3; k0 += p.lanes) {
            u32 k = k0 + p.lane;
            uint4 wide = make_uint4(NO_CONFLICT, 0u, 0u, 0u);
            if (k < e0) bin_occ_d(view, a.occ[0], s0 + k, l, rows);
            else if (k < e1) tern_occ_d(view, a.occ[1], s1 + (k - e0), l, rows);
            else if (k < e2) wide = long_occ_d(view, a.occ[2], s2 + (k - e1), db.ng_lits, WIDE_NOGOOD);
            else if (k < e3) weight_occ_d(marks, a.w_occ, sw + (k - e2));
            if (a.nwide && wide.x != NO_CONFLICT) {
                marks.mark_d(a.nweights + wide.w);  // checked once in step B
                wide.x = NO_CONFLICT;
            }
            wide_checks_d(view, db.ng_lits, wide, p.lane & 31u);
        }
    }
}

// One round over the frontier qhead..qend, or, when it is empty (the input nogoods' fixpoint), a
// sweep of the learned nogoods, by the threads of `p` with `sync` (a barrier over exactly them)
// between the steps, reading values from and proposing into `view`, the weight constraints to
// check in `marks`:
//   A  with a frontier: its occurrences in input nogoods (all length classes in one pass) and
//      marking the weight constraints it touches; without: every learned group; | sync
//   B  the dirty weight constraints, if any;                              | sync
//   C  merging the proposals onto the trail, if any;                      | sync, if any
//   D  dependency bitmaps (forward learning: FWD, the kernel of that scheme); the leader ends the
//      round in the control block.
// The round state (frontier, trail length) lives in registers, the same in every thread, so all
// take the same branches and meet every barrier. Returns 2 on a conflict, 1 when a sweep merged
// nothing (propagation is complete), else 0. The caller syncs before the next round.
template <bool FWD, typename V, typename Sync>
__device__ __forceinline__ u32 round_d(const FixArgs& a, const Db& db, const V& view, const Marks& marks, Par p,
                                       Sync sync, bool leader, u32& qhead, u32& qend, u32& base, u32& rounds) {
    Control* ctl = a.ctl;
    bool sweep = qhead == qend;
    if (!sweep) {
        frontier_d<FWD>(a, db, view, marks, p, qhead, qend);
    } else {
        for (u32 g = 0; g < LEARNED_GROUPS; g++) {
            u32 count = db.lg_fill[g];  // no kernel appends during propagation
            if (count) prop_learned_d(view, db.lg_start[g], db.lg_lits[g], count, g, p);
        }
    }
    sync();
    // Step B only with a constraint to check: every thread reads the count after the barrier,
    // and nothing marks one until the next round's step A (a sweep marks none: only a frontier's
    // literals and the host's cost bound do); the leader resets it after B's barrier.
    bool checked = (a.nweights || a.nwide) && marks.count_d() > 0;
    if (checked) {
        weight_check_d(view, marks, db.w_head, db.w_bound, db.w_start, db.w_lits, db.w_weights, a.wide, db.ng_lits,
                       a.nweights, p);
        sync();
    }
    u32 n = view.count_d();
    bool conflict = view.conflicted_d();
    // A round that proposed nothing and found no conflict (every sweep at a fixpoint) merges
    // nothing and needs no barrier: the leader's end of the round below then writes nothing any
    // thread reads before the caller's next barrier. (The counts are reset only where they are
    // not 0, after the barrier that follows their last read: a reset of a count of 0 that other
    // threads may still be reading is a race, if a harmless one, and racecheck reports it.)
    if (n > 0 || conflict) {
        view.merge_d(n, a.val, a.trail, a.trail_pos, a.reason, base, p);
        sync();
        if (FWD && a.deps) {
            // Literals forced by binary and ternary input nogoods (the first nogoods of the
            // length-sorted store) have their rows from step A (frontier_d, ShortRows).
            u32 short_end = a.class_size[0] + a.class_size[1];
            deps_d(a.val, a.trail_pos, n, a.deps, a.words, base, db, p, [&](u32 i, u32& l, u32& r) {
                if (view.merged_d(i, l, r)) return MERGED_GROUND;
                return REASON_KIND(r) == R_INPUT && REASON_INDEX(r) < short_end ? MERGED_DONE : 0u;
            });
        }
    }
    qhead = base;
    base += n;
    qend = base;
    if (leader) {
        ctl->trail_len = base;
        ctl->qhead = qhead;
        ctl->qend = qend;
        if (n > 0) view.reset_d();
        if (checked) marks.reset_d();
        rounds++;  // added to the control block at the end: no read of it on the round's path
    }
    return conflict ? 2u : (sweep && n == 0 ? 1u : 0u);
}

// Block 0's rounds over the input nogoods from the frontier qhead..qend to their fixpoint or a
// conflict, a warp per frontier literal, with block barriers.
template <bool FWD, typename V>
__device__ __forceinline__ void input_rounds_d(const FixArgs& a, const Db& db, const V& view, const Marks& marks,
                                               bool leader, u32& qhead, u32& qend, u32& base, u32& rounds) {
    auto block_sync = []() { __syncthreads(); };
    while (qhead < qend) {
        u32 r = round_d<FWD>(a, db, view, marks, warp_par_d(), block_sync, leader, qhead, qend, base, rounds);
        __syncthreads();
        if (r == 2) break;
    }
}

// Propagation to the fixpoint of all nogoods, or a conflict. The rounds with a frontier are
// short (a few literals, their occurrences) and many: block 0 runs them alone, a warp per
// frontier literal, with block barriers, while the other blocks wait at the grid barrier. At the
// input nogoods' fixpoint the whole grid sweeps the learned nogoods, with grid barriers; what the
// sweep merges is the next frontier. Ends after a sweep that merged nothing, having ranked the
// decisions there (a.rank), so that the host needs no decide_k launch and no read-back; but the
// first a.decide times such a fixpoint has an applicable rule, the kernel makes the ranked
// decision itself (a new level, as force_decision_k) and propagates on, saving the host a round
// trip per decision (the host sets a.decide only where it checks nothing at a fixpoint: tight
// programs). Likewise the first a.learn conflicts are analysed here, by block 0 while the others
// wait (the nogood, the backjump, the nogood stored and asserted: learn_res_block_d's 1-UIP, or
// learn_fwd_block_d's forward learning where FWD), and propagation goes on; the host sets a.learn
// no higher than the conflicts left before its search loop restarts or deletes. The host learns
// the decisions and analyses, in order, from ctl->event (with the lengths and LBDs in
// ctl->an_len and an_lbd). The last block to finish copies the control block to the host's
// mirror. The launch may be queued behind a learning kernel the host has not waited for
// (a.pending): that analysis' outcome becomes the first event; one that found no decision to
// blame (ctl->unsat) leaves nothing to do.
template <bool FWD>
__device__ __forceinline__ void propagate_fix_d(const FixArgs& a, const Db& db) {
    __shared__ u64 s_best[32];
    __shared__ u32 s_n, s_conflict, s_nmarks;
    // Block 0's SharedView (a.swords > 0) and its weight constraints' marks (a.sweights > 0), then,
    // 16-byte aligned, its analysis' state (a.learn > 0).
    extern __shared__ uint4 s_dyn4[];
    u32* s_dyn = reinterpret_cast<u32*>(s_dyn4);
    Control* ctl = a.ctl;
    // Only block 0 uses these first values; the others read the control block after the barrier.
    u32 qhead = ctl->qhead, qend = ctl->qend, base = ctl->trail_len;
    bool leader = blockIdx.x == 0 && threadIdx.x == 0;
    u32 an = 0;  // the leader's count of the analyses recorded in the events
    // The keys of the rankings for decisions made here, alternating (8-byte aligned after the
    // barrier's six words): one is read while the other is zeroed for the next ranking.
    u64* rank_key = reinterpret_cast<u64*>(a.barrier + 6);
    if (leader) {
        ctl->ranked = 0;
        rank_key[0] = 0;
        if (a.pending && ctl->unsat == 0u) {
            ctl->event[0] = EVENT_LEARN | ctl->bj_level;
            ctl->an_len[0] = ctl->learned_len;
            ctl->an_lbd[0] = ctl->lbd;
            ctl->an_trail[0] = 0u;
            an = 1;
        }
        ctl->events = an;
    }
    auto grid_sync = [&]() { grid_sync_d(a.barrier); };
    GlobalView gv = {a.val, a.prop, a.prop_list, a.prop_reason, ctl};
    bool in_shared = a.swords > 0;
    SharedView sv = {s_dyn, s_dyn + a.swords, s_dyn + 2u * a.swords, s_dyn + 2u * a.swords + a.scap, &s_n,
                     &s_conflict, a.scap, a.prop_list, a.prop_reason, a.val, ctl, ctl->level};
    // The marks of the grid's sweeps, and block 0's own, made where they are used (not held in
    // registers through the loop).
    u32 wwords = (a.sweights + 31u) / 32u;
    auto grid_marks = [&]() { return global_marks_d(ctl, a.dirty, a.dirty_list); };
    auto block_marks = [&]() -> Marks {
        u32* bits = s_dyn + 2u * a.swords + 2u * a.scap;
        return a.sweights > 0 ? Marks{bits, bits + wwords, &s_nmarks, true} : grid_marks();
    };
    ResShared rsh = {in_shared ? (2u * a.swords + 2u * a.scap + wwords + a.sweights + 3u) & ~3u : 0u, a.seg_cap,
                     a.seen_words, a.mark_words, a.pool_cap};
    if (blockIdx.x == 0 && in_shared) {
        sv.load_d(a.nvars, a.swords);
        for (u32 w = threadIdx.x; w < wwords; w += blockDim.x) block_marks().flags[w] = 0u;
        if (threadIdx.x == 0) s_nmarks = 0u;
        __syncthreads();
    }
    u64 t0 = leader ? now_ns_d() : 0, t1 = t0;
    u32 rounds = 0;   // the leader's count
    u32 made = 0;     // decisions made here, the same in every thread
    u32 learned = 0;  // conflicts analysed here, the same in every thread
    float inc = a.inc;
    // The conflict in the control block, analysed by block 0 (every thread of it calls this): it
    // learns, backjumps (clearing its SharedView's bits of what it unassigns) and asserts, and
    // takes up the new frontier. True when propagation goes on here, false when the conflict was
    // at level 0 (or the analysis failed: ctl->unsat says which).
    __shared__ u32 s_verdict;
    auto analyse_block = [&]() -> bool {
        u32 end = leader ? ctl->trail_len : 0u;  // read before any thread of the analysis writes it
        u32* sv_true = in_shared ? sv.s_true : nullptr;
        u32* sv_claim = in_shared ? sv.s_claim : nullptr;
        u32 done;
        if constexpr (FWD) {
            done = learn_fwd_block_d(ctl, a.val, a.trail, a.trail_pos, a.reason, a.level_start, a.deps, a.words,
                                     a.learned, a.score, inc, db, sv_true, sv_claim);
        } else {
            done = learn_res_block_d(ctl, a.val, a.trail, a.trail_pos, a.reason, a.level_start, nullptr, nullptr,
                                     a.learned, a.score, inc, a.res_bits, db, nullptr, 0u, rsh, sv_true, sv_claim);
        }
        if (leader) {
            if (done == 1u) {
                ctl->event[ctl->events++] = EVENT_LEARN | ctl->bj_level;
                ctl->an_len[an] = ctl->learned_len;
                ctl->an_lbd[an] = ctl->lbd;
                ctl->an_trail[an] = end;
                an++;
                s_conflict = 0u;
            }
            s_verdict = done == 1u;
        }
        __syncthreads();
        if (!s_verdict) return false;
        learned++;
        inc *= 1.0f / 0.95f;
        qhead = ctl->qhead;
        qend = ctl->qend;
        base = ctl->trail_len;
        sv.level = ctl->level;
        return true;
    };
    // The same for a conflict of the grid's sweep: every thread of the grid calls this after a
    // barrier that made the conflict visible; the other blocks wait at the barrier, then take up
    // the verdict and the new frontier.
    auto analyse = [&]() -> bool {
        if (blockIdx.x == 0) {
            bool ok = analyse_block();
            if (leader) a.barrier[4] = ok;
        }
        grid_sync();
        if (!*(volatile u32*)(a.barrier + 4)) return false;
        if (blockIdx.x != 0) {
            learned++;
            qhead = ctl->qhead;
            qend = ctl->qend;
            base = ctl->trail_len;
        }
        if (leader) t0 = now_ns_d();
        return true;
    };
    // Queued behind an analysis that found no decision to blame (ctl->unsat): nothing to do. No
    // block writes the flag here, so all agree.
    for (bool stop = ctl->unsat != 0u; !stop;) {
        // Block 0's input rounds to their fixpoint, analysing their conflicts itself (up to
        // a.learn in all) while the other blocks wait at the grid barrier below: they meet it
        // once per fixpoint, not once per conflict and once more per analysis.
        bool failed = false;  // block 0's: an analysis found no nogood (level 0, or an error)
        if (blockIdx.x == 0) {
            for (;;) {
                if (in_shared) {
                    sv.refresh_d(a.trail, qhead, qend);
                    __syncthreads();
                    input_rounds_d<FWD>(a, db, sv, block_marks(), leader, qhead, qend, base, rounds);
                } else {
                    input_rounds_d<FWD>(a, db, gv, grid_marks(), leader, qhead, qend, base, rounds);
                }
                // After input_rounds_d's last block barrier; nothing outside block 0 writes the
                // control block before the grid barrier below.
                if (*(volatile u32*)&ctl->conflict == NO_CONFLICT || learned >= a.learn) break;
                if (leader) ctl->ns_input += now_ns_d() - t0;
                failed = !analyse_block();
                if (failed) break;
                if (leader) t0 = now_ns_d();
            }
        }
        if (leader) {
            t1 = now_ns_d();
            if (!failed) ctl->ns_input += t1 - t0;
            // Whether to stop (a conflict left to the host, or an analysis that failed), in a word
            // nothing else writes: the sweep's blocks may record a conflict in the control block
            // while a slower block is still reading it here, and a block that left early would
            // leave the others at the sweep's barriers. And the analyses made so far, which the
            // other blocks take up.
            a.barrier[3] = failed || ctl->conflict != NO_CONFLICT;
            a.barrier[5] = learned;
        }
        grid_sync();
        qhead = ctl->qhead;
        qend = ctl->qend;
        base = ctl->trail_len;
        learned = *(volatile u32*)(a.barrier + 5);
        if (*(volatile u32*)(a.barrier + 3)) break;
        u32 r = round_d<FWD>(a, db, gv, grid_marks(), grid_par_d(), grid_sync, leader, qhead, qend, base, rounds);
        if (leader) {
            t0 = now_ns_d();
            ctl->ns_sweep += t0 - t1;
            ctl->sweeps++;
        }
        if (r == 2 && learned < a.learn) {
            grid_sync();  // the sweep's merge and the leader's end of the round are in
            if (analyse()) continue;
            break;
        }
        if (r == 1 && a.rank) {
            // The fixpoint: values are final since the sweep's barriers. A ranking for a decision
            // to make here goes to rank_key[made & 1]; the last one, with no decision left to
            // make, to `ranked` for the host (both zeroed by the leader before their ranking's
            // barriers: see below and the start).
            bool deciding = made < a.decide;
            rank_d(a.val, deciding ? rank_key + (made & 1u) : &ctl->ranked, a.e_body, a.e_head, a.entries, a.b_lit,
                   a.def_start, a.def_lits, a.def_weights, a.bound, a.score, s_best);
            if (deciding) {
                grid_sync();  // every block's ranking is in
                u64 key = *(volatile u64*)(rank_key + (made & 1u));
                if (key != 0) {
                    // Decide here, as force_decision_k would after the host read `ranked`, and
                    // propagate on: the host learns the decision from the events. The leader
                    // zeroes the other key, which the next ranking takes: every thread read it
                    // (for the decision before this one) before this ranking's barrier, and the
                    // next ranking begins after a grid barrier that the leader reaches later.
                    if (leader) {
                        rank_key[(made + 1u) & 1u] = 0;
                        u32 lit = ranked_lit_d(key, a.e_body, a.e_head, a.b_lit);
                        ctl->event[ctl->events++] = ctl->trail_len;
                        decide_lit_d(ctl, a.val, a.trail, a.trail_pos, a.reason, a.level_start, lit, a.deps, a.words);
                    }
                    made++;
                    // No grid barrier: only block 0 works before the next one (its input rounds
                    // from the decision), and a block barrier shows it the leader's decision; the
                    // other blocks read the control block after that next grid barrier.
                    if (blockIdx.x == 0) {
                        __syncthreads();
                        qhead = ctl->qhead;
                        qend = ctl->qend;
                        base = ctl->trail_len;
                        sv.level = ctl->level;
                    }
                    continue;
                }
            }
        }
        if (r != 0) break;
        grid_sync();
    }
    if (leader) ctl->rounds += rounds;
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

// One kernel per learning scheme, each with one analysis in it: propagate_fix_k under resolution
// learning, propagate_fix_fwd_k under forward learning (whose rounds also keep the dependency
// bitmaps, a.deps). The host launches the one of its scheme.
extern "C" __global__ void __launch_bounds__(1024, 1) propagate_fix_k(FixArgs a, Db db) { propagate_fix_d<false>(a, db); }
extern "C" __global__ void __launch_bounds__(1024, 1) propagate_fix_fwd_k(FixArgs a, Db db) {
    propagate_fix_d<true>(a, db);
}
