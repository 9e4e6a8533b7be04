#pragma once
// Launch constants of the hand-written kernels, as data, each with the evidence that chose it.
// "To be measured on H200" marks a reasoned placeholder; replace it with the winning row of
//   reduce_bench --benchmark_filter='tune/|cuda/|cub' (cold and hot), and quote the figure here.
// Plain C++ (no device code): host code and tests read these numbers too.
#include <cstdint>

namespace rb::cuda {

// The shape of a streaming kernel: what its __launch_bounds__, its grid and its loop are built from.
template <int Threads, int Unroll, int BlocksPerSm>
struct LaunchShape {
  static_assert(Threads % 32 == 0 && Threads >= 32 && Threads <= 1024, "a whole number of warps");
  static_assert(Unroll >= 1 && BlocksPerSm >= 1, "at least one load in flight, one block per SM");
  static constexpr int threads = Threads;            // per block
  static constexpr int unroll = Unroll;              // independent float4 loads in flight per thread
  static constexpr int blocks_per_sm = BlocksPerSm;  // grid = SMs x this at large n; also the
                                                     // register budget (__launch_bounds__ min blocks)
  static constexpr std::int64_t tile_floats = std::int64_t{Threads} * Unroll * 4;  // one block step
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

// cuda/auto takes vec4_ilp4 from this n on, vec4 below. Placeholder: the 60 MiB L2 holds 15.7M
// floats, and from 2^24 (64 MiB) on every load comes from HBM, where loads in flight decide the
// bandwidth (FIELD-NOTES: one load in flight per thread reads 2.4 TB/s, four reach 4.66 TB/s).
// To be measured on H200: the n where the cold cuda/vec4_ilp4 row starts beating cuda/vec4.
inline constexpr std::int64_t kAutoIlp4MinN = std::int64_t{1} << 24;

// cuda/onepass: 256 threads x 4 float4 loads in flight x 4 blocks per SM. FIELD-NOTES: a read
// kernel with 4 independent loads in flight and >= 2 blocks/SM reads 4.66 TB/s. Little's law:
// 4.8 TB/s x ~0.7 us loaded latency ~ 3.4 MB must be in flight; this shape keeps
// 132 SMs x 1024 threads x 64 B = 8.7 MB in flight, and 4 blocks/SM leave 64 registers per thread.
// To be measured on H200 (tune/onepass/*).
using OnepassShape = LaunchShape<256, 4, 4>;

// cuda/onepass_f64: the same until measured (double accumulators cost 4 more registers at unroll 4,
// and the float->double conversions run well below their throughput limit at 4.7 TB/s).
// To be measured on H200.
using OnepassF64Shape = LaunchShape<256, 4, 4>;

// ref/read runs onepass's shape and grid, so cuda/onepass - ref/read is the price of the
// one-launch completion (the partials, the atomic ticket, the last block's second reduction).
using ReadShape = OnepassShape;

}  // namespace rb::cuda
