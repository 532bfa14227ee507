// farm_search.cu: the search farm's search loop and kernel (kernels/farm.cu has its data and
// propagation, kernels/farm_learn.cu its learning): decisions (in split mode a cube's literals
// first), the first step, restarts, models (the first, or in enumeration each, backtracking) and
// the time slice of farm_search_k, a warp a search.

#ifndef FARM_HOST_EMU
#include "common.cuh"
#endif

__device__ u32 farm_luby_d(u32 i) {
    // The i-th term (from 1) of 1 1 2 1 1 2 4 ...
    for (;;) {
        u32 k = 1u;
        while (((1u << k) - 1u) < i) k++;
        if (i == (1u << k) - 1u) return 1u << (k - 1u);
        i -= (1u << (k - 1u)) - 1u;
    }
}

// The unassigned variable of highest activity (0: none is left), over the warp: the block of the
// highest bound, then its unassigned variables; where their best is below the bound, the bound
// comes down to it and the next block is tried.
__device__ u32 farm_pick_d(const FarmSearch& f) {
    u32 nb = f.nv / 32u + 1u;
    for (;;) {
        u32 best = 0u, bb = 0u;
        for (u32 b = f.lane; b < nb; b += FARM_W) {
            u32 k = f.bmax[b];
            if (k > best) {
                best = k;
                bb = b;
            }
        }
        farm_warp_argmax_d(best, bb);
        if (best == 0u) return 0u;
        u32 k = 0u, v = 0u;
        for (u32 i = f.lane; i < 32u; i += FARM_W) {
            u32 x = bb * 32u + i;
            if (x < f.nv && f.val[x] == 0u && farm_key_d(f.act[x]) > k) {
                k = farm_key_d(f.act[x]);
                v = x;
            }
        }
        farm_warp_argmax_d(k, v);
        if (k == best) return v;
        __syncwarp();
        if (f.lane == 0u) f.bmax[bb] = k;
        __syncwarp();
    }
}

// A search's first step: activities and phases (below), level 0's literals.
__device__ void farm_init_d(const FarmArgs& a, const FarmSearch& f) {
    u32 h0 = (a.seed * 0x9e3779b9u) ^ (f.s * 0x85ebca6bu) ^ 0x2545f491u;
    for (u32 v = f.lane; v < f.nv; v += FARM_W) {
        u32 h = h0 ^ (v * 0xcc9e2d51u);
        h ^= h >> 15;
        h *= 0x1b873593u;
        h ^= h >> 13;
        // Every other search starts from a random order and random signs; the others from the
        // variables' occurrences (search 0 unperturbed) and clasp's signs (bodies true, atoms
        // false: all false lost Visit-all, where a search by variables needs bodies true).
        float noise = f.s == 0u ? 0.0f : (float)(h & 0xffffu) * 1e-9f;
        f.act[v] = (f.s & 1u) ? noise : a.act0[v] + noise;
        f.phase[v] = (f.s & 1u) ? 1u + ((h >> 16) & 1u) : a.sign[v];
    }
    __syncwarp();
    for (u32 b = f.lane; b <= f.nv / 32u; b += FARM_W) f.bmax[b] = farm_block_key_d(f, b);
    // No cyclic atom has a source yet.
    if (a.flags & FARM_LOOPS) {
        for (u32 v = f.lane; v < f.nv; v += FARM_W) {
            if (a.u_cyc[v] != 0u) farm_u_push_d(f, v);
        }
    }
    __syncwarp();
    if (f.lane == 0u) {
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

// Split mode (a.ncubes > 0): the search decides its cube's literals first, in order, each at a
// level of its own, so that while a literal of the cube is not yet true every level is one of the
// cube's. A literal found false then follows from the ones before it (and the program): the cube
// has no model. Lane 0 answers for the warp: 0 every literal of the cube holds (search on), 1 one
// was decided (propagate), 2 the cube was refuted (the caller backjumps to level 0; the search
// takes the next cube), 3 no cube is left for the search.
__device__ u32 farm_cube_d(const FarmArgs& a, const FarmSearch& f) {
    u32 r = 0u;
    if (f.lane == 0u) {
        u32 c = f.st[FS_CUBE];
        if (c == 0u) {
            c = atomicAdd(&a.ctl[FC_CUBE_NEXT], 1u) + 1u;
            f.st[FS_CUBE] = c;
        }
        if (c > a.ncubes) {
            r = 3u;
        } else {
            const u32* cube = a.cubes + (u64)(c - 1u) * a.cube_len;
            for (u32 i = 0; i < a.cube_len && r == 0u; i++) {
                u32 x = farm_lit_d(f, cube[i]);
                if (x == 0u) {
                    u32 lv = ++f.st[FS_LEVEL];
                    f.lim[lv] = f.st[FS_TSIZE];
                    f.lim[lv + 1u] = f.st[FS_TSIZE];
                    farm_assign_d(f, cube[i], 0u);
                    farm_add64_d(f.st, FS_DECISIONS, 1u);
                    r = 1u;
                } else if (x == 2u) {
                    // The last cube refuted proves that there is no model.
                    if (atomicAdd(&a.ctl[FC_CUBES_DONE], 1u) + 1u == a.ncubes) atomicExch(&a.ctl[FC_UNSAT], 1u);
                    f.st[FS_CUBE] = 0u;
                    r = 2u;
                }
            }
        }
    }
    return __shfl_sync(0xffffffffu, r, 0);
}

// Scalar word w of search f as lane 0 reads it, for the whole warp (a lane may write only what
// no other lane reads meanwhile).
__device__ __forceinline__ u32 farm_word_d(const FarmSearch& f, u32 w) {
    u32 x = 0u;
    if (f.lane == 0u) x = f.st[w];
    return __shfl_sync(0xffffffffu, x, 0);
}

// Enumeration: writes search f's model (a total assignment) to the next entry of the model ring,
// its atoms' bits and then f's number (the host checks each search's models one after another:
// they differ in few atoms), the whole warp; false where the ring is full (the host has not read
// the entry a ring before).
// An entry is claimed by one atomicAdd, wait-free (a loop of compare-and-swaps on the one
// counter, with thousands of searches claiming, took most of their time): a claim past the ring's
// room is not written, and its search ends its slice (finding the model again in the next), so
// the host reads the first `mcap` claims of a slice at most and skips the rest.
__device__ bool farm_record_d(const FarmArgs& a, const FarmSearch& f) {
    u32 slot = 0u, ok = 0u;
    if (f.lane == 0u) {
        volatile u32* ctl = a.ctl;
        if (ctl[FC_MHEAD] - ctl[FC_MREAD] < a.mcap) {
            slot = atomicAdd(&a.ctl[FC_MHEAD], 1u);
            ok = slot - ctl[FC_MREAD] < a.mcap;
        }
    }
    if (!__shfl_sync(0xffffffffu, ok, 0)) return false;
    slot = __shfl_sync(0xffffffffu, slot, 0);
    u32* m = a.m_ring + (u64)(slot % a.mcap) * a.mwords;
    if (f.lane == 0u) m[a.mwords - 1u] = f.s;
    for (u32 w = f.lane; w + 1u < a.mwords; w += FARM_W) {
        u32 bits = 0u;
        for (u32 b = 0; b < 32u; b++) {
            u32 v = w * 32u + b;
            if (v < f.nv && f.val[v] == 1u) bits |= 1u << b;
        }
        m[w] = bits;
    }
    if (f.lane == 0u) farm_add64_d(f.st, FS_MODELS, 1u);
    __syncwarp();
    return true;
}

// Enumeration: the current level's part of the space holds no model but those found (after a
// model, or a conflict at the backtrack level). Undoes the level and makes its decision's
// complement true at the level below, without a reason: the new backtrack level. At the cube's
// own level the cube is done instead: counted, and the search goes back to level 0 to take the
// next one. A cube that holds at level 0 follows from the program, and no other has a model: the
// space is done. The whole warp.
__device__ void farm_flip_d(const FarmArgs& a, const FarmSearch& f, bool save) {
    u32 level = farm_word_d(f, FS_LEVEL), root = farm_word_d(f, FS_ROOT);
#ifdef FARM_CHECK
    if (root == 0u || level + 1u < root) farm_fail_d("a flip below the cube", level, root, f.st[FS_BT]);
#endif
    if (level + 1u <= root) {
        if (f.lane == 0u) {
            if (atomicAdd(&a.ctl[FC_CUBES_DONE], 1u) + 1u == a.ncubes || root == 1u) atomicExch(&a.ctl[FC_UNSAT], 1u);
            f.st[FS_CUBE] = 0u;
            f.st[FS_ROOT] = 0u;
            f.st[FS_BT] = 0u;
        }
        farm_backjump_d(a, f, 0u, save);
        return;
    }
    u32 d = 0u;
    if (f.lane == 0u) d = f.trail[f.lim[level]];
    farm_backjump_d(a, f, level - 1u, save);
    if (f.lane == 0u) {
        farm_assign_d(f, d ^ 1u, 0u);
        f.st[FS_BT] = level - 1u;
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
    bool enumerate = (a.flags & FARM_ENUM) != 0u;
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
        if (!conflict && (a.flags & FARM_LOOPS)) {
            // At the fixpoint, the unfounded-set check; where it implies or finds a conflict,
            // propagation goes on.
            u32 r = f.st[FS_U_TODO] != 0u ? farm_unfounded_d(a, f, enumerate ? f.st[FS_BT] : 0u) : FARM_U_NONE;
            if (r == FARM_U_BROKEN) {
                farm_finish_d(a, f, FARM_FAILED);
                return;
            }
            if (r == FARM_U_FULL && lane == 0u) {
                // No room for the loop nogood: restart now, and delete at the restart (at the
                // level it restarts to, the nogood needs no room).
                f.st[FS_CONFL_LEFT] = 0u;
                f.st[FS_REDUCE_AT] = 0u;
                f.st[FS_DROPPED]++;
            }
            __syncwarp();
            if (r == FARM_U_IMPLIED || r == FARM_U_CONFLICT) {
                FARM_MARK(FS_T_PROPAGATE);
                continue;
            }
        }
        FARM_MARK(FS_T_PROPAGATE);
        if (conflict) {
            u32 level = farm_word_d(f, FS_LEVEL);
            if (level == 0u) {
                // In enumeration too: no flip at level 0 undoes a model that another cube has.
                farm_finish_d(a, f, FARM_UNSAT);
                return;
            }
            if (enumerate && level == farm_word_d(f, FS_BT)) {
                farm_flip_d(a, f, save);
                FARM_MARK(FS_T_BACKJUMP);
                continue;
            }
            u32 bj = 0u, lbd = 0u, n = farm_analyze_d(a, f, &bj, &lbd);
            if (n == 0u) {
                farm_finish_d(a, f, FARM_FAILED);
                return;
            }
            FARM_MARK(FS_T_ANALYZE);
            if (enumerate) {
                // No room for the nogood, and a restart may not free any (the reasons below
                // the backtrack level stay): the level's decision is flipped instead, as at the
                // backtrack level, and the next restart deletes.
                u32 full = lane == 0u && n > 1u && !farm_room_d(a, f, n);
                if (__shfl_sync(0xffffffffu, full, 0)) {
                    if (lane == 0u) {
                        f.st[FS_REDUCE_AT] = 0u;
                        f.st[FS_DROPPED]++;
                        farm_add64_d(f.st, FS_CONFLICTS, 1u);
                    }
                    farm_flip_d(a, f, save);
                    FARM_MARK(FS_T_BACKJUMP);
                    continue;
                }
                u32 bt = farm_word_d(f, FS_BT);
                bj = bj > bt ? bj : bt;
            }
            farm_backjump_d(a, f, bj, save);
            FARM_MARK(FS_T_BACKJUMP);
            if (lane == 0u) {
                u32 id = 0u;
                const u32* l = f.learnt;
                if (n == 1u) {
                    farm_assign_d(f, l[0] ^ 1u, 0u);
                } else if (farm_store_d(a, f, l, n, lbd, &id)) {
                    farm_assign_d(f, l[0] ^ 1u, id);
                } else {
                    // No room: restart now, and delete at the restart.
                    f.st[FS_CONFL_LEFT] = 1u;
                    f.st[FS_REDUCE_AT] = 0u;
                    f.st[FS_DROPPED]++;
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
        // Enumeration restarts at the backtrack level.
        u32 restart = lane == 0u && f.st[FS_CONFL_LEFT] == 0u && f.st[FS_LEVEL] > (enumerate ? f.st[FS_BT] : 0u);
        if (__shfl_sync(0xffffffffu, restart, 0)) {
            farm_backjump_d(a, f, enumerate ? farm_word_d(f, FS_BT) : 0u, save);
            FARM_MARK(FS_T_BACKJUMP);
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
        // In enumeration the cube's literals stay once they hold (nothing goes below them).
        if (a.ncubes != 0u && !(enumerate && farm_word_d(f, FS_ROOT) != 0u)) {
            u32 r = farm_cube_d(a, f);
            if (r == 3u) {
                farm_finish_d(a, f, FARM_IDLE);
                return;
            }
            if (r == 2u && __shfl_sync(0xffffffffu, f.st[FS_LEVEL], 0) > 0u) farm_backjump_d(a, f, 0u, save);
            if (r != 0u) {
                FARM_MARK(FS_T_DECIDE);
                continue;
            }
            if (enumerate && lane == 0u && f.st[FS_ROOT] == 0u) {
                // The cube holds: its level is the first backtrack level.
                f.st[FS_ROOT] = f.st[FS_LEVEL] + 1u;
                f.st[FS_BT] = f.st[FS_LEVEL];
            }
        }
        u32 v = farm_pick_d(f);
        if (v == 0u && enumerate) {
            // A full ring: the slice ends, and the model is found again in the next.
            if (!farm_record_d(a, f)) return;
            farm_flip_d(a, f, save);
            FARM_MARK(FS_T_DECIDE);
            continue;
        }
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

#ifndef FARM_HOST_EMU
extern __shared__ u32 farm_smem[];  // FARM_WARPS * a.smem_words (the launch's dynamic size)
#endif

// One warp a search, FARM_WARPS a block: runs each for a time slice, its scalars in shared
// memory meanwhile, and the arrays of a.smem (farm_sm_move_d).
extern "C" __global__ void farm_search_k(FarmArgs a) {
    __shared__ u32 scalars[FARM_WARPS * FS_WORDS];
    u32 lane = threadIdx.x % FARM_W, warp = threadIdx.x / FARM_W, s = blockIdx.x * FARM_WARPS + warp;
    if (s >= a.searches || warp >= FARM_WARPS) return;
    u32* st = a.st + (u64)s * FS_WORDS;
    u32* sh = scalars + warp * FS_WORDS;
    for (u32 i = lane; i < FS_WORDS; i += FARM_W) sh[i] = st[i];
    __syncwarp();
    FarmSearch f = farm_search_d(a, s, lane, sh);
    u32* sm = farm_smem + (u64)warp * a.smem_words;
    farm_sm_move_d(a, f, s, sm, true);
    farm_run_d(a, f);
    __syncwarp();
    farm_sm_move_d(a, f, s, sm, false);
    for (u32 i = lane; i < FS_WORDS; i += FARM_W) st[i] = sh[i];
}
