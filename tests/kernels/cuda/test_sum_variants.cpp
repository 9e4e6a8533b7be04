// The contract every variant of kernels/cuda/sum.hpp's table shares, checked for each one directly:
// any n from 0 up (odd sizes, block/grid/chunk boundaries +-1), any start alignment.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <span>
#include <vector>

#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"
#include "tests/kernels/cuda/device.hpp"
#include "tests/support/data.hpp"
#include "tests/support/gpu.hpp"

namespace {

using rb::test::AnyVariant;

class SumVariant : public ::testing::TestWithParam<AnyVariant> {};

// Sizes where a variant's indexing changes regime, each -1, 0, +1: the float4 tail, one row
// (one load per thread), one tile (a full step of loads in flight), the largest grid's first
// full wave (every block exactly one row or tile: the chunk boundaries of EvenShare), one row
// more (the first block with a remainder row), two waves; and cuda/auto's switch (kAutoIlp4MinN).
std::vector<std::int64_t> boundary_sizes(const AnyVariant& v) {
  const auto small = v.geometry(1);
  const auto full = v.geometry(std::int64_t{1} << 40);
  const std::int64_t wave = std::int64_t{full.grid} * full.tile;
  std::vector<std::int64_t> sizes = {1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33};
  for (const std::int64_t c : {small.row, small.tile, 2 * small.tile, full.grid * full.row, wave, wave + full.row,
                               2 * wave, rb::cuda::kAutoIlp4MinN}) {
    for (const std::int64_t d : {-1, 0, 1}) sizes.push_back(c + d);
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

TEST_P(SumVariant, EmptyInputSumsToZero) {
  RB_REQUIRE_GPU();
  const AnyVariant& v = GetParam();
  EXPECT_EQ(v.sum(nullptr, 0), 0.0);
  const auto d = rb::test::upload(rb::test::random_signed(8, 1));
  for (int offset = 0; offset < 4; ++offset) EXPECT_EQ(v.sum(d.get() + offset, 0), 0.0) << "offset " << offset;
}

TEST_P(SumVariant, RandomOddSizes) {
  RB_REQUIRE_GPU();
  const AnyVariant& v = GetParam();
  const auto x = rb::test::random_signed(100'000, 17);
  const auto d = rb::test::upload(x);
  std::mt19937_64 rng(2024);
  std::uniform_int_distribution<std::int64_t> half(0, 49'999);
  for (int i = 0; i < 36; ++i) {
    const std::int64_t n = 2 * half(rng) + 1;
    RB_EXPECT_SUM(v.sum(d.get(), n), std::span(x).first(n), v.accumulation());
  }
}

TEST_P(SumVariant, BoundarySizesAtEveryAlignment) {
  RB_REQUIRE_GPU();
  const AnyVariant& v = GetParam();
  const auto sizes = boundary_sizes(v);
  const auto x = rb::test::random_signed(sizes.back() + 3, 29);
  const auto d = rb::test::upload(x);
  for (int offset = 0; offset < 4; ++offset) {
    for (const std::int64_t n : sizes) {
      SCOPED_TRACE(testing::Message() << "offset " << offset << ", n " << n);
      RB_EXPECT_SUM(v.sum(d.get() + offset, n), std::span(x).subspan(offset, n), v.accumulation());
    }
  }
}

TEST_P(SumVariant, StartOffsetByOneTwoThreeFloats) {
  RB_REQUIRE_GPU();
  const AnyVariant& v = GetParam();
  const auto x = rb::test::random_signed(100'003 + 3, 41);
  const auto d = rb::test::upload(x);
  for (int offset = 1; offset <= 3; ++offset) {
    for (const std::int64_t n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 31, 33, 1023, 4099, 100'003}) {
      SCOPED_TRACE(testing::Message() << "offset " << offset << ", n " << n);
      RB_EXPECT_SUM(v.sum(d.get() + offset, n), std::span(x).subspan(offset, n), v.accumulation());
    }
  }
}

// Every entry of kernels/cuda/sum.hpp's table, named as its backend (cuda/<name>).
INSTANTIATE_TEST_SUITE_P(Cuda, SumVariant, ::testing::ValuesIn(rb::test::every_variant()),
                         [](const ::testing::TestParamInfo<AnyVariant>& p) { return std::string(p.param.name()); });

}  // namespace
