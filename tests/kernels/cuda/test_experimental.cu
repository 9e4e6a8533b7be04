// Experiments' kernels (kernels/cuda/experimental/), which only the tune/* rows run: compiled with
// every build so that they do not rot, and held to the same results as the shipped kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>

#include "kernels/cuda/experimental/completions.cuh"
#include "kernels/cuda/experimental/finish_staggered.cuh"
#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/tuning.cuh"
#include "tests/kernels/cuda/device.hpp"
#include "tests/support/data.hpp"
#include "tests/support/gpu.hpp"

namespace {

using rb::cuda::experimental::Completion;
using rb::cuda::experimental::OnepassCompletion;
using rb::test::DeviceArray;

const char* name(Completion c) {
  return c == Completion::finisher_polls ? "finisher_polls"
         : c == Completion::ticket_polls  ? "ticket_polls"
                                          : "ticket_fenced";
}

// A full grid (one batch of 16 slots per lane for the H200's grids, more elsewhere), a grid of a
// few blocks, n = 0 and the full grid again, on one scratch buffer that every launch, ticket
// included, must leave zeroed.
template <class Acc, class Shape, Completion C>
void expect_completion_sums_and_cleans_up() {
  constexpr std::int64_t kBig = rb::test::kCleanupMaxN;
  rb::test::expect_sums_and_cleans_up(OnepassCompletion<Acc, Shape, C>::variant(), {kBig, 40'009, 0, kBig - 1},
                                      std::string(name(C)) + ", t" + std::to_string(Shape::threads) + "_u" +
                                          std::to_string(Shape::unroll) + "_b" + std::to_string(Shape::blocks_per_sm));
}

TEST(Experimental, EveryCompletionSumsCorrectlyAndCleansUp) {
  RB_REQUIRE_GPU();
  using Mid = rb::cuda::OnepassMidShape;
  using Large = rb::cuda::OnepassLargeShape;
  expect_completion_sums_and_cleans_up<float, Mid, Completion::finisher_polls>();
  expect_completion_sums_and_cleans_up<float, Mid, Completion::ticket_polls>();
  expect_completion_sums_and_cleans_up<float, Mid, Completion::ticket_fenced>();
  expect_completion_sums_and_cleans_up<float, Large, Completion::ticket_polls>();
  expect_completion_sums_and_cleans_up<double, Large, Completion::finisher_polls>();
  expect_completion_sums_and_cleans_up<double, Mid, Completion::ticket_fenced>();
}

// The tune/onepass/t* grid's other shapes (finisher_polls), among them the one-warp blocks and the
// grids of several batches, at every alignment.
template <int Threads, int Unroll, int BlocksPerSm>
void expect_shape_sums_correctly() {
  using Shape = rb::cuda::LaunchShape<Threads, Unroll, BlocksPerSm>;
  const auto v = OnepassCompletion<float, Shape, Completion::finisher_polls>::variant();
  const auto g = v.geometry(std::int64_t{1} << 40);
  const std::int64_t wave = std::int64_t{g.grid} * g.tile;
  const auto x = rb::test::random_signed(2 * wave + g.row + 3 + 3, 5);
  const auto d = rb::test::upload(x);
  for (const int offset : {0, 3}) {
    for (const std::int64_t n :
         {std::int64_t{0}, std::int64_t{5}, g.row + 1, g.tile + 1, wave - 1, 2 * wave + g.row + 3}) {
      SCOPED_TRACE(testing::Message() << "t" << Threads << "_u" << Unroll << "_b" << BlocksPerSm << ", offset "
                                      << offset << ", n " << n);
      RB_EXPECT_SUM(rb::test::sum_once(v, d.get() + offset, n), std::span(x).subspan(offset, n),
                    rb::test::Acc::f32_tree);
    }
  }
}

TEST(Experimental, PollingFinisherOnOtherShapes) {
  RB_REQUIRE_GPU();
  expect_shape_sums_correctly<128, 4, 16>();
  expect_shape_sums_correctly<1024, 8, 1>();
  expect_shape_sums_correctly<32, 32, 1>();
}

// FinishStaggered on the Wide shape's one-tile grid against FinishEarly on the same grid, in float
// and double: the same bits at every size from one block to the largest grid one batch
// holds (whichever warp claims the sum, it adds in FinishEarly's order), the same bits in every run,
// the slots left zeroed; a grid beyond one batch refused.
template <class Acc>
void expect_staggered_is_finish_early_bitwise() {
  using Shape = rb::cuda::OnepassWideShape;
  using Staggered = rb::cuda::OneTileGrid<Acc, Shape, float, rb::cuda::experimental::FinishStaggered<64>>;
  using Early = rb::cuda::OneTileGrid<Acc, Shape, float, rb::cuda::FinishEarly>;
  constexpr int kMaxGrid = rb::cuda::experimental::FinishStaggered<64>::kMaxGrid;
  const std::int64_t tile = Staggered::kTile;
  const std::int64_t most = std::min<std::int64_t>(kMaxGrid, Staggered::max_grid()) * tile;
  const auto x = rb::test::random_signed(most + tile + 8, 15);
  const auto d = rb::test::upload(x);
  const std::size_t bytes = Staggered::scratch_bytes(most);
  DeviceArray<unsigned char> scratch(bytes);
  DeviceArray<Acc> out(1);
  const auto staggered = Staggered::variant();
  const auto early = Early::variant();
  staggered.prepare(scratch.get(), bytes, nullptr);
  const rb::test::Acc acc = sizeof(Acc) == 8 ? rb::test::Acc::f64 : rb::test::Acc::f32_tree;
  for (const int offset : {0, 3}) {
    for (const std::int64_t n : {std::int64_t{5}, tile - 1, tile + 1, 2 * tile + 7, 97 * tile - 3, most - 1, most}) {
      SCOPED_TRACE(testing::Message() << "offset " << offset << ", n " << n << ", grid " << staggered.geometry(n).grid);
      const Acc want = rb::test::sum_into(early, d.get() + offset, n, scratch.get(), out.get());
      RB_EXPECT_SUM(want, std::span(x).subspan(offset, n), acc);
      for (int run = 0; run < 5; ++run) {
        const Acc have = rb::test::sum_into(staggered, d.get() + offset, n, scratch.get(), out.get());
        EXPECT_EQ(std::memcmp(&have, &want, sizeof(Acc)), 0) << "run " << run << ": " << have << " vs " << want;
      }
      EXPECT_EQ(rb::test::nonzero_bytes(scratch.get(), bytes), 0) << "slots not put back to zero";
    }
  }
  if (Staggered::max_grid() > kMaxGrid) {
    DeviceArray<unsigned char> big(Staggered::scratch_bytes(most + tile));
    EXPECT_THROW(staggered.sum(d.get(), most + tile, big.get(), out.get(), nullptr), std::invalid_argument);
  }
}

TEST(Experimental, StaggeredCompletionIsFinishEarlyBitwise) {
  RB_REQUIRE_GPU();
  expect_staggered_is_finish_early_bitwise<float>();
  expect_staggered_is_finish_early_bitwise<double>();
}

}  // namespace
