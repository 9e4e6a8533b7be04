// cuda/onepass_accf64: accuracy at full speed. Double accumulators must bring the error from float's
// ~log2(n) x 2^-24 down to <= 1e-12 of sum|x|.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "kernels/cuda/sum.hpp"
#include "tests/kernels/cuda/device.hpp"
#include "tests/support/data.hpp"
#include "tests/support/gpu.hpp"

namespace {

using rb::test::Acc;

std::vector<float> uniform(std::int64_t n, float lo, float hi, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> x(static_cast<std::size_t>(n));
  for (auto& v : x) v = u(rng);
  return x;
}

void expect_accurate(const std::vector<float>& x, int offset) {
  const auto n = static_cast<std::int64_t>(x.size()) - offset;
  const auto d = rb::test::upload(x);
  const std::span<const float> part = std::span(x).subspan(offset);
  const auto ref = rb::test::reference_of(part);
  const auto f64 = rb::test::verify(rb::test::sum_once(rb::cuda::onepass_accf64, d.get() + offset, n), ref, Acc::f64);
  const auto f32 = rb::test::verify(rb::test::sum_once(rb::cuda::onepass, d.get() + offset, n), ref, Acc::f32_tree);
  EXPECT_TRUE(f64.ok) << f64.message;
  EXPECT_LE(f64.rel_err, 1e-12) << "n = " << n << " (onepass in float: rel_err " << f32.rel_err << ")";
  ::testing::Test::RecordProperty("rel_err_f64_n" + std::to_string(n), std::to_string(f64.rel_err));
  ::testing::Test::RecordProperty("rel_err_f32_n" + std::to_string(n), std::to_string(f32.rel_err));
}

TEST(OnepassF64, RelErrBelow1e12OnUniformData) {
  RB_REQUIRE_GPU();
  expect_accurate(uniform(1'000'003, 0.0f, 1.0f, 5), 1);
  expect_accurate(uniform((std::int64_t{1} << 24) + 3, 0.0f, 1.0f, 6), 3);
}

TEST(OnepassF64, RelErrBelow1e12OnSignedData) {
  RB_REQUIRE_GPU();
  expect_accurate(uniform(1'000'003, -1.0f, 1.0f, 7), 2);
  expect_accurate(rb::test::random_signed((std::int64_t{1} << 22) + 1, 8), 0);
  expect_accurate(rb::test::ill_conditioned(1'000'001, 9), 1);
}

}  // namespace
