// The kernels of the element types other than f32 (kernels/cpu/avx2.hpp, avx512.hpp,
// accumulate.hpp), each against the structure it states there: a float or double result must be
// within gamma(ceil(n/L) + T + log2 L) sum|x| of an fp64 reference over rb::widen of the stored
// values (plus that reference's own rounding); an int64 result is exact.
// ctest names say which kernel ran, e.g. Typed/TypedF16.LargeOddSizes/avx2_f16.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "common/dtype.hpp"
#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/accumulate.hpp"
#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/avx512.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"
#include "tests/kernels/cpu/typed_data.hpp"

namespace {

using rb::test::kMaxOffset;
using namespace rb::test::typed;

constexpr std::int64_t kEverySizeMax = 4099;  // every tail length of every kernel, many times over
constexpr std::int64_t kLargeSizes[] = {1'000'003, (std::int64_t{1} << 22) + 1};
constexpr int kPad = 64;  // nonzero data past every range: an over-read changes the sum

// The statement of avx2.hpp, avx512.hpp or accumulate.hpp for one kernel: L lanes, chains of at
// most ceil(n/L) + T additions.
struct Stated {
  int lanes;
  int tail;
};

template <class T>
struct Kernel {
  const char* name;
  Out<T> (*sum)(const T*, std::int64_t);
  Stated stated;
  std::string (*why_not)();
};

template <class T>
void PrintTo(const Kernel<T>& k, std::ostream* os) {
  *os << k.name;
}

template <class T, auto K>
Out<T> call(const T* data, std::int64_t n) {
  return static_cast<Out<T>>(K(data, n));
}

std::string can_run() { return ""; }
std::string need_avx2() { return rb::test::need_avx2(); }
std::string need_avx2_f16c() {
  if (!rb::cpu::has_avx2()) return "CPU lacks AVX2";
  return rb::cpu::has_f16c() ? "" : "CPU lacks F16C";
}
std::string need_avx512() { return rb::test::need_avx512(); }
std::string need_avx512_bf16() {
  if (!rb::cpu::has_avx512f()) return "CPU lacks AVX-512F";
  return rb::cpu::has_avx512_bf16() ? "" : "CPU lacks AVX512_BF16";
}

int log2_lanes(int lanes) { return std::countr_zero(static_cast<unsigned>(lanes)); }

// gamma(d) sum|x| for d = ceil(n/L) + T + log2 L roundings on any element's path (Higham 4.2),
// plus the fp64 reference's own error (compensated: about 2 u64 |sum|).
template <class T>
double bound(const Stated& s, std::int64_t n, double sum_abs) {
  const auto d = static_cast<double>((n + s.lanes - 1) / s.lanes + s.tail + log2_lanes(s.lanes));
  const double du = d * kUnit<T>;
  EXPECT_LT(du, 0.5) << "no useful bound at n = " << n;
  return du / (1.0 - du) * sum_abs + 4.0 * 0x1p-53 * sum_abs;
}

// ---- the checks, written once per kind of result ----

template <class T>
void expect_random_every_size(const Kernel<T>& k) {
  rb::test::typed::expect_random_every_size<T>(kEverySizeMax, kMaxOffset, kPad, k.sum,
                                     [&](std::int64_t n, double abs) { return bound<T>(k.stated, n, abs); });
}

template <class T>
void expect_exact_every_size(const Kernel<T>& k) {
  rb::test::typed::expect_exact_every_size<T>(kEverySizeMax, kMaxOffset, kPad, k.sum);
}

template <class T>
void expect_large_sizes(const Kernel<T>& k) {
  constexpr std::int64_t max_n = (std::int64_t{1} << 22) + 1;
  const auto random = random_values<T>(max_n + kMaxOffset + kPad, 2024);
  const auto ints = small_integers<T>(max_n + kMaxOffset + kPad, exact_max_abs(max_n + kPad), 2025);
  for (const std::int64_t n : kLargeSizes) {
    for (int offset = 0; offset <= kMaxOffset; ++offset) {
      SCOPED_TRACE(testing::Message() << "n = " << n << ", offset = " << offset);
      const T* p = random.data() + offset;
      const auto ref = reference_of(p, n);
      EXPECT_LE(std::fabs(k.sum(p, n) - ref.sum()), bound<T>(k.stated, n, ref.abs)) << "random";
      const T* q = ints.data() + offset;
      EXPECT_EQ(k.sum(q, n), static_cast<double>(exact_sum(q, n))) << "integers";
    }
  }
}

template <class T>
void expect_non_finite(const Kernel<T>& k) {
  using S = Special<T>;
  constexpr double inf = std::numeric_limits<double>::infinity();
  // Every position of a range that has a main loop, single-vector steps and a tail in every
  // kernel (avx512_bf16dp's step is 256 elements, its vector 32).
  rb::test::typed::expect_non_finite_everywhere<T>(256 + 32 * 3 + 13, k.sum);
  if (testing::Test::HasFatalFailure()) return;
  const T one_inf[] = {S::inf}, one_nan[] = {S::qnan};
  EXPECT_EQ(k.sum(one_inf, 1), inf) << "n = 1";
  EXPECT_TRUE(std::isnan(k.sum(one_nan, 1))) << "n = 1";
  auto large = random_values<T>(1'000'003, 6);
  large[500'000] = S::qnan;
  EXPECT_TRUE(std::isnan(k.sum(large.data(), 1'000'003))) << "n = 1000003";
}

// The same bits on every call, and wherever the same values lie in memory.
template <class T>
void expect_deterministic(const Kernel<T>& k) {
  rb::test::typed::expect_same_bits_anywhere<T>(random_values<T>(1'000'003, 8), kMaxOffset, 3, k.sum);
}

// The bound is not vacuous: it rejects the sum of one element too few (magnitudes in [1, 2), far
// above the bound at these sizes).
template <class T>
void expect_dropped_element_caught(const Kernel<T>& k) {
  for (const std::int64_t n : {1, 7, 15, 17, 33, 100, 1000}) {
    auto x = random_values<T>(n, 12);
    for (auto& v : x) {
      const double m = std::fabs(rb::widen(v));
      v = from_float<T>(static_cast<float>(std::ldexp(m, -std::ilogb(m))));  // the same m in [1, 2)
    }
    const auto ref = reference_of(x.data(), n);
    EXPECT_GT(std::fabs(k.sum(x.data(), n - 1) - ref.sum()), bound<T>(k.stated, n, ref.abs)) << "n = " << n;
  }
}

// One large value, then values below half its ulp in the accumulator: one chain keeps the large
// value and drops every small one, L lanes drop only one lane's share. So the bound stated for L
// lanes rejects what one chain returns, and a kernel that kept fewer chains than it states fails.
template <class T>
std::vector<T> stagnating(std::int64_t n, std::uint64_t seed) {
  double big = 0x1p24, lo = 0.25;  // float accumulator: ulp(2^24) = 2
  if constexpr (std::is_same_v<T, double>) big = 0x1p53;  // ulp 2
  if constexpr (std::is_same_v<T, rb::f16>) big = 65504, lo = 0x1p-12;  // f16's largest, ulp 2^-8 in float
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> small(lo, 2 * lo);
  std::vector<T> x(static_cast<std::size_t>(n));
  for (auto& v : x) {
    if constexpr (std::is_same_v<T, double>) {
      v = small(rng);
    } else {
      v = from_float<T>(static_cast<float>(small(rng)));
    }
  }
  if constexpr (std::is_same_v<T, double>) {
    x[0] = big;
  } else {
    x[0] = from_float<T>(static_cast<float>(big));
  }
  return x;
}

template <class T>
void expect_lanes_load_bearing(const Kernel<T>& k) {
  constexpr std::int64_t n = 100'003;
  const auto x = stagnating<T>(n, 13);
  const auto ref = reference_of(x.data(), n);
  const double tol = bound<T>(k.stated, n, ref.abs);
  using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;
  Acc one_chain = 0;
  for (const T v : x) one_chain += static_cast<Acc>(rb::widen(v));
  EXPECT_GT(std::fabs(one_chain - ref.sum()), tol) << "one chain is within the bound of " << k.stated.lanes
                                                   << " lanes: the data no longer tells them apart";
  EXPECT_LE(std::fabs(k.sum(x.data(), n) - ref.sum()), tol);
}

// A serial kernel is exactly the loop a user writes: one accumulator, in order.
template <class T>
void expect_plain_loop(const Kernel<T>& k) {
  const auto x = random_values<T>(100'003, 14);
  using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;
  Acc s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    s += static_cast<Acc>(rb::widen(x[i]));
    if (i % 9973 == 0 || i + 1 == x.size()) {
      const auto n = static_cast<std::int64_t>(i + 1);
      ASSERT_EQ(bits<T>(k.sum(x.data(), n)), bits<T>(static_cast<double>(s))) << "n = " << n;
    }
  }
}

// ---- i32 ----

void expect_i32_every_size(const Kernel<std::int32_t>& k, const std::vector<std::int32_t>& x, const char* what) {
  for (int offset = 0; offset <= kMaxOffset; ++offset) {
    const std::int32_t* p = x.data() + offset;
    std::int64_t want = 0;
    for (std::int64_t n = 0; n + offset + kPad <= static_cast<std::int64_t>(x.size()); ++n) {
      if (n > 0) want += p[n - 1];
      const std::int64_t got = k.sum(p, n);
      if (got != want) {
        ADD_FAILURE() << what << ", n = " << n << ", offset = " << offset << ": expected " << want << ", got " << got;
        return;
      }
    }
  }
}

// ---- the suites ----

template <class T>
class TypedTest : public ::testing::TestWithParam<Kernel<T>> {
 protected:
  void SetUp() override { RB_SKIP_IF(this->GetParam().why_not()); }
};

#define RB_TYPED_FLOAT_SUITES(Suite, T, serial, ...)                                              \
  class Suite : public TypedTest<T> {};                                                           \
  INSTANTIATE_TEST_SUITE_P(Typed, Suite, ::testing::Values(serial, __VA_ARGS__));                 \
  TEST_P(Suite, RandomEverySizeAndOffset) { expect_random_every_size(GetParam()); }               \
  TEST_P(Suite, ExactEverySizeAndOffset) { expect_exact_every_size(GetParam()); }                 \
  TEST_P(Suite, LargeOddSizes) { expect_large_sizes(GetParam()); }                                \
  TEST_P(Suite, NonFinite) { expect_non_finite(GetParam()); }                                     \
  TEST_P(Suite, Deterministic) { expect_deterministic(GetParam()); }                              \
  TEST_P(Suite, DroppedElementFailsBound) { expect_dropped_element_caught(GetParam()); }          \
  class Suite##Serial : public TypedTest<T> {};                                                   \
  INSTANTIATE_TEST_SUITE_P(Typed, Suite##Serial, ::testing::Values(serial));                      \
  TEST_P(Suite##Serial, IsThePlainLoop) { expect_plain_loop(GetParam()); }                        \
  class Suite##Simd : public TypedTest<T> {};                                                     \
  INSTANTIATE_TEST_SUITE_P(Typed, Suite##Simd, ::testing::Values(__VA_ARGS__));                   \
  TEST_P(Suite##Simd, BoundRejectsOneChain) { expect_lanes_load_bearing(GetParam()); }

using rb::bf16;
using rb::f16;
namespace cpu = rb::cpu;

// Stated: the tables of avx2.hpp and avx512.hpp. T = 0 for the serial kernels: their chain is n.
const Kernel<double> kAccF64{"accumulate_f64in", call<double, cpu::accumulate_f64in>, {1, 0}, can_run};
const Kernel<double> kAvx2F64{"avx2_f64in", call<double, cpu::avx2_f64in>, {16, 3}, need_avx2};
const Kernel<double> kAvx512F64{"avx512_f64in", call<double, cpu::avx512_f64in>, {32, 3}, need_avx512};
const Kernel<f16> kAccF16{"accumulate_f16", call<f16, cpu::accumulate_f16>, {1, 0}, can_run};
const Kernel<f16> kAvx2F16{"avx2_f16", call<f16, cpu::avx2_f16>, {32, 3}, need_avx2_f16c};
const Kernel<f16> kAvx512F16{"avx512_f16", call<f16, cpu::avx512_f16>, {64, 3}, need_avx512};
const Kernel<bf16> kAccBf16{"accumulate_bf16", call<bf16, cpu::accumulate_bf16>, {1, 0}, can_run};
const Kernel<bf16> kAvx2Bf16{"avx2_bf16", call<bf16, cpu::avx2_bf16>, {32, 3}, need_avx2};
const Kernel<bf16> kAvx512Bf16{"avx512_bf16", call<bf16, cpu::avx512_bf16>, {64, 3}, need_avx512};
// Two elements per lane per instruction: 128 lanes whose chains are ceil(n/128) + 14 (avx512.hpp).
const Kernel<bf16> kAvx512Bf16Dp{"avx512_bf16dp", call<bf16, cpu::avx512_bf16dp>, {128, 14}, need_avx512_bf16};
// Exact in any order: the lanes do not enter a bound.
const Kernel<std::int32_t> kAccI32{"accumulate_i32", call<std::int32_t, cpu::accumulate_i32>, {1, 0}, can_run};
const Kernel<std::int32_t> kAvx2I32{"avx2_i32", call<std::int32_t, cpu::avx2_i32>, {16, 0}, need_avx2};
const Kernel<std::int32_t> kAvx512I32{"avx512_i32", call<std::int32_t, cpu::avx512_i32>, {32, 0}, need_avx512};

RB_TYPED_FLOAT_SUITES(TypedF64, double, kAccF64, kAvx2F64, kAvx512F64)
RB_TYPED_FLOAT_SUITES(TypedF16, f16, kAccF16, kAvx2F16, kAvx512F16)
RB_TYPED_FLOAT_SUITES(TypedBf16, bf16, kAccBf16, kAvx2Bf16, kAvx512Bf16, kAvx512Bf16Dp)

class TypedI32 : public TypedTest<std::int32_t> {};
INSTANTIATE_TEST_SUITE_P(Typed, TypedI32, ::testing::Values(kAccI32, kAvx2I32, kAvx512I32));

TEST_P(TypedI32, RandomEverySizeAndOffset) {
  expect_i32_every_size(GetParam(), random_values<std::int32_t>(kEverySizeMax + kMaxOffset + kPad, 99), "random");
}

TEST_P(TypedI32, NearLimitsEverySizeAndOffset) {
  for (int pattern = 0; pattern < 3; ++pattern) {
    SCOPED_TRACE(testing::Message() << "pattern " << pattern);
    expect_i32_every_size(GetParam(), near_limits(300 + kMaxOffset + kPad, pattern, 21), "near INT32_MAX/MIN");
  }
}

TEST_P(TypedI32, LargeOddSizes) {
  constexpr std::int64_t max_n = (std::int64_t{1} << 22) + 1;
  const auto x = random_values<std::int32_t>(max_n + kMaxOffset, 2024);
  for (const std::int64_t n : kLargeSizes) {
    for (int offset = 0; offset <= kMaxOffset; ++offset) {
      const std::int32_t* p = x.data() + offset;
      EXPECT_EQ(GetParam().sum(p, n), exact_sum(p, n)) << "n = " << n << ", offset = " << offset;
    }
  }
}

TEST_P(TypedI32, SumsBeyondInt32AreExact) {
  // Sums up to +-2^51 in magnitude: an int32 accumulator wraps (checked), a float one rounds.
  constexpr std::int64_t n = 1'000'003;
  for (int pattern = 0; pattern < 3; ++pattern) {
    const auto x = near_limits(n, pattern, 22 + static_cast<std::uint64_t>(pattern));
    const std::int64_t want = exact_sum(x.data(), n);
    std::uint32_t wrapped = 0;
    for (const std::int32_t v : x) wrapped += static_cast<std::uint32_t>(v);
    EXPECT_NE(static_cast<std::int64_t>(static_cast<std::int32_t>(wrapped)), want) << "pattern " << pattern;
    EXPECT_EQ(GetParam().sum(x.data(), n), want) << "pattern " << pattern;
  }
  const std::vector<std::int32_t> extremes(n, std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(GetParam().sum(extremes.data(), n), -(std::int64_t{1} << 31) * n) << "all INT32_MIN";
}

}  // namespace
