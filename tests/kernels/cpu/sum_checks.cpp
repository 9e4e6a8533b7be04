#include "tests/kernels/cpu/sum_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <span>

#include "tests/support/data.hpp"

namespace rb::test {
namespace {

constexpr std::int64_t kLargeSizes[] = {1'000'003, (std::int64_t{1} << 22) + 1};
constexpr std::int64_t kLargeMax = (std::int64_t{1} << 22) + 1;
constexpr int kPad = 64;  // data past the end of every range: an over-read changes the sum

// Exact in float while every partial sum is below 2^24 in magnitude.
int exact_max_abs(std::int64_t n) {
  return static_cast<int>(std::clamp<std::int64_t>((std::int64_t{1} << 24) / std::max<std::int64_t>(n, 1), 1, 100));
}

double exact_sum(std::span<const float> x) {
  double s = 0;  // integers far below 2^53: exact
  for (const float v : x) s += v;
  return s;
}

const std::vector<float>& large_random() {
  static const auto x = random_signed(kLargeMax + kMaxOffset + kPad, 2024);
  return x;
}

const std::vector<float>& large_integers() {
  static const auto x = small_integers(kLargeMax + kMaxOffset + kPad, exact_max_abs(kLargeMax), 2025);
  return x;
}

}  // namespace

std::vector<float> small_integers(std::int64_t n, int max_abs, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> mag(1, max_abs);
  std::bernoulli_distribution neg(0.5);
  std::vector<float> x(static_cast<std::size_t>(n));
  for (auto& v : x) v = static_cast<float>(neg(rng) ? -mag(rng) : mag(rng));
  return x;
}

void expect_sum_every_size(const SumFn& sum, test::Acc acc, std::int64_t max_n) {
  const auto x = random_signed(max_n + kMaxOffset + kPad, 99);
  for (int offset = 0; offset <= kMaxOffset; ++offset) {
    for (std::int64_t n = 0; n <= max_n; ++n) {
      const std::span<const float> range(x.data() + offset, static_cast<std::size_t>(n));
      SCOPED_TRACE(testing::Message() << "random_signed, n = " << n << ", offset = " << offset);
      RB_EXPECT_SUM(sum(range.data(), n), range, acc);
      if (testing::Test::HasFailure()) return;
    }
  }
}

void expect_exact_every_size(const SumFn& sum, std::int64_t max_n) {
  const auto x = small_integers(max_n + kMaxOffset + kPad, exact_max_abs(max_n + kPad), 7);
  for (int offset = 0; offset <= kMaxOffset; ++offset) {
    for (std::int64_t n = 0; n <= max_n; ++n) {
      const std::span<const float> range(x.data() + offset, static_cast<std::size_t>(n));
      const double want = exact_sum(range);
      const double got = sum(range.data(), n);
      if (got != want) {
        ADD_FAILURE() << "integers, n = " << n << ", offset = " << offset << ": expected exactly "
                      << want << ", got " << got << " (off by " << got - want << ")";
        return;
      }
    }
  }
}

void expect_large_sizes(const SumFn& sum, test::Acc acc) {
  for (const std::int64_t n : kLargeSizes) {
    for (const int offset : {0, 3}) {
      SCOPED_TRACE(testing::Message() << "n = " << n << ", offset = " << offset);
      const std::span<const float> random(large_random().data() + offset, static_cast<std::size_t>(n));
      RB_EXPECT_SUM(sum(random.data(), n), random, acc);
      const std::span<const float> ints(large_integers().data() + offset, static_cast<std::size_t>(n));
      EXPECT_EQ(sum(ints.data(), n), exact_sum(ints)) << "integers";
    }
  }
}

void expect_non_finite(const SumFn& sum) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  constexpr float nan = std::numeric_limits<float>::quiet_NaN();
  const float one_inf[] = {inf};
  EXPECT_EQ(sum(one_inf, 1), inf) << "n = 1";
  for (const std::int64_t n : {2, 37, 1000, 100'003}) {
    auto x = random_signed(n, 5);
    const auto last = static_cast<std::size_t>(n - 1);
    SCOPED_TRACE(testing::Message() << "n = " << n);
    x[last / 2] = inf;
    EXPECT_EQ(sum(x.data(), n), inf) << "+Inf in the input";
    x[last] = -inf;
    EXPECT_TRUE(std::isnan(sum(x.data(), n))) << "+Inf and -Inf in the input";
    x[last] = 1.0f;
    x[last / 2] = nan;
    EXPECT_TRUE(std::isnan(sum(x.data(), n))) << "NaN in the input";
  }
}

void expect_compensated_bound(const SumFn& sum) {
  const auto check = [&](std::span<const float> x) {
    const auto ref = reference_of(x);
    const double err = std::fabs(sum(x.data(), ref.n) - ref.sum);
    EXPECT_LE(err, 4.0 * 0x1p-24 * ref.sum_abs) << "n = " << ref.n;
  };
  const auto x = random_signed(kEverySizeMax, 123);
  for (std::int64_t n = 0; n <= kEverySizeMax; n += 7)
    check(std::span<const float>(x.data(), static_cast<std::size_t>(n)));
  for (const std::int64_t n : kLargeSizes)
    check(std::span<const float>(large_random().data(), static_cast<std::size_t>(n)));
}

void expect_exact_with_outliers(const SumFn& sum) {
  constexpr float big = 0x1p30f;
  const auto base = small_integers(300 + kMaxOffset + kPad, 100, 31);
  for (int offset = 0; offset <= kMaxOffset; ++offset) {
    for (std::int64_t n = 1; n <= 300; ++n) {
      const auto first = static_cast<std::size_t>(offset);
      for (int pattern = 0; pattern < 3; ++pattern) {
        if (pattern > 0 && n < 2) continue;
        auto x = base;
        x[first] = big;
        if (pattern == 1) x[first + 1] = -big;
        if (pattern == 2) x[first + 1] = big;
        const std::span<const float> range(x.data() + offset, static_cast<std::size_t>(n));
        const double want = exact_sum(range);
        const double got = sum(range.data(), n);
        if (got != want) {
          ADD_FAILURE() << "outlier pattern " << pattern << ", n = " << n << ", offset = " << offset
                        << ": expected exactly " << want << ", got " << got << " (off by " << got - want << ")";
          return;
        }
      }
    }
  }
}

double ill_conditioned_error(const SumFn& sum, std::int64_t n) {
  const auto x = ill_conditioned(n, 17);
  return std::fabs(sum(x.data(), n) - reference_of(x).sum);
}

void expect_beats_float(const SumFn& naive, const SumFn& better) {
  for (const auto n : kIllConditionedSizes) {
    const double naive_error = ill_conditioned_error(naive, n);
    ASSERT_GT(naive_error, 0) << "n = " << n << ": the data no longer defeats a float sum";
    EXPECT_LT(ill_conditioned_error(better, n), naive_error) << "n = " << n;
  }
}

}  // namespace rb::test
