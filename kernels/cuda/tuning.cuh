#pragma once
// Launch constants of the hand-written kernels, as data: each with the figure that chose it (cold,
// median µs on the H200) and the committed result it comes from. Every sweep, round by round, is
// in results/h200/tuning.md. Plain C++ (no device code): host code and tests read these too.
//
// cuda/onepass's shapes form two tables, keyed by architecture (end of this file): the H200's
// measurements below are the sm_90 entry; every other SM gets the generic entry. The table is
// picked at launch from the current device's compute capability (tuning_entry.hpp).
#include <cstdint>

#include "kernels/cuda/tuning_entry.hpp"

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

// Elements of T in one row and one tile of Shape (threads x 4 and Shape::tile_floats for float).
template <class Shape, class T>
inline constexpr std::int64_t kRowOf = std::int64_t{Shape::threads} * static_cast<std::int64_t>(16 / sizeof(T));
template <class Shape, class T>
inline constexpr std::int64_t kTileOf = kRowOf<Shape, T> * Shape::unroll;

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

// cuda/onepass, onepass_f64 on sm_90 (OnepassSm90Tuning below). Up to one tile, one lean block
// (SingleBlock) beats one block of the grid kernel (results/h200/tuning.md#round-6):
//   n                  1024  4096  8192  16384
//   single t256_u4     3.66  3.76     -      -    Tiny: n <= 4096
//   single t512_u8     3.84  3.95  3.97   4.52    Small: n <= 16384
//   grid, 1 block      3.89  3.98  4.15   4.41
using OnepassTinyShape = LaunchShape<256, 4, 1>;
using OnepassSmallShape = LaunchShape<512, 8, 1>;

// A grid: Mid, then Wide (below), then Large above 2^20 floats (4 MiB). Mid against Large, before
// Wide took 1.5-4 MiB (results/h200/tuning.md#round-8):
//   n                  2^17  2^18  2^19  2^20  2^22
//   t256_u4_b4         4.99  5.01  5.54  6.15 10.59    Mid
//   t512_u8_b2         5.26  5.45  5.45  5.98  9.04    Large
// 2^19 stays on Mid: Large wins it by 0.1 in float but loses 0.5 in double
// (results/h200/tuning.md#spillfree). Large is the 17-shape grid's fastest from 2^20 to 2^28
// (tied at 2^28) and 0.2% behind t1024_u8_b1 at 2^30 (results/h200/tuning.md#shapes-grid).
// Mid blocks sum one tile each with the lean body (OneTileGrid), not the looping chunk
// (results/h200/tuning.md#round-17, medians of 3):
//   n                   2^15  2^16  2^17  2^18  2^19
//   looping chunk       4.70  4.90  4.90  5.09  5.54
//   one tile per block  4.54  4.67  4.67  4.96  5.38
using OnepassMidShape = LaunchShape<256, 4, 4>;
using OnepassLargeShape = LaunchShape<512, 8, 2>;
inline constexpr std::int64_t kOnepassLargeMinN = (std::int64_t{1} << 20) + 1;

// Wide: from 1.5 MiB to 4 MiB of input, tiles of 256 x 8, one per block, instead of the top of
// Mid and the bottom of Large. The same bytes in float and in double, cold medians of two runs, of
// 3 and of 5 repetitions; Mid with its looping chunk and FinishEarly, Wide with FinishStaggered
// (results/h200/tuning.md#round-19; -: not measured):
//   input             1 MiB       1.5 MiB     2 MiB       3 MiB       4 MiB
//   f32 Mid/Large     4.83 4.96   4.96 4.96   5.28 5.25   -           5.95 5.95
//   f32 Wide          4.83 4.74   4.96 4.96   5.06 4.96   -           5.76 5.86
//   f64 Mid/Large     5.06 5.02   -           5.54 5.50   5.89 5.89   5.98 6.11
//   f64 Wide          5.15 5.06   -           5.25 5.25   5.50 5.70   5.95 6.08
// Completed by FinishFixed as Mid is (onepass.cuh: TileFinish), not FinishStaggered: one-tile
// grids, median of 7 processes (results/h200/tuning.md#round-30):
//   input                       1 MiB  1.5 MiB  2 MiB  3 MiB  4 MiB
//   f32 Mid, FinishFixed         4.67     4.86   5.09      -      -
//   f32 Wide, FinishStaggered    4.83     4.86   5.02      -   5.73
//   f32 Wide, FinishFixed        4.70     4.83   4.96      -   5.54
//   f64 Mid, FinishFixed         4.86     5.02   5.18      -      -
//   f64 Wide, FinishStaggered    5.04     5.15   5.28   5.57   6.05
//   f64 Wide, FinishFixed        4.86     4.93   5.09   5.41   5.66
// 4 MiB is 128 Wide tiles: FinishFixed's largest grid, for every T (onepass.cuh checks).
using OnepassWideShape = LaunchShape<256, 8, 4>;
inline constexpr std::int64_t kOnepassWideMinN = std::int64_t{3} << 17;

// Who adds the partials: FinishEarly below this n, FinishBlock from it. FinishEarly's one batch
// holds 256 slots, the Large grid up to 2^22; at 2^23 (264 blocks) it lost 13.69 vs 13.03
// (results/h200/tuning.md#round-16). Above, the whole last block (results/h200/tuning.md#round-9):
//   n                  2^23  2^24  2^26   2^28
//   warp 0 collects   12.63 20.25 63.17 234.19
//   FinishBlock       12.60 19.89 62.77 233.52
inline constexpr std::int64_t kOnepassBlockCollectMinN = (std::int64_t{1} << 22) + 1;

// ref/read: the Large shape, so that cuda/onepass - ref/read is the price of the completion.
using ReadShape = OnepassLargeShape;

// cuda/onepass's tables, one per TuningEntry (onepass.cuh: OnepassTuned runs one). Paths by n:
//   n <= TinyShape's tile: one lean block; n <= SmallShape's tile: one lean block of that shape;
//   n < wide_min_n: a MidShape grid (one tile per block where one_tile_mid), FinishFixed for float
//   and double partials there, FinishCounted for integer partials, FinishEarly otherwise;
//   n < large_min_n: a WideShape grid, one tile per block, completed as Mid;
//   n < block_collect_min_n: a LargeShape grid,
//   FinishEarly; otherwise the LargeShape grid, FinishBlock.
// The selector: OnepassBySize (the shipped variant) resolves TuningEntry::automatic per launch to
// tuning_entry_for(compute capability of the current device), queried once per device and cached;
// both tables are compiled for every architecture of the build, so either runs on any device, and
// onepass_with(TuningEntry) (sum.hpp) forces one.

// sm_90: the H200's shapes and thresholds above, unchanged (the same kernels as before the key).
struct OnepassSm90Tuning {
  using TinyShape = OnepassTinyShape;
  using SmallShape = OnepassSmallShape;
  using MidShape = OnepassMidShape;
  using WideShape = OnepassWideShape;
  using LargeShape = OnepassLargeShape;
  static constexpr bool one_tile_mid = true;
  static constexpr std::int64_t wide_min_n = kOnepassWideMinN;
  static constexpr std::int64_t large_min_n = kOnepassLargeMinN;
  static constexpr std::int64_t block_collect_min_n = kOnepassBlockCollectMinN;
};

// generic: every SM without an entry of its own. Not measured anywhere but chosen to be safe on
// any SM >= 7.0, with nothing tied to Hopper's register file, shared memory or thread limits:
//   - 256 threads x 4 float4 loads in flight, the textbook shape, for the lean block and the grid
//     alike. 4 loads need 16 registers of loads, far below any budget below.
//   - at most 4 blocks per SM: 1024 threads, which every SM >= 7.0 holds (sm_75 exactly 1024,
//     the others 1536 or 2048, and 16 or more blocks). __launch_bounds__(256, 4) then caps a
//     thread at 64 registers (65536 / 1024), and every SM >= 7.0 has a 64K-register file. The
//     grid takes the minimum of this and the occupancy API (Onepass::max_grid), so a device that
//     fits fewer gets fewer, and the grid stays co-resident (what the finisher's wait relies on).
//     4 blocks of 256 x 4 float4s keep 64 KiB of loads in flight per SM.
//   - shared memory: only the block tree's one word per warp (static, 32 or 64 bytes), no
//     dynamic shared memory: far below any SM's per-block limit.
//   - n <= 4096 (one 256 x 4 tile): one lean block, as on sm_90 (no grid, no scratch). No
//     512 x 8 Small block: its edge on the H200 (0.18 µs at 8192 floats) rests on what one SM
//     streams, which differs by device; the grid is the portable choice above one tile.
//   - one grid shape above (Mid, Wide and Large are the same; there is no Wide or Large path). Completion by the
//     same rule as sm_90's threshold (2^22 = 256 Large tiles): FinishEarly while the grid is at
//     most 256 blocks, one batch of its slots per lane (n <= 256 tiles = 2^20 floats), FinishBlock
//     beyond, where a second batch would cost FinishEarly another L2 round trip.
struct OnepassGenericTuning {
  using TinyShape = LaunchShape<256, 4, 1>;
  using SmallShape = TinyShape;
  using MidShape = LaunchShape<256, 4, 4>;
  using WideShape = MidShape;
  using LargeShape = MidShape;
  static constexpr bool one_tile_mid = false;  // measured on sm_90 only
  static constexpr std::int64_t block_collect_min_n = 256 * MidShape::tile_floats + 1;
  static constexpr std::int64_t large_min_n = block_collect_min_n;
  static constexpr std::int64_t wide_min_n = large_min_n;  // no Wide path
};

}  // namespace rb::cuda
