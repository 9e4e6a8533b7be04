#pragma once
// Launch constants of the hand-written kernels, as data, each with the evidence that chose it.
// "To be measured on H200" marks a reasoned placeholder; replace it with the winning row of
//   reduce_bench --benchmark_filter='tune/|cuda/|cub' (cold and hot), and quote the figure here.
// Plain C++ (no device code): host code and tests read these numbers too.
#include <cstdint>

namespace rb::cuda {

// How a streaming kernel loads its float4s (chunk_sum.cuh: load_float4).
enum class LoadHint { ldg, cg, l2_prefetch_256 };

// The shape of a streaming kernel: what its __launch_bounds__, its grid and its loop are built from.
template <int Threads, int Unroll, int BlocksPerSm, LoadHint Hint = LoadHint::ldg>
struct LaunchShape {
  static_assert(Threads % 32 == 0 && Threads >= 32 && Threads <= 1024, "a whole number of warps");
  static_assert(Unroll >= 1 && BlocksPerSm >= 1, "at least one load in flight, one block per SM");
  static constexpr int threads = Threads;            // per block
  static constexpr int unroll = Unroll;              // independent float4 loads in flight per thread
  static constexpr int blocks_per_sm = BlocksPerSm;  // grid = SMs x this at large n; also the
                                                     // register budget (__launch_bounds__ min blocks)
  static constexpr std::int64_t tile_floats = std::int64_t{Threads} * Unroll * 4;  // one block step
  static constexpr LoadHint hint = Hint;
};

// cuda/shfl: the textbook launch, 256 threads and a fixed cap of 1024 blocks (no SM awareness).
// A baseline, deliberately not tuned.
inline constexpr int kShflThreads = 256;
inline constexpr int kShflMaxBlocks = 1024;

// cuda/vec4 and cuda/vec4_ilp4: the seed's 256 threads; their grid is SMs x resident blocks per
// SM from the occupancy API (8 at 256 threads on sm_90 unless registers limit it).
// To be measured on H200.
inline constexpr int kVec4Threads = 256;

// The second pass of the two-pass variants: one block over their partials (at most
// max(kShflMaxBlocks, SMs x 8) = 1056 on an H200, so at most 5 loads per thread).
inline constexpr int kFinalPassThreads = 256;

// cuda/auto takes vec4_ilp4 from this n on, vec4 below. Measured on the H200 (cold, µs, vec4 vs
// vec4_ilp4; results/h200/tuning/): 2^20 7.35 vs 8.53, 2^22 11.58 vs 10.15, 2^24 23.10 vs 21.57,
// 2^26 67.32 vs 64.86, 2^28 241.05 vs 238.19, 2^30 939.8 vs 924.1. From 2^22 on, where every load
// comes from HBM, four loads in flight win every time; below it the two trade places by about a
// microsecond of launch-shape effects. The switch sits between the last vec4 win and the first
// ilp4 win.
inline constexpr std::int64_t kAutoIlp4MinN = std::int64_t{1} << 21;

// cuda/onepass and cuda/onepass_f64: two launch shapes, chosen by n. From the tune/onepass/*
// sweep on the H200 (17 shapes, cold, median µs; results/h200/tuning/tune_cold.json):
//
//   shape        2^10  2^13  2^16  2^20  2^22   2^24   2^26   2^28    2^30
//   t256_u4_b4   3.95  5.36  5.29  6.49  9.74  20.55  63.69  236.04  927.87   (the first guess)
//   t256_u8_b2   4.06  4.15  5.32  6.36  9.35  20.40  63.54  236.21  921.96   small: up to 2^17
//   t512_u8_b2   4.10  4.32  5.73  6.35  9.20  20.19  62.88  233.84  919.54   large: from 2^18
//   t1024_u8_b1  4.31  4.57  6.28  6.67  9.42  20.32  63.13  233.84  917.92
//   cub          4.74  6.28  7.14  7.07 11.45  22.21  66.01  236.72  925.97
//
// Small n: a tile of 8192 floats (256 threads x 8 float4s) sums n <= 8192 in one block, which
// skips the completion (~1.1 µs: 5.36 -> 4.15 at 2^13); up to 2^17 its small tiles spread the
// work over more SMs than t512's. Large n: 8 loads in flight x 1024 threads per SM kept the most
// bytes in flight, 0.5-1.2% ahead of 4 loads at 2^26..2^30.
using OnepassSmallShape = LaunchShape<256, 8, 2>;
using OnepassTinyShape = LaunchShape<128, 8, 1>;
using OnepassMidShape = LaunchShape<256, 4, 4>;
using OnepassLargeShape = LaunchShape<512, 8, 2>;
inline constexpr std::int64_t kOnepassLargeMinN = std::int64_t{3} << 18;
inline constexpr std::int64_t kOnepassTicketMinN = std::int64_t{1} << 23;

// ref/read: the best large-n reader of the sweep (t512_u8_b2), so that cuda/onepass - ref/read
// is the price of the one-launch completion at large n.
using ReadShape = OnepassLargeShape;

}  // namespace rb::cuda
