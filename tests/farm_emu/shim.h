// shim.h: what kernels/farm.cu needs of CUDA, for one lane on the host (FARM_W 1): the search
// farm's kernel compiled by a C++ compiler, one search after another (harness.cpp).
#pragma once
#include <chrono>
#include <cstdint>
#include <cstring>

#define FARM_HOST_EMU 1
#define FARM_W 1
#define __global__
#define __device__
#define __forceinline__ inline

typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;
typedef long long i64;

struct EmuDim3 {
    unsigned x, y, z;
};
static EmuDim3 threadIdx, blockIdx, blockDim;

inline void __syncwarp(unsigned = 0xffffffffu) {}
inline void __threadfence() {}
template <class T> inline T __shfl_sync(unsigned, T v, int) { return v; }
template <class T> inline T __shfl_down_sync(unsigned, T v, int) { return v; }
inline u32 atomicCAS(u32* p, u32 c, u32 v) {
    u32 o = *p;
    if (o == c) *p = v;
    return o;
}
inline u32 atomicAdd(u32* p, u32 v) {
    u32 o = *p;
    *p += v;
    return o;
}
inline u64 atomicAdd(u64* p, u64 v) {
    u64 o = *p;
    *p += v;
    return o;
}
inline u32 atomicSub(u32* p, u32 v) {
    u32 o = *p;
    *p -= v;
    return o;
}
inline u32 atomicExch(u32* p, u32 v) {
    u32 o = *p;
    *p = v;
    return o;
}
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
inline u64 farm_now_d() {
    return (u64)std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

#ifdef FARM_CHECK
#include <cstdio>
#include <cstdlib>
inline void farm_fail_d(const char* what, u32 x, u32 y, u32 z) {
    std::fprintf(stderr, "farm invariant broken: %s (%u, %u, %u)\n", what, x, y, z);
    std::abort();
}
#endif
