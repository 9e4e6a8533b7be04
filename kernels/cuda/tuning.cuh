#pragma once
// Launch constants of the hand-written kernels, as data: each with the figure that chose it (cold,
// median µs on the H200) and the committed result it comes from. Every sweep, round by round, is
// in results/h200/tuning.md. Plain C++ (no device code): host code and tests read these too.
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

// cuda/shfl: the textbook launch, 256 threads and at most 1024 blocks. A baseline: not tuned.
inline constexpr int kShflThreads = 256;
inline constexpr int kShflMaxBlocks = 1024;

// cuda/vec4, cuda/vec4_ilp4: 256 threads, grid = SMs x resident blocks per SM (occupancy API).
// Not swept: these rows show one design step each; onepass's shapes below are the tuned ones.
inline constexpr int kVec4Threads = 256;

// The second pass of the two-pass variants: one block over at most max(1024, SMs x 8) partials.
inline constexpr int kFinalPassThreads = 256;

// cuda/auto: vec4_ilp4 from here on, vec4 below (results/h200/tuning.md#shapes-grid), vec4 vs ilp4:
//   2^20 7.35 vs 8.53   2^22 11.58 vs 10.15   2^24 23.10 vs 21.57   2^30 939.8 vs 924.1
inline constexpr std::int64_t kAutoIlp4MinN = std::int64_t{1} << 21;

// cuda/onepass, onepass_f64 (onepass.cuh: OnepassBySize). Up to one tile, one lean block
// (SingleBlock) beats one block of the grid kernel (results/h200/tuning.md#round-6):
//   n                  1024  4096  8192  16384
//   single t256_u4     3.66  3.76     -      -    Tiny: n <= 4096
//   single t512_u8     3.84  3.95  3.97   4.52    Small: n <= 16384
//   grid, 1 block      3.89  3.98  4.15   4.41
using OnepassTinyShape = LaunchShape<256, 4, 1>;
using OnepassSmallShape = LaunchShape<512, 8, 1>;

// A grid: Mid below kOnepassLargeMinN, Large from it (results/h200/tuning.md#round-8):
//   n                  2^17  2^18  2^19  2^20  2^22
//   t256_u4_b4         4.99  5.01  5.54  6.15 10.59    Mid
//   t512_u8_b2         5.26  5.45  5.45  5.98  9.04    Large
// 2^19 stays on Mid: Large wins it by 0.1 in float but loses 0.5 in double
// (results/h200/tuning.md#spillfree). Large is the 17-shape grid's fastest from 2^20 to 2^28
// (tied at 2^28) and 0.2% behind t1024_u8_b1 at 2^30 (results/h200/tuning.md#shapes-grid).
using OnepassMidShape = LaunchShape<256, 4, 4>;
using OnepassLargeShape = LaunchShape<512, 8, 2>;
inline constexpr std::int64_t kOnepassLargeMinN = std::int64_t{3} << 18;

// Who adds the partials: FinishEarly below this n, FinishBlock from it. FinishEarly's one batch
// holds 256 slots, the Large grid up to 2^22; at 2^23 (264 blocks) it lost 13.69 vs 13.03
// (results/h200/tuning.md#round-16). Above, the whole last block (results/h200/tuning.md#round-9):
//   n                  2^23  2^24  2^26   2^28
//   warp 0 collects   12.63 20.25 63.17 234.19
//   FinishBlock       12.60 19.89 62.77 233.52
inline constexpr std::int64_t kOnepassBlockCollectMinN = (std::int64_t{1} << 22) + 1;

// ref/read: the Large shape, so that cuda/onepass - ref/read is the price of the completion.
using ReadShape = OnepassLargeShape;

}  // namespace rb::cuda
