// harness.cpp: runs the search farm's kernel (kernels/farm.cu) on the host, one search after
// another for a time slice each (a warp of FARM_EMU_LANES threads, shim.h), over the arrays that
// src/engine/cuda/farm/emu.rs dumps:
//   harness DUMP SECONDS
// prints "SAT s" and search s's values (a line of words, 1 true, 2 false), "UNSAT", "FAILED" or
// "TIMEOUT", then in enumeration the models read from the ring ("M" and an entry's words, as
// the host reads them between slices), then the searches' conflicts, then "CUBES refuted taken"
// (split mode).
#include "shim.h"
#include "../../kernels/farm.cu"
#include "../../kernels/farm_propagate.cu"
#include "../../kernels/farm_learn.cu"
#include "../../kernels/farm_unfounded.cu"
#include "../../kernels/farm_search.cu"

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

// FarmArgs' pointers (FARM_POINTERS in src/engine/cuda/layout.rs), then its scalars.
const u32 POINTERS = 64;
static_assert(sizeof(FarmArgs) == POINTERS * 8 + 8 + 18 * 4, "FarmArgs: its pointers, then the scalars");

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    FILE* in = std::fopen(argv[1], "rb");
    if (!in) return 2;
    u32 nbufs = 0;
    if (std::fread(&nbufs, 4, 1, in) != 1 || nbufs != POINTERS) return 3;
    std::vector<std::vector<u32>> bufs(nbufs);
    FarmArgs a;
    void** ptrs = (void**)&a;
    for (u32 i = 0; i < nbufs; i++) {
        u32 kind = 0;
        u64 len = 0;
        if (std::fread(&kind, 4, 1, in) != 1 || std::fread(&len, 8, 1, in) != 1) return 3;
        // Two spare words: an i64 array is read as such.
        bufs[i].assign(len + 2, 0u);
        if (kind == 0 && std::fread(bufs[i].data(), 4, len, in) != len) return 3;
        ptrs[i] = bufs[i].data();
    }
    if (std::fread(&a.slice_ns, 8, 1, in) != 1 || std::fread(&a.nvars, 4, 18, in) != 18) return 3;
    std::fclose(in);
    // The block's shared memory for the arrays of a.smem (a search a block: FARM_WARPS is 1).
    std::vector<u32> smem(a.smem_words + 1);
    farm_smem = smem.data();
    double limit = std::atof(argv[2]);
    u64 t0 = farm_now_d();
    const char* verdict = "TIMEOUT";
    u32 winner = FARM_NONE;
    std::vector<std::vector<u32>> models;
    // The host's part between slices: the ring's new entries read (claims past its room were not
    // written), and the reading acknowledged.
    auto drain = [&] {
        u32 head = a.ctl[FC_MHEAD], read = a.ctl[FC_MREAD];
        for (u32 i = 0; i < head - read && i < a.mcap; i++) {
            const u32* e = a.m_ring + (u64)((read + i) % a.mcap) * a.mwords;
            models.emplace_back(e, e + a.mwords);
        }
        a.ctl[FC_MREAD] = head;
    };
    while ((double)(farm_now_d() - t0) < limit * 1e9) {
        bool running = false;
        for (u32 s = 0; s < a.searches; s++) {
            blockIdx.x = s;
            blockDim.x = FARM_EMU_LANES;
            if (FARM_EMU_LANES == 1) {
                threadIdx.x = 0;
                farm_search_k(a);
            } else {
                EmuWarp warp;
                emu_warp = &warp;
                std::vector<std::thread> lanes;
                for (u32 l = 0; l < FARM_EMU_LANES; l++)
                    lanes.emplace_back([&a, l] {
                        threadIdx.x = l;
                        farm_search_k(a);
                    });
                for (auto& t : lanes) t.join();
            }
            running |= a.st[s * FS_WORDS + FS_STATUS] == FARM_RUNNING;
            if (a.mcap) drain();
            if (a.ctl[FC_WINNER] != FARM_NONE || a.ctl[FC_UNSAT]) break;
        }
        if (a.ctl[FC_WINNER] != FARM_NONE) {
            winner = a.ctl[FC_WINNER];
            verdict = "SAT";
            break;
        }
        if (a.ctl[FC_UNSAT]) {
            verdict = "UNSAT";
            break;
        }
        if (!running) {
            verdict = "FAILED";
            break;
        }
    }
    if (winner != FARM_NONE) {
        std::printf("SAT %u\n", winner);
        for (u32 v = 0; v < a.nvars; v++) std::printf("%u ", a.val[(u64)winner * a.nvars + v]);
        std::printf("\n");
    } else {
        std::printf("%s\n", verdict);
    }
    for (auto& m : models) {
        std::printf("M");
        for (u32 w : m) std::printf(" %u", w);
        std::printf("\n");
    }
    for (u32 s = 0; s < a.searches; s++) std::printf("%u ", a.st[s * FS_WORDS + FS_CONFLICTS]);
    std::printf("\n");
    // Split mode: the cubes refuted and taken.
    std::printf("CUBES %u %u\n", a.ctl[FC_CUBES_DONE], a.ctl[FC_CUBE_NEXT]);
    return 0;
}
