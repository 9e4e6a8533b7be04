#pragma once
// Launch constants of the hand-written kernels, as data: each with why in a line and the section of
// results/h200/tuning.md that holds its measurements (cold, median µs on the H200, round by round).
// Plain C++ (no device code): host code and tests read these too.
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

// cuda/auto: vec4_ilp4 from here on, vec4 below, where vec4 is faster
// (results/h200/tuning.md#shapes-grid).
inline constexpr std::int64_t kAutoIlp4MinN = std::int64_t{1} << 21;

// cuda/onepass, onepass_accf64 on sm_90 (OnepassSm90Tuning below). Up to one tile, one lean block
// (SingleBlock) beats one block of the grid kernel: Tiny up to 4096, Small up to 16384
// (results/h200/tuning.md#round-6).
using OnepassTinyShape = LaunchShape<256, 4, 1>;
using OnepassSmallShape = LaunchShape<512, 8, 1>;

// A grid: Mid, then Wide (below), then Large above 2^20 floats (4 MiB), where Large overtakes Mid
// (results/h200/tuning.md#round-8); 2^19 stays on Mid, which double needs (#spillfree there).
// Large is the shape grid's fastest from 2^20 up (results/h200/tuning.md#shapes-grid). Mid blocks
// sum one tile each with the lean body (OneTileGrid), ahead of the looping chunk (#round-17).
using OnepassMidShape = LaunchShape<256, 4, 4>;
using OnepassLargeShape = LaunchShape<512, 8, 2>;
inline constexpr std::int64_t kOnepassLargeMinN = (std::int64_t{1} << 20) + 1;

// Wide: from 1.5 MiB to 4 MiB of input, tiles of 256 x 8, one per block, faster than the top of
// Mid and the bottom of Large in float and double (results/h200/tuning.md#round-19); completed by
// FinishFixed as Mid is (onepass.cuh: TileFinish), the fastest completion there (#round-30).
// 4 MiB is 128 Wide tiles: FinishFixed's largest grid, for every T (onepass.cuh checks).
using OnepassWideShape = LaunchShape<256, 8, 4>;
inline constexpr std::int64_t kOnepassWideMinN = std::int64_t{3} << 17;

// Who adds the partials: FinishEarly below this n, FinishBlock from it. FinishEarly's one batch
// holds 256 slots, the Large grid up to 2^22; beyond, a second batch loses to the whole last block
// (results/h200/tuning.md#round-16, #round-9).
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

// sm_90: the H200's shapes and thresholds above.
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
