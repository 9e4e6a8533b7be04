#include "bench/detail/reference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "tests/support/data.hpp"

namespace {

using rb::bench::compute_references;

rb::bench::ChunkSource view(const std::vector<float>& x) {
  return [&x](std::int64_t b, std::int64_t, float*) { return x.data() + b; };
}

long double naive_long_double(const std::vector<float>& x, std::int64_t n) {
  long double s = 0;
  for (std::int64_t i = 0; i < n; ++i) s += x[static_cast<std::size_t>(i)];
  return s;
}

TEST(Reference, EverySizeInOnePassAcrossChunkBoundaries) {
  // 2^20 is the internal chunk: sizes on both sides of it and of 2^21.
  const auto x = rb::test::random_signed((1 << 21) + 5, 17);
  const std::vector<std::int64_t> sizes = {0, 1, 33, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, (1 << 21) + 5};
  const auto refs = compute_references(sizes, view(x));
  ASSERT_EQ(refs.size(), sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    EXPECT_EQ(refs[i].n, sizes[i]);
    const long double want = naive_long_double(x, sizes[i]);
    EXPECT_NEAR(refs[i].sum, static_cast<double>(want), 1e-9 * (1 + std::fabs(static_cast<double>(want))));
  }
  EXPECT_EQ(refs[0].sum, 0.0);
  EXPECT_EQ(refs[0].sum_abs, 0.0);
}

TEST(Reference, ScanExtendsWithoutRereading) {
  const auto x = rb::test::random_signed(3'000'000, 21);
  std::int64_t read = 0;
  rb::bench::ReferenceScan scan([&](std::int64_t b, std::int64_t e, float*) {
    __atomic_add_fetch(&read, e - b, __ATOMIC_RELAXED);
    return x.data() + b;
  });
  const auto first = scan.extend(std::vector<std::int64_t>{5, 1'000'000});
  const auto second = scan.extend(std::vector<std::int64_t>{1'000'000, 2'500'001});
  EXPECT_EQ(read, 2'500'001) << "every element read exactly once";
  const auto once = compute_references(std::vector<std::int64_t>{5, 1'000'000, 2'500'001}, view(x));
  EXPECT_EQ(first[0].sum, once[0].sum);
  EXPECT_EQ(first[1].sum, once[1].sum);
  EXPECT_EQ(second[1].sum, once[2].sum);
  EXPECT_EQ(second[1].sum_abs, once[2].sum_abs);
  EXPECT_THROW(scan.extend(std::vector<std::int64_t>{10}), std::logic_error);
}

TEST(Reference, ExactOnCancellingData) {
  // 1e8, then 1e-3 x 1000, then -1e8: a double accumulator sums to ~1.0 with error ~1e-8 here;
  // the compensated reference gets the float values' exact sum.
  std::vector<float> x = {1e8f};
  double small = 0;
  for (int i = 0; i < 1000; ++i) {
    x.push_back(1e-3f);
    small += static_cast<double>(1e-3f);
  }
  x.push_back(-1e8f);
  const std::int64_t n = static_cast<std::int64_t>(x.size());
  const auto ref = compute_references(std::vector<std::int64_t>{n}, view(x)).front();
  EXPECT_NEAR(ref.sum, small, 1e-15);
}

TEST(Reference, ExactAcrossInterleavedSumsAndNonFiniteAtEveryPosition) {
  // A chunk is summed in interleaved compensated sums: a large value in one, its negation in
  // another, and non-finite values at every position modulo 8, in a size that is no multiple of 4.
  std::vector<float> x = rb::test::random_signed(1'003, 5);
  x[0] = 1e8f;
  x[501] = -1e8f;
  long double want = 0;
  for (std::size_t k = 0; k < x.size(); ++k) want += k == 0 || k == 501 ? 0.0L : x[k];
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> y = x;
  for (std::size_t k = 100; k < 108; ++k) y[k] = k % 3 == 0 ? inf : k % 3 == 1 ? -inf : std::nanf("");
  long double dropped = 0;
  for (std::size_t k = 100; k < 108; ++k) dropped += x[k];
  const auto n = static_cast<std::int64_t>(x.size());
  const auto ref = compute_references(std::vector<std::int64_t>{n}, view(x)).front();
  EXPECT_NEAR(ref.sum, static_cast<double>(want), 1e-12 * (1 + std::fabs(static_cast<double>(want))));
  const auto bad = compute_references(std::vector<std::int64_t>{n}, view(y)).front();
  EXPECT_EQ(bad.nan + bad.pos_inf + bad.neg_inf, 8);
  EXPECT_NEAR(bad.sum, static_cast<double>(want - dropped), 1e-12 * (1 + std::fabs(static_cast<double>(want))))
      << "the finite values around the non-finite ones are still summed";
}

TEST(Reference, NonFiniteValuesAreCountedAndExpectedInKind) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = {1.0f, inf, 2.0f, -inf, std::nanf(""), 3.0f};
  const auto refs = compute_references(std::vector<std::int64_t>{1, 2, 3, 4, 5, 6}, view(x));
  EXPECT_TRUE(refs[0].finite());
  EXPECT_EQ(refs[0].expected(), 1.0);
  EXPECT_EQ(refs[1].pos_inf, 1);
  EXPECT_EQ(refs[1].expected(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(refs[2].sum, 3.0) << "finite values are still summed";
  EXPECT_TRUE(std::isnan(refs[3].expected())) << "+Inf + -Inf is NaN";
  EXPECT_EQ(refs[4].nan, 1);
  EXPECT_TRUE(std::isnan(refs[5].expected()));
}

}  // namespace
