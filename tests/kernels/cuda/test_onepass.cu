// cuda/onepass beyond the shared contract (test_sum_variants.cpp): bitwise determinism, the
// completion counter resetting itself between launches of different n, and other launch shapes
// (the tune/onepass/* grid instantiates the same template).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"
#include "tests/kernels/cuda/device.hpp"
#include "tests/support/data.hpp"
#include "tests/support/gpu.hpp"

namespace {

using rb::bench::Accumulation;
using rb::test::DeviceArray;

TEST(Onepass, BitwiseDeterministicOverTenRuns) {
  RB_REQUIRE_GPU();
  const auto& v = rb::cuda::onepass;
  const auto x = rb::test::random_signed(3'000'001 + 1, 3);
  const auto d = rb::test::upload(x);
  const std::int64_t n = 3'000'001;
  DeviceArray<unsigned char> scratch(v.scratch_bytes(n));
  DeviceArray<float> out(1);
  v.prepare(scratch.get(), nullptr);
  ASSERT_GT(v.geometry(n).grid, 1) << "needs several blocks to race for the last ticket";
  std::vector<float> results;
  for (int run = 0; run < 10; ++run) results.push_back(rb::test::sum_into(v, d.get() + 1, n, scratch.get(), out.get()));
  RB_EXPECT_SUM(results.front(), std::span(x).subspan(1), Accumulation::f32_tree);
  for (int run = 1; run < 10; ++run) {
    EXPECT_EQ(std::memcmp(&results[run], &results.front(), sizeof(float)), 0)
        << "run " << run << ": " << results[run] << " vs " << results.front();
  }
}

TEST(Onepass, CounterResetsItselfAcrossLaunchesOfDifferentN) {
  RB_REQUIRE_GPU();
  const auto& v = rb::cuda::onepass;
  const auto g = v.geometry(std::int64_t{1} << 40);
  const std::int64_t big = 3 * std::int64_t{g.grid} * g.tile + 5;  // full grid, several rows per block
  const auto x = rb::test::random_signed(big, 4);
  const auto d = rb::test::upload(x);
  DeviceArray<unsigned char> scratch(v.scratch_bytes(big));  // the largest grid of the sequence
  DeviceArray<float> out(1);
  v.prepare(scratch.get(), nullptr);  // once: every launch below must leave the counter at 0
  // Grids: full, 2 blocks, 1 block (skips the counter), full again, 25 blocks, none (n = 0).
  for (const std::int64_t n : {big, g.tile + 1, std::int64_t{1}, big - 3, std::int64_t{100'003}, std::int64_t{0}, big}) {
    SCOPED_TRACE(testing::Message() << "n " << n << ", grid " << v.geometry(n).grid);
    RB_EXPECT_SUM(rb::test::sum_into(v, d.get(), n, scratch.get(), out.get()), std::span(x).first(n),
                  Accumulation::f32_tree);
    EXPECT_EQ(rb::test::read_back(reinterpret_cast<const unsigned*>(scratch.get())), 0u) << "counter not reset";
  }
}

// Another shape, through the same template the tuning grid uses.
template <class Acc, int Threads, int Unroll, int BlocksPerSm>
void expect_shape_sums_correctly() {
  const auto v = rb::cuda::Onepass<Acc, rb::cuda::LaunchShape<Threads, Unroll, BlocksPerSm>>::variant();
  const auto g = v.geometry(std::int64_t{1} << 40);
  const std::int64_t wave = std::int64_t{g.grid} * g.tile;
  const auto x = rb::test::random_signed(2 * wave + g.row + 3 + 3, 5);
  const auto d = rb::test::upload(x);
  const Accumulation acc = sizeof(Acc) == 8 ? Accumulation::f64 : Accumulation::f32_tree;
  for (const int offset : {0, 3}) {
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{5}, g.row + 1, g.tile - 1, g.tile + 1, wave - 1,
                                 wave + g.row + 3, 2 * wave + g.row + 3}) {
      SCOPED_TRACE(testing::Message() << "t" << Threads << "_u" << Unroll << "_b" << BlocksPerSm << ", offset "
                                      << offset << ", n " << n);
      RB_EXPECT_SUM(rb::test::sum_once(v, d.get() + offset, n), std::span(x).subspan(offset, n), acc);
    }
  }
}

TEST(Onepass, OtherLaunchShapes) {
  RB_REQUIRE_GPU();
  expect_shape_sums_correctly<float, 128, 4, 16>();
  expect_shape_sums_correctly<float, 512, 2, 4>();
  expect_shape_sums_correctly<float, 1024, 8, 1>();
  expect_shape_sums_correctly<double, 1024, 8, 1>();
}

}  // namespace
