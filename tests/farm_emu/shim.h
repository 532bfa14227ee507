// shim.h: what kernels/farm.cu needs of CUDA, on the host: the search farm's kernel compiled by a
// C++ compiler (harness.cpp). A warp is FARM_EMU_LANES lanes: 1 (the default), one search after
// another on one thread; or 32, a thread a lane, with __syncwarp a barrier, the shuffles through
// memory and the atomics as std::atomic_ref, so that the lanes' races happen on the host too.
#pragma once
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <cstring>

#ifndef FARM_EMU_LANES
#define FARM_EMU_LANES 1
#endif
#define FARM_HOST_EMU 1
#define FARM_W FARM_EMU_LANES
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
#define FARM_WARPS 1u

typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;
typedef long long i64;

struct EmuDim3 {
    unsigned x, y, z;
};
static thread_local EmuDim3 threadIdx;
static EmuDim3 blockIdx, blockDim;

// The running warp's barrier and shuffle slots (FARM_EMU_LANES > 1).
struct EmuWarp {
    std::barrier<> bar{FARM_EMU_LANES};
    u64 slots[FARM_EMU_LANES];
};
static EmuWarp* emu_warp;
// The running block's dynamic shared memory (the harness sets it).
static u32* farm_smem;

inline void __syncwarp(unsigned = 0xffffffffu) {
    if (FARM_EMU_LANES > 1) emu_warp->bar.arrive_and_wait();
}
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
template <class T> inline T emu_shfl(T v, int src) {
    if (FARM_EMU_LANES == 1) return v;
    static_assert(sizeof(T) <= 8, "a shuffled value fits a slot");
    std::memcpy(&emu_warp->slots[threadIdx.x % FARM_EMU_LANES], &v, sizeof(T));
    __syncwarp();
    T r;
    std::memcpy(&r, &emu_warp->slots[src], sizeof(T));
    __syncwarp();
    return r;
}
template <class T> inline T __shfl_sync(unsigned, T v, int src) { return emu_shfl(v, src); }
template <class T> inline T __shfl_down_sync(unsigned, T v, int off) {
    int lane = (int)(threadIdx.x % FARM_EMU_LANES);
    return emu_shfl(v, lane + off < FARM_EMU_LANES ? lane + off : lane);
}
template <class T> inline T __shfl_up_sync(unsigned, T v, unsigned off) {
    int lane = (int)(threadIdx.x % FARM_EMU_LANES);
    return emu_shfl(v, lane >= (int)off ? lane - (int)off : lane);
}
// Every lane's value, through the slots at once (two barriers): bit i set where `same(lane i's)`.
template <class F> inline unsigned emu_gather(u64 v, F same) {
    emu_warp->slots[threadIdx.x % FARM_EMU_LANES] = v;
    __syncwarp();
    unsigned bits = 0;
    for (int i = 0; i < FARM_EMU_LANES; i++) bits |= (unsigned)same(emu_warp->slots[i]) << i;
    __syncwarp();
    return bits;
}
inline unsigned __ballot_sync(unsigned, int pred) {
    if (FARM_EMU_LANES == 1) return pred ? 1u : 0u;
    return emu_gather(pred ? 1u : 0u, [](u64 x) { return x != 0u; });
}
inline unsigned __match_any_sync(unsigned, u32 v) {
    if (FARM_EMU_LANES == 1) return 1u;
    return emu_gather(v, [v](u64 x) { return x == v; });
}
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __ffs(unsigned x) { return __builtin_ffs((int)x); }
inline u32 atomicCAS(u32* p, u32 c, u32 v) {
    std::atomic_ref<u32>(*p).compare_exchange_strong(c, v);
    return c;
}
inline u32 atomicAdd(u32* p, u32 v) { return std::atomic_ref<u32>(*p).fetch_add(v); }
inline u64 atomicAdd(u64* p, u64 v) { return std::atomic_ref<u64>(*p).fetch_add(v); }
inline u32 atomicMax(u32* p, u32 v) {
    u32 old = std::atomic_ref<u32>(*p).load();
    while (old < v && !std::atomic_ref<u32>(*p).compare_exchange_weak(old, v)) {
    }
    return old;
}
inline u32 max(u32 a, u32 b) { return a > b ? a : b; }
inline u32 min(u32 a, u32 b) { return a < b ? a : b; }
inline u32 atomicSub(u32* p, u32 v) { return std::atomic_ref<u32>(*p).fetch_sub(v); }
inline u32 atomicExch(u32* p, u32 v) { return std::atomic_ref<u32>(*p).exchange(v); }
inline u32 atomicOr(u32* p, u32 v) { return std::atomic_ref<u32>(*p).fetch_or(v); }
inline float __uint_as_float(u32 x) {
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}
inline u32 __float_as_uint(float f) {
    u32 x;
    std::memcpy(&x, &f, 4);
    return x;
}
inline long long clock64() {
    return (long long)std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
inline u64 farm_now_d() { return (u64)clock64(); }

#ifdef FARM_CHECK
#include <cstdio>
#include <cstdlib>
inline void farm_fail_d(const char* what, u32 x, u32 y, u32 z) {
    std::fprintf(stderr, "farm invariant broken: %s (%u, %u, %u)\n", what, x, y, z);
    std::abort();
}
#endif
