// cuda/onepass beyond the shared contract (test_sum_variants.cpp): bitwise determinism, the
// slots emptying themselves between launches of different n (and after a NaN partial), every
// size path at its edges, the grid of one tile per block, both shipped completions on their own,
// and other launch shapes (the tune/onepass/*_block and *_early rows instantiate the same
// templates). The experiments' kernels have test_experimental.cu.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"
#include "tests/kernels/cuda/device.hpp"
#include "tests/support/data.hpp"
#include "tests/support/gpu.hpp"

namespace {

using rb::test::Acc;
using rb::test::DeviceArray;
using rb::test::nonzero_bytes;

TEST(Onepass, BitwiseDeterministicOverTenRuns) {
  RB_REQUIRE_GPU();
  const auto& v = rb::cuda::onepass;
  const std::int64_t max_n = 9'000'001;
  const auto x = rb::test::random_signed(max_n + 1, 3);
  const auto d = rb::test::upload(x);
  DeviceArray<unsigned char> scratch(v.scratch_bytes(max_n));
  DeviceArray<float> out(1);
  v.prepare(scratch.get(), v.scratch_bytes(max_n), nullptr);
  // Every grid completion: warp 0 of the last block collecting (mid and large shapes), and the
  // whole last block.
  for (const std::int64_t n : {std::int64_t{500'001}, std::int64_t{3'000'001}, max_n}) {
    SCOPED_TRACE(testing::Message() << "n " << n);
    ASSERT_GT(v.geometry(n).grid, 1) << "needs several blocks finishing in a different order each run";
    std::vector<float> results;
    for (int run = 0; run < 10; ++run)
      results.push_back(rb::test::sum_into(v, d.get() + 1, n, scratch.get(), out.get()));
    RB_EXPECT_SUM(results.front(), std::span(x).subspan(1, n), Acc::f32_tree);
    for (int run = 1; run < 10; ++run) {
      EXPECT_EQ(std::memcmp(&results[run], &results.front(), sizeof(float)), 0)
          << "run " << run << ": " << results[run] << " vs " << results.front();
    }
  }
}

TEST(Onepass, SlotsAreEmptyAgainAfterLaunchesOfDifferentN) {
  RB_REQUIRE_GPU();
  const auto& v = rb::cuda::onepass;
  const auto g = v.geometry(std::int64_t{1} << 40);
  const std::int64_t big = 3 * std::int64_t{g.grid} * g.tile + 5;  // full grid, several rows per block
  const auto x = rb::test::random_signed(big, 4);
  const auto d = rb::test::upload(x);
  const std::size_t bytes = v.scratch_bytes(big);  // the largest grid of the sequence
  DeviceArray<unsigned char> scratch(bytes);
  DeviceArray<float> out(1);
  v.prepare(scratch.get(), bytes, nullptr);  // once: every launch below must leave it all zero
  // Grids: full, 2 blocks, 1 block (touches no slot), full again, 25 blocks, none (n = 0).
  for (const std::int64_t n :
       {big, g.tile + 1, std::int64_t{1}, big - 3, std::int64_t{100'003}, std::int64_t{0}, big}) {
    SCOPED_TRACE(testing::Message() << "n " << n << ", grid " << v.geometry(n).grid);
    RB_EXPECT_SUM(rb::test::sum_into(v, d.get(), n, scratch.get(), out.get()), std::span(x).first(n),
                  Acc::f32_tree);
    EXPECT_EQ(nonzero_bytes(scratch.get(), bytes), 0) << "slots not put back to zero";
  }
}

// A partial whose bits are all ones (a negative NaN with a full payload) is the one value whose
// inverted encoding would read as an empty slot: the finisher must not wait for it forever, must
// return NaN, and must leave the slots empty for the next launch.
TEST(Onepass, NanPartialNeitherHangsNorLeaksIntoTheNextLaunch) {
  RB_REQUIRE_GPU();
  for (const auto* v : {&rb::cuda::onepass}) {
    const std::int64_t n = 3'000'001;
    ASSERT_GT(v->geometry(n).grid, 2);
    const auto x = rb::test::random_signed(n, 10);
    auto bad = x;
    const std::uint32_t all_ones = 0xFFFF'FFFFu;
    std::memcpy(&bad[17], &all_ones, sizeof(float));  // in block 0's chunk, not the finisher's
    const auto clean = rb::test::upload(x);
    const auto poisoned = rb::test::upload(bad);
    const std::size_t bytes = v->scratch_bytes(n);
    DeviceArray<unsigned char> scratch(bytes);
    DeviceArray<float> out(1);
    v->prepare(scratch.get(), bytes, nullptr);
    EXPECT_TRUE(std::isnan(rb::test::sum_into(*v, poisoned.get(), n, scratch.get(), out.get())));
    RB_EXPECT_SUM(rb::test::sum_into(*v, clean.get(), n, scratch.get(), out.get()), std::span(x),
                  Acc::f32_tree);
  }
}

// Every path of a tuning entry (OnepassTuned) at its edges, in float and double, at an unaligned
// start: one lean Tiny or Small block, the Mid grid, the Wide grid, the Large grid up to and past
// the size that fills the device, and the Huge grid (the whole last block collecting). Both entries run on any
// device (onepass_with); the shipped variant runs the current device's.
template <class Acc, class Tuning>
void expect_every_path_sums_correctly(const rb::cuda::Variant<Acc>& v) {
  using Tuned = rb::cuda::OnepassTuned<Acc, Tuning>;
  const std::int64_t tiny = Tuned::Tiny::kMaxN;
  const std::int64_t small = Tuned::Small::kMaxN;
  const std::int64_t wide = Tuning::wide_min_n;
  const std::int64_t large = Tuning::large_min_n;
  const std::int64_t full = std::int64_t{v.geometry(std::int64_t{1} << 40).grid} * Tuning::LargeShape::tile_floats;
  const std::int64_t huge = Tuning::block_collect_min_n;
  const auto x = rb::test::random_signed(std::max(full, huge) + 16, 6);
  const auto d = rb::test::upload(x);
  const rb::test::Acc acc = sizeof(Acc) == 8 ? rb::test::Acc::f64 : rb::test::Acc::f32_tree;
  for (const std::int64_t n : {tiny - 1, tiny, tiny + 1, small, small + 1, wide - 1, wide, wide + 1, large - 1,
                               large, full - 1, full, full + 5, huge - 1, huge, huge + 5}) {
    SCOPED_TRACE(testing::Message() << "n " << n << ", path " << static_cast<int>(Tuned::path(n)) << ", grid "
                                    << v.geometry(n).grid);
    RB_EXPECT_SUM(rb::test::sum_once(v, d.get() + 3, n), std::span(x).subspan(3, n), acc);
  }
}

TEST(Onepass, EveryPathAtItsEdges) {
  RB_REQUIRE_GPU();
  using rb::cuda::OnepassGenericTuning;
  using rb::cuda::OnepassSm90Tuning;
  using rb::cuda::TuningEntry;
  expect_every_path_sums_correctly<float, OnepassSm90Tuning>(rb::cuda::onepass_with(TuningEntry::sm90));
  expect_every_path_sums_correctly<double, OnepassSm90Tuning>(rb::cuda::onepass_accf64_with(TuningEntry::sm90));
  expect_every_path_sums_correctly<float, OnepassGenericTuning>(rb::cuda::onepass_with(TuningEntry::generic));
  expect_every_path_sums_correctly<double, OnepassGenericTuning>(rb::cuda::onepass_accf64_with(TuningEntry::generic));
}

// Another shape, with either shipped completion: grids far beyond one batch of slots too.
template <class Acc, int Threads, int Unroll, int BlocksPerSm, class Finish>
void expect_shape_sums_correctly() {
  const auto v = rb::cuda::Onepass<Acc, rb::cuda::LaunchShape<Threads, Unroll, BlocksPerSm>, Finish>::variant();
  const auto g = v.geometry(std::int64_t{1} << 40);
  const std::int64_t wave = std::int64_t{g.grid} * g.tile;
  const auto x = rb::test::random_signed(2 * wave + g.row + 3 + 3, 5);
  const auto d = rb::test::upload(x);
  const rb::test::Acc acc = sizeof(Acc) == 8 ? rb::test::Acc::f64 : rb::test::Acc::f32_tree;
  for (const int offset : {0, 3}) {
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{5}, g.row + 1, g.tile - 1, g.tile + 1, wave - 1,
                                 wave + g.row + 3, 2 * wave + g.row + 3}) {
      SCOPED_TRACE(testing::Message() << "t" << Threads << "_u" << Unroll << "_b" << BlocksPerSm
                                      << (std::is_same_v<Finish, rb::cuda::FinishEarly> ? "_early" : "_block")
                                      << ", offset " << offset << ", n " << n);
      RB_EXPECT_SUM(rb::test::sum_once(v, d.get() + offset, n), std::span(x).subspan(offset, n), acc);
    }
  }
}

TEST(Onepass, OtherLaunchShapes) {
  RB_REQUIRE_GPU();
  using rb::cuda::FinishBlock;
  using rb::cuda::FinishEarly;
  expect_shape_sums_correctly<float, 128, 4, 16, FinishEarly>();
  expect_shape_sums_correctly<float, 128, 4, 16, FinishBlock>();
  expect_shape_sums_correctly<float, 512, 2, 4, FinishEarly>();
  expect_shape_sums_correctly<float, 1024, 8, 1, FinishBlock>();
  expect_shape_sums_correctly<double, 1024, 8, 1, FinishEarly>();
  expect_shape_sums_correctly<double, 256, 8, 4, FinishBlock>();
  expect_shape_sums_correctly<float, 64, 8, 1, FinishBlock>();
  expect_shape_sums_correctly<float, 32, 32, 1, FinishEarly>();
}

// The lean one-block kernel: every size up to its tile that changes its predication, at every
// alignment (a head of 0 to 3 floats), and n beyond its tile refused.
template <int Threads, int Loads>
void expect_single_block_sums_correctly() {
  using Kernel = rb::cuda::SingleBlock<float, rb::cuda::LaunchShape<Threads, Loads, 1>>;
  const auto v = Kernel::variant();
  const std::int64_t tile = Kernel::kMaxN;
  const auto x = rb::test::random_signed(tile + 8, 12);
  const auto d = rb::test::upload(x);
  for (const int offset : {0, 1, 2, 3}) {
    for (const std::int64_t n :
         {std::int64_t{0}, std::int64_t{1}, std::int64_t{3}, std::int64_t{6}, std::int64_t{4 * Threads - 1},
          std::int64_t{4 * Threads + 5}, tile - 3, tile - 1, tile}) {
      SCOPED_TRACE(testing::Message() << "t" << Threads << "_u" << Loads << ", offset " << offset << ", n " << n);
      RB_EXPECT_SUM(rb::test::sum_once(v, d.get() + offset, n), std::span(x).subspan(offset, n), Acc::f32_tree);
    }
  }
  EXPECT_THROW(Kernel::sum(d.get(), tile + 1, nullptr, nullptr, nullptr), std::invalid_argument);
}

TEST(Onepass, SingleBlockKernel) {
  RB_REQUIRE_GPU();
  expect_single_block_sums_correctly<128, 8>();
  expect_single_block_sums_correctly<256, 4>();
  expect_single_block_sums_correctly<64, 16>();
}

// The grid of one tile per block (sm_90's Mid path), in float and double: at every alignment,
// sizes on either side of a tile and of the last tile a full grid of resident blocks covers,
// and beyond it (the looping grid then); one scratch buffer, left zeroed by every launch.
template <class Acc>
void expect_one_tile_grid_sums_and_cleans_up() {
  using Grid = rb::cuda::OneTileGrid<Acc, rb::cuda::OnepassMidShape>;
  const auto v = Grid::variant();
  const std::int64_t tile = Grid::kTile;
  const std::int64_t most = std::int64_t{Grid::max_grid()} * tile;  // one tile per resident block
  const auto x = rb::test::random_signed(most + 3 * tile + 8, 14);
  const auto d = rb::test::upload(x);
  const std::size_t bytes = v.scratch_bytes(most + 3 * tile);
  DeviceArray<unsigned char> scratch(bytes);
  DeviceArray<Acc> out(1);
  v.prepare(scratch.get(), bytes, nullptr);
  const rb::test::Acc acc = sizeof(Acc) == 8 ? rb::test::Acc::f64 : rb::test::Acc::f32_tree;
  for (const int offset : {0, 1, 3}) {
    for (const std::int64_t n : {tile + 1, 2 * tile - 1, 2 * tile, 7 * tile + 4 * 256 + 3, most - 1, most,
                                 most + 1, most + 3 * tile}) {
      SCOPED_TRACE(testing::Message() << "offset " << offset << ", n " << n << ", grid " << v.geometry(n).grid);
      RB_EXPECT_SUM(rb::test::sum_into(v, d.get() + offset, n, scratch.get(), out.get()),
                    std::span(x).subspan(offset, n), acc);
      EXPECT_EQ(nonzero_bytes(scratch.get(), bytes), 0) << "slots not put back to zero";
    }
  }
}

TEST(Onepass, OneTileGrid) {
  RB_REQUIRE_GPU();
  expect_one_tile_grid_sums_and_cleans_up<float>();
  expect_one_tile_grid_sums_and_cleans_up<double>();
}

// Both shipped completions on the Mid shape, whichever n would pick them: a full grid (several
// batches of slots for FinishEarly), a grid of a few blocks, and the full grid again, on one
// scratch buffer that every launch must leave zeroed.
template <class Acc, class Finish>
void expect_completion_sums_and_cleans_up() {
  constexpr std::int64_t kBig = rb::test::kCleanupMaxN;
  rb::test::expect_sums_and_cleans_up(rb::cuda::Onepass<Acc, rb::cuda::OnepassMidShape, Finish>::variant(),
                                      {kBig, 40'009, kBig - 1}, "Mid");
}

TEST(Onepass, ShippedCompletionsSumCorrectlyAndCleanUp) {
  RB_REQUIRE_GPU();
  expect_completion_sums_and_cleans_up<float, rb::cuda::FinishEarly>();
  expect_completion_sums_and_cleans_up<float, rb::cuda::FinishBlock>();
  expect_completion_sums_and_cleans_up<double, rb::cuda::FinishEarly>();
  expect_completion_sums_and_cleans_up<double, rb::cuda::FinishBlock>();
}

}  // namespace
