#pragma once
// The checks every CPU kernel and runtime goes through, written once. Each is a sweep; the first
// failure stops it (one message, with n and the start offset), instead of thousands.
//
// Two kinds of data, because the tolerance alone cannot see indexing bugs:
//   - random_signed (tests/support): RB_EXPECT_SUM, the harness's own rule;
//   - small nonzero integers: every partial sum stays below 2^24, so float arithmetic is exact
//     in any order and every kernel must return the exact sum. A dropped, doubled or over-read
//     element (the data past n is nonzero too) changes it by at least 1, far below what the
//     f32_sequential tolerance (8 u32 (n-1) sum|x|) would notice.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/data.hpp"
#include "kernels/cpu/isa.hpp"

namespace rb::test {

using SumFn = std::function<double(const float* data, std::int64_t n)>;

template <auto Kernel>
double call(const float* data, std::int64_t n) {
  return static_cast<double>(Kernel(data, n));
}

// A runtime object (Threads<K>, OpenMP<K>, ...) built once and shared by the copies of the SumFn.
template <class Runtime, class... Args>
SumFn runtime_fn(Args... args) {
  auto runtime = std::make_shared<Runtime>(args...);
  return [runtime](const float* data, std::int64_t n) { return static_cast<double>((*runtime)(data, n)); };
}

inline std::string need_avx2() { return cpu::has_avx2() ? "" : "CPU lacks AVX2"; }
inline std::string need_avx512() { return cpu::has_avx512f() ? "" : "CPU lacks AVX-512F"; }
inline std::string need_avx2_f16c() {
  if (!cpu::has_avx2()) return "CPU lacks AVX2";
  return cpu::has_f16c() ? "" : "CPU lacks F16C";
}
inline std::string need_avx512_bf16() {
  if (!cpu::has_avx512f()) return "CPU lacks AVX-512F";
  return cpu::has_avx512_bf16() ? "" : "CPU lacks AVX512_BF16";
}

inline constexpr std::int64_t kEverySizeMax = 4099;
inline constexpr int kMaxOffset = 7;

// Nonzero integers in [-max_abs, max_abs], seeded.
std::vector<float> small_integers(std::int64_t n, int max_abs, std::uint64_t seed);

// RB_EXPECT_SUM on random_signed data, every n in [0, max_n], starts offset 0..7 floats.
void expect_sum_every_size(const SumFn& sum, test::Acc acc, std::int64_t max_n = kEverySizeMax);
// The exact sum of small integers, every n in [0, max_n], starts offset 0..7 floats.
void expect_exact_every_size(const SumFn& sum, std::int64_t max_n = kEverySizeMax);
// Both checks at large odd sizes (1'000'003 and 2^22 + 1), aligned and offset by 3 floats.
void expect_large_sizes(const SumFn& sum, test::Acc acc);
// NaN and infinities propagate as IEEE says (the harness checks them when --input has them).
void expect_non_finite(const SumFn& sum);
// Compensated (Kahan) sums: |error| <= 4 u32 sum|x| at every size, independent of n.
void expect_compensated_bound(const SumFn& sum);
// Small integers after one or two +-2^30 outliers at the start (each the first term of its
// lane, whatever the lane layout), every n in [1, 300], offsets 0..7. A float sum rounds at 2^30
// (ulp 128) and loses the small terms' low bits; a Kahan sum keeps them exactly in its
// compensation, and returns the exact sum only if that compensation survives the tail and the
// horizontal reduction (a double sum is exact too). Classic Kahan does not capture the error of
// adding a term larger than the lane's running sum, so the outliers must come first.
void expect_exact_with_outliers(const SumFn& sum);

// |sum - ref| on ill_conditioned(n) data.
double ill_conditioned_error(const SumFn& sum, std::int64_t n);
// Sizes where naive float sums of ill_conditioned data are visibly wrong.
inline constexpr std::int64_t kIllConditionedSizes[] = {4099, 1'000'003};
// At each of those sizes `naive` (a float sum) is visibly wrong and `better` errs less.
void expect_beats_float(const SumFn& naive, const SumFn& better);

}  // namespace rb::test

// Skips the current test when `why_not` (a string expression) is non-empty.
#define RB_SKIP_IF(why_not)                                      \
  do {                                                           \
    const std::string rb_why_not_ = (why_not);                   \
    if (!rb_why_not_.empty()) GTEST_SKIP() << rb_why_not_;       \
  } while (0)

// One test of Suite that skips where `why_not` is non-empty and else runs `check`.
#define RB_SUM_TEST(Suite, Name, why_not, check) \
  TEST(Suite, Name) {                            \
    RB_SKIP_IF(why_not);                         \
    check;                                       \
  }

// The sweep every kernel and runtime goes through, as four tests of Suite. `make_sum` is an
// expression giving a SumFn (evaluated in each test), `acc` its Acc, `why_not` an
// expression giving why it cannot run here ("" when it can).
#define RB_SUM_TESTS(Suite, make_sum, acc, why_not)                                                       \
  RB_SUM_TEST(Suite, RandomEverySizeAndOffset, why_not, ::rb::test::expect_sum_every_size(make_sum, acc)) \
  RB_SUM_TEST(Suite, ExactEverySizeAndOffset, why_not, ::rb::test::expect_exact_every_size(make_sum))     \
  RB_SUM_TEST(Suite, LargeOddSizes, why_not, ::rb::test::expect_large_sizes(make_sum, acc))               \
  RB_SUM_TEST(Suite, NonFinite, why_not, ::rb::test::expect_non_finite(make_sum))
