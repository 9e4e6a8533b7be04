#pragma once
// What FinishFixed's tests share (test_finish_fixed.cu, test_finish_fixed_f64.cu): which elements
// warp 0 samples (kernels/cuda/fixed_grid.cuh: FixedGrid::sample), exact sums of small integers,
// and the inputs no grid fits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace rb::test {

// The elements of the 16-byte vectors warp 0 samples for n elements of T at an aligned start.
template <class T>
std::vector<std::int64_t> sampled_elements(std::int64_t n) {
  constexpr std::int64_t kPerVec = 16 / sizeof(T);
  std::vector<std::int64_t> at;
  const std::int64_t vectors = n / kPerVec;
  for (std::int64_t lane = 0; lane < 32; ++lane)
    for (std::int64_t k = 0; k < kPerVec; ++k) at.push_back(lane * vectors / 32 * kPerVec + k);
  return at;
}

// Integers below 2^53 in total: exact in double, in any order.
template <class T>
double exact_sum(std::span<const T> x) {
  double s = 0;
  for (const T v : x) s += static_cast<double>(v);
  return s;
}

// No grid: clean scaled by 2^tiny_exp (a largest |x| whose bottom is below the accumulator's), or
// an infinity at sampled element inf_at; every block takes the slot path and the sum is still
// exact. A NaN at unsampled (outside the sample): the sum is NaN. A clean call after each gives
// the exact sum again, and every launch leaves the scratch zeroed. sum(x) and zeroed(): one call.
template <class T, class Sum, class Zeroed>
void expect_no_grid_or_nan_correct(const std::vector<T>& clean, int tiny_exp, std::int64_t inf_at,
                                   std::int64_t unsampled, Sum sum, Zeroed zeroed) {
  const double exact = exact_sum(std::span<const T>(clean));
  auto tiny = clean;
  for (T& v : tiny) v = std::ldexp(v, tiny_exp);
  auto inf = clean;
  inf[static_cast<std::size_t>(inf_at)] = std::numeric_limits<T>::infinity();
  const auto sampled = sampled_elements<T>(static_cast<std::int64_t>(clean.size()));
  ASSERT_EQ(std::find(sampled.begin(), sampled.end(), unsampled), sampled.end());
  auto nan = clean;
  nan[static_cast<std::size_t>(unsampled)] = std::numeric_limits<T>::quiet_NaN();
  EXPECT_EQ(sum(tiny), std::ldexp(exact, tiny_exp));
  EXPECT_TRUE(zeroed());
  EXPECT_EQ(sum(inf), std::numeric_limits<T>::infinity());
  EXPECT_TRUE(zeroed());
  EXPECT_EQ(sum(clean), exact);
  EXPECT_TRUE(std::isnan(sum(nan)));
  EXPECT_TRUE(zeroed());
  EXPECT_EQ(sum(clean), exact);
}

}  // namespace rb::test
