// The exact check's sparse data (bench/detail/exact_data.hpp): a 16-bit accumulator sums it exactly in
// any order, where it does not sum the dense integers exactly; and every set touches both ends.
#include "bench/detail/exact_data.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "common/dtype.hpp"
#include "common/synth.hpp"

namespace {

using rb::bench::kSparseCount;
using rb::bench::sparse_set;

// Adds in f16 or bf16 as such an accumulator does: each addition rounded to the type.
template <class Half>
float add16(float a, float b) {
  if constexpr (std::is_same_v<Half, rb::f16>) return rb::to_float(rb::to_f16(a + b));
  else return rb::to_float(rb::to_bf16(a + b));
}

// The values of x in three orders (forward, reverse, positives first), each summed in Half.
template <class Half>
std::vector<float> sums_in_orders(std::vector<float> x) {
  std::vector<float> out;
  for (int order = 0; order < 3; ++order) {
    if (order == 1) std::reverse(x.begin(), x.end());
    if (order == 2) std::stable_partition(x.begin(), x.end(), [](float v) { return v > 0; });
    float acc = 0;
    for (const float v : x) acc = add16<Half>(acc, v);
    out.push_back(acc);
  }
  return out;
}

TEST(SparseExact, ShapeAtEverySize) {
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{7}, std::int64_t{33}, std::int64_t{4097},
                               (std::int64_t{1} << 31) + 5}) {
    const auto s = sparse_set(42, n);
    ASSERT_EQ(s.index.size(), s.value.size());
    ASSERT_LE(s.index.size(), static_cast<std::size_t>(kSparseCount));
    if (n <= 32) EXPECT_EQ(s.index.size(), static_cast<std::size_t>(n)) << "every index is one";
    else EXPECT_GE(s.index.size(), 32u);
    EXPECT_TRUE(std::is_sorted(s.index.begin(), s.index.end()));
    EXPECT_EQ(std::adjacent_find(s.index.begin(), s.index.end()), s.index.end()) << "distinct";
    EXPECT_EQ(s.index.front(), 0);
    EXPECT_EQ(s.index.back(), n - 1);
    double sum_abs = 0;
    for (std::size_t k = 0; k < s.value.size(); ++k) {
      ASSERT_GE(s.index[k], 0);
      ASSERT_LT(s.index[k], n);
      const float v = std::fabs(s.value[k]);
      ASSERT_TRUE(v >= 1 && v <= 4 && v == std::floor(v)) << s.value[k];
      EXPECT_EQ(static_cast<std::int64_t>(v) % 2, 1 - s.index[k] % 2) << "parity follows the index";
      sum_abs += v;
    }
    EXPECT_LE(sum_abs, 192.0);
    if (n >= 32) {  // the first and last 16 indices, all of them
      EXPECT_EQ(s.index[15], 15);
      EXPECT_EQ(s.index[s.index.size() - 16], n - 16);
    }
  }
  EXPECT_NE(sparse_set(42, 1 << 20).value, sparse_set(43, 1 << 20).value) << "the seed matters";
  EXPECT_EQ(sparse_set(42, 1 << 20).index, sparse_set(42, 1 << 20).index) << "and only the seed";
}

TEST(SparseExact, SixteenBitAccumulatorsSumItExactlyInAnyOrder) {
  for (const std::uint64_t seed : {1ull, 2ull, 3ull}) {
    const auto s = sparse_set(seed, std::int64_t{1} << 24);
    const double exact = std::accumulate(s.value.begin(), s.value.end(), 0.0);
    for (const float got : sums_in_orders<rb::bf16>(s.value)) EXPECT_EQ(got, exact) << seed;
    for (const float got : sums_in_orders<rb::f16>(s.value)) EXPECT_EQ(got, exact) << seed;
  }
}

// Why the 16-bit rows need it: the dense integers of 2^14 elements, positives first, pass 2^8
// and 2^11 on the way, and a 16-bit accumulator no longer returns their sum.
TEST(SparseExact, DenseIntegersAreNotExactInSixteenBits) {
  std::vector<float> dense(1 << 14);
  for (std::size_t i = 0; i < dense.size(); ++i)
    dense[i] = rb::synth::value(rb::synth::Dist::integers, 42, static_cast<std::int64_t>(i));
  const double exact = std::accumulate(dense.begin(), dense.end(), 0.0);
  EXPECT_NE(sums_in_orders<rb::bf16>(dense)[2], exact);
  EXPECT_NE(sums_in_orders<rb::f16>(dense)[2], exact);
}

}  // namespace
