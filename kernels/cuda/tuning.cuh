#pragma once
// Launch constants of the hand-written kernels, as data, each with the evidence that chose it.
// "To be measured on H200" marks a reasoned placeholder; replace it with the winning row of
//   reduce_bench --benchmark_filter='tune/|cuda/|cub' (cold and hot), and quote the figure here.
// Plain C++ (no device code): host code and tests read these numbers too.
#include <cstdint>

namespace rb::cuda {

// How a streaming kernel loads its float4s (chunk_sum.cuh: load_float4).
enum class LoadHint { ldg, cg, l2_prefetch_256 };

// How a double accumulator takes a float4 (chunk_sum.cuh: lane_sum):
//   each        every float converted to double (4 conversions, exact), then added in double;
//   two_sum     the four floats added in float by exact two-sum steps into a float sum s and
//               the rounding errors e (within 2^-24 |e|), then double(s) + double(e): 2 conversions;
//   float_sum   a probe, not a kernel: added in float, converted once (rounded like float), to
//               measure what the conversions cost.
// Float accumulators ignore it.
enum class Widen { each, two_sum, float_sum };

// The shape of a streaming kernel: what its __launch_bounds__, its grid and its loop are built from.
template <int Threads, int Unroll, int BlocksPerSm, LoadHint Hint = LoadHint::ldg, Widen W = Widen::each>
struct LaunchShape {
  static_assert(Threads % 32 == 0 && Threads >= 32 && Threads <= 1024, "a whole number of warps");
  static_assert(Unroll >= 1 && BlocksPerSm >= 1, "at least one load in flight, one block per SM");
  static constexpr int threads = Threads;            // per block
  static constexpr int unroll = Unroll;              // independent float4 loads in flight per thread
  static constexpr int blocks_per_sm = BlocksPerSm;  // grid = SMs x this at large n; also the
                                                     // register budget (__launch_bounds__ min blocks)
  static constexpr std::int64_t tile_floats = std::int64_t{Threads} * Unroll * 4;  // one block step
  static constexpr LoadHint hint = Hint;
  static constexpr Widen widen = W;
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

// cuda/onepass and cuda/onepass_f64: a path per range of n (onepass.cuh: OnepassBySize), each
// the winner of a sweep on the H200, cold, median µs of 5 randomly interleaved repetitions, all in
// one run beside cub (results/h200/diagnose/: 1 is the 17-shape grid, 3-6 the rounds below).
//
// One block, no completion (round 6). The lean single-block kernel beats one block of the general
// kernel by 0.2-0.3 µs up to 8192 floats (fixed cost: 64-bit chunk arithmetic, a loop, eight
// kernel parameters); at 16384 the two are within 0.1 µs, and one path serves up to the tile:
//   n                  1024  2048  3000  4096  5000  8192  16384
//   single t256_u4     3.66  3.75  3.76  3.76     -     -      -     tiny: n <= 4096
//   single t512_u8     3.84  3.90  3.95  3.95  3.91  3.97   4.52     small: n <= 16384
//   onepass t128_u8    3.91  3.93  4.01  4.02  4.66  4.71   4.76
//   general, 1 block   3.89  3.93  3.98  3.98  4.12  4.15   4.41     (t512_u8 one block: <= 16384)
//   cub                4.47  5.06  5.06  3.91  7.26  6.75   6.78
using OnepassTinyShape = LaunchShape<256, 4, 1>;
using OnepassSmallShape = LaunchShape<512, 8, 1>;
//
// A grid, completed by its last block polling slot words (slots.cuh; round 4, µs):
//   n                  2^15  2^16  2^17  2^18  2^19  2^20  2^21  2^22  2^24   2^26
//   t256_u4_b4         4.68  4.79  4.91  4.91  5.39  6.31  8.39 10.48 21.73  66.94    mid
//   t512_u8_b2         5.11  5.17  5.13  5.31  5.45  5.84  7.03  9.24 21.69  65.20    large
//   t512_u8_b2_ticket  5.38  5.46  5.47  5.40  5.56  6.12  7.40  9.71 21.06  64.87
//   t512_u8_b2_fenced  5.77  5.81  5.73  5.81  5.94  6.45  7.65  9.80 21.52  65.46    (the old one)
//   ref/read           4.45  4.49  4.60  4.56  4.75  5.23  6.31  8.11 19.27  63.05
// Round 4 polled a 264-block grid in two batches (Batch = 8), which is why the ticket won from
// 2^24 there. With one batch (Batch = 16), round 8 (results/h200/diagnose/8_idle_finisher):
//   n                  2^17  2^18  2^19  2^20  2^21  2^22  2^23  2^24  2^25   2^26   2^28
//   t256_u4_b4         4.99  5.01  5.54  6.15  7.60 10.59 13.77 21.00 36.45  65.04 237.17    mid: < 3x2^18
//   t512_u8_b2         5.26  5.45  5.45  5.98  7.14  9.04 12.64 20.29 34.12  63.53 234.17    large
//   t512_u8_b2_ticket  5.46  5.56  5.72  6.21  7.41  9.62 13.21 20.63 34.84  63.40 234.81
//   ref/read           4.41  4.52  4.66  5.12  6.17  7.95 11.50 18.82 33.04  61.67 232.59
// and round 7 (diagnose/7_speculative) agrees: the last block polling is fastest at every n, so
// the ticket path is gone. The mid/large switch stays at 3x2^18: at 2^19 the large shape won
// rounds 7 and 8 by 0.1 µs in float (it lost round 4 by 0.06), but onepass_f64 at 2^19 took
// 0.5 µs longer on the large shape (results/h200/kernels_spillfree/). Large shape: 8 loads in
// flight x 1024 threads per SM kept the most bytes in flight, 0.5-1.2% ahead of 4 loads at
// 2^26..2^30 in the 17-shape grid.
using OnepassMidShape = LaunchShape<256, 4, 4>;
using OnepassLargeShape = LaunchShape<512, 8, 2>;
inline constexpr std::int64_t kOnepassLargeMinN = std::int64_t{3} << 18;
//
// Who collects: warp 0 of the last block (16 slots per lane), or all of its threads (4 per
// thread, then the block tree; its own partial never goes through a slot). Round 9
// (diagnose/9_block_collect), µs:
//   n                  2^19  2^20  2^21  2^22  2^23  2^24  2^25   2^26   2^28
//   t512_u8_b2         5.57  6.19  7.44  9.02 12.63 20.25 34.51  63.17 234.19
//   t512_u8_b2_block   5.91  6.43  7.43  9.28 12.60 19.89 34.02  62.77 233.52    huge: > 2^22
//   ref/read           4.73  5.10  6.19  7.96 11.53 18.85 33.05  61.72 232.51
// The block tree costs ~0.3 µs while the grid is small; from 2^24 the whole block wins by
// 0.3-0.5 µs (2^23 is a tie). Round 10 (diagnose/10_block_confirm), block vs warp: 2^23 12.70 vs
// 12.86, 2^24 20.14 vs 20.40, 2^25 34.65 vs 34.86, 2^26 63.93 vs 64.56, 2^27 122.36 vs 122.95.
//
// Round 16 (diagnose/16_early): warp 0 of the last block issuing its slot loads before its own
// block tree (finisher_early) against after it (finisher_polls), µs:
//   n                  2^15  2^16  2^17  2^18  2^19   1e6  2^20  2^21  2^22  2^23
//   t256_u4_b4         4.84  4.93  5.00  5.06  5.50  6.58  6.37  8.50 10.81 14.65
//   t256_u4_b4_early   4.69  4.75  4.84  4.95  5.51  6.30  6.35  7.70 10.64 13.94
//   t512_u8_b2         5.32  5.36  5.32  5.61  5.65  6.46  6.00  7.14  9.16 13.03
//   t512_u8_b2_early   5.02  5.05  5.22  5.29  5.52  6.09  6.15  7.17  9.10 13.69
//   (double, t256_u4_b4: 0.05-0.45 µs faster early up to 1e6, 2^20 0.44 slower; t512_u8_b2:
//   0.04-0.65 faster up to 1e6, 0.2 slower at 2^20-2^21, 0.4 faster at 2^22)
// It wins wherever the completion runs on an idle memory system (every size to 2^18, both
// shapes, both types); from 2^19 the differences are within the 0.3-0.5 µs by which identical
// kernels differ between rows of one run (cuda/onepass and t256_u4_b4 are the same kernel at
// 2^19: 5.98 and 5.50). Its one batch holds 256 slots (slots.cuh), so it serves grids of at most
// 257 blocks, n <= 2^22 on the large shape (it lost 0.7 µs at 2^23, where the grid is 264 blocks
// and a second batch follows), and the whole block collects above.
inline constexpr std::int64_t kOnepassBlockCollectMinN = (std::int64_t{1} << 22) + 1;
//
// cuda/onepass_f64 takes the same paths and shapes, with Widen::each. What it costs over float
// and what was tried against that, rounds 11-14 (diagnose/11_l2_ahead … 14_rolling),
// huge path (t512_u8_b2_block), µs:
//   n                        2^24   2^25   2^26    2^28
//   onepass (float)         19.91  34.08  62.92  233.64   round 12
//   onepass_f64             20.31  34.95  63.90  234.66   each: 4 conversions per float4
//   _floatsum (probe)       20.13  34.35  63.23  234.18   1 conversion per float4, rounds like float
//   _twosum                 20.62  35.32  64.49  235.52   2 conversions + 20 float adds per float4
// So the conversions (16/clk/SM, on the XU pipe: busy 24.9% of the kernel at 2^24 by Nsight
// Compute, diagnose/15_f64_pipes) are about two thirds of the gap and the double partials and
// trees the rest; trading conversions for exact float two-sums costs more issue slots than it
// saves. No better either: 4 blocks of 256 per SM (round 13: 20.39 vs 20.84 at 2^24 but 35.44 vs
// 35.16 at 2^25, a tie above); odd warps starting half a step out of phase, so that their
// conversions overlap the even warps' loads (round 13: 21.26 vs 20.84, 35.63 vs 35.16; the code
// is not kept); thread 0 bulk-prefetching the block's next 1, 2 or 4 steps into L2
// (cp.async.bulk.prefetch.L2, round 11, float: 22.91-23.76 vs 19.91 at 2^24, 262-321 vs 234 at
// 2^28; not kept). Loading each float4 of the next step as soon as its slot is converted
// (rolling loads; round 14; not kept) gained nothing where ptxas keeps that order,
// at 4 loads in flight (t512_u4_b2 in double, rolling vs batched: 20.51 vs 20.51 at 2^24, 34.77 vs
// 34.86 at 2^25, both behind t512_u8_b2's 20.10 and 34.65); from 5 loads up ptxas (CUDA 13.0)
// schedules all of a step's conversions before any of the next step's loads anyway, even behind
// a false data dependency.

// ref/read: the best large-n reader of the sweep (t512_u8_b2), so that cuda/onepass - ref/read
// is the price of the one-launch completion at large n.
using ReadShape = OnepassLargeShape;

}  // namespace rb::cuda
