#include "bench/verify.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "tests/support/data.hpp"

namespace {

using rb::bench::Accumulation;
using rb::bench::verify;

float float_tree_sum(const float* x, std::int64_t n) {
  if (n == 0) return 0.0f;
  if (n == 1) return x[0];
  return float_tree_sum(x, n / 2) + float_tree_sum(x + n / 2, n - n / 2);
}

TEST(Verify, TreeSumOfSignedDataPasses) {
  for (const std::int64_t n : {1, 2, 31, 33, 4097, 100'001, 1 << 20}) {
    const auto x = rb::test::random_signed(n, 99 + static_cast<std::uint64_t>(n));
    RB_EXPECT_SUM(float_tree_sum(x.data(), n), x, Accumulation::f32_tree);
  }
}

TEST(Verify, SignedDataSummingToNearZeroDoesNotFailSpuriously) {
  // x, -x interleaved with a tiny residue: |ref| ~ 1e-3 while sum|x| ~ 1e5. A bound relative to
  // |ref| would reject any float summation; ours scales with sum|x|.
  auto x = rb::test::random_signed(50'000, 3);
  const auto half = x;
  x.insert(x.end(), half.begin(), half.end());
  for (std::size_t i = half.size(); i < x.size(); ++i) x[i] = -x[i];
  x.push_back(1e-3f);
  const auto ref = rb::test::reference_of(x);
  EXPECT_NEAR(ref.sum, 1e-3, 1e-9);
  const auto v = verify(float_tree_sum(x.data(), static_cast<std::int64_t>(x.size())), ref, Accumulation::f32_tree);
  EXPECT_TRUE(v.ok) << v.message;
}

TEST(Verify, ToleranceCanFail) {
  // One element dropped, or one counted twice (a tail or an overlap bug). The largest element is
  // moved to the end: a bug that loses a tiny element among 10^5 is below any rounding bound, so
  // the kernels' tests rely on small odd sizes for those.
  for (const std::int64_t n : {2, 33, 4097, 100'001}) {
    auto x = rb::test::random_signed(n, 1 + static_cast<std::uint64_t>(n));
    std::swap(*std::max_element(x.begin(), x.end(), [](float a, float b) { return std::fabs(a) < std::fabs(b); }),
              x.back());
    const auto ref = rb::test::reference_of(x);
    const float dropped = float_tree_sum(x.data(), n - 1);
    const float doubled = float_tree_sum(x.data(), n) + x.back();
    EXPECT_FALSE(verify(dropped, ref, Accumulation::f32_tree).ok) << n;
    EXPECT_FALSE(verify(doubled, ref, Accumulation::f32_tree).ok) << n;
    EXPECT_FALSE(verify(static_cast<double>(dropped), ref, Accumulation::f64).ok) << n;
  }
}

TEST(Verify, RelativeErrorAndMessage) {
  const auto x = rb::test::random_signed(1000, 8);
  const auto ref = rb::test::reference_of(x);
  const auto v = verify(ref.sum + 1.0, ref, Accumulation::f32_tree);
  EXPECT_FALSE(v.ok);
  EXPECT_NEAR(v.rel_err, 1.0 / ref.sum_abs, 1e-12);
  EXPECT_NE(v.message.find("expected"), std::string::npos);
  EXPECT_NE(v.message.find("got"), std::string::npos);
  EXPECT_GT(v.rel_tol, 0.0);
}

TEST(Verify, ToleranceOrdering) {
  const auto x = rb::test::random_signed(1 << 16, 4);
  const auto ref = rb::test::reference_of(x);
  using rb::bench::tolerance;
  EXPECT_LT(tolerance(Accumulation::f64, ref), tolerance(Accumulation::f32_tree, ref));
  EXPECT_LT(tolerance(Accumulation::f32_tree, ref), tolerance(Accumulation::f32_sequential, ref));
}

TEST(Verify, NonFiniteMustMatchInKind) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  rb::bench::Reference ref;
  ref.n = 10;
  ref.nan = 1;
  EXPECT_TRUE(verify(nan, ref, Accumulation::f32_tree).ok);
  EXPECT_FALSE(verify(inf, ref, Accumulation::f32_tree).ok);
  EXPECT_FALSE(verify(1.0, ref, Accumulation::f32_tree).ok);
  ref.nan = 0;
  ref.pos_inf = 2;
  EXPECT_TRUE(verify(inf, ref, Accumulation::f32_tree).ok);
  EXPECT_FALSE(verify(-inf, ref, Accumulation::f32_tree).ok);
  EXPECT_FALSE(verify(nan, ref, Accumulation::f32_tree).ok);
  ref.pos_inf = 0;  // finite reference: a NaN result (e.g. an unwritten, poisoned slot) fails
  ref.sum = 1.0;
  ref.sum_abs = 1.0;
  const auto v = verify(nan, ref, Accumulation::f32_tree);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("NaN"), std::string::npos);
}

}  // namespace
