#pragma once
// Data and references for the kernels of the element types other than f32 (kernels/cpu/avx2.hpp,
// avx512.hpp, accumulate.hpp, read.hpp) and the runtimes over them, shared by test_typed.cpp and
// test_typed_runtimes.cpp. Every reference is an fp64 sum over rb::widen of the values as stored.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "common/dtype.hpp"
#include "tests/support/typed_reference.hpp"

namespace rb::test::typed {

// The i32 kernels return int64 (compared exactly); the others are compared as double.
template <class T>
using Out = std::conditional_t<std::is_same_v<T, std::int32_t>, std::int64_t, double>;

template <class T>
std::uint64_t bits(Out<T> v) {
  return std::bit_cast<std::uint64_t>(v);
}

// The accumulator's unit roundoff: f16 and bf16 are summed in float.
template <class T>
inline constexpr double kUnit = std::is_same_v<T, double> ? 0x1p-53 : 0x1p-24;

// Neumaier's compensated sum of rb::widen(x[i]); fed one element at a time, so that every prefix
// of a range has its reference without summing it again.
struct Reference {
  double s = 0, c = 0, abs = 0;
  template <class T>
  void add(T x) {
    const double v = rb::widen(x);
    const double t = s + v;
    c += std::fabs(s) >= std::fabs(v) ? (s - t) + v : (v - t) + s;
    s = t;
    abs += std::fabs(v);
  }
  double sum() const { return s + c; }
};

template <class T>
Reference reference_of(const T* x, std::int64_t n) {
  Reference r;
  for (std::int64_t i = 0; i < n; ++i) r.add(x[i]);
  return r;
}

// v stored as T (tests/support/typed_reference.hpp).
template <class T>
T from_float(float v) {
  return rb::test::stored<T>(v);
}

// Signed values of mixed magnitude, sign * m * 2^e, m in [1, 2), e in [-8, 8]: doubles keep all
// 53 bits of m, f16 and bf16 are random floats rounded to nearest even; i32 any int32. Never all
// ones or zeros.
template <class T>
std::vector<T> random_values(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> x(static_cast<std::size_t>(n));
  if constexpr (std::is_same_v<T, std::int32_t>) {
    std::uniform_int_distribution<std::int32_t> any(std::numeric_limits<std::int32_t>::min(),
                                                    std::numeric_limits<std::int32_t>::max());
    for (auto& v : x) v = any(rng);
  } else {
    std::uniform_real_distribution<double> mant(1.0, 2.0);
    std::uniform_int_distribution<int> exp(-8, 8);
    std::bernoulli_distribution neg(0.5);
    for (auto& v : x) {
      const double m = (neg(rng) ? -1.0 : 1.0) * std::ldexp(mant(rng), exp(rng));
      if constexpr (std::is_same_v<T, double>) {
        v = m;
      } else {
        v = from_float<T>(static_cast<float>(m));
      }
    }
  }
  return x;
}

// Nonzero integers in [-max_abs, max_abs] (exact in every type for max_abs <= 256): while
// n max_abs < 2^24, a float sum of them is exact in any order.
template <class T>
std::vector<T> small_integers(std::int64_t n, int max_abs, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> mag(1, max_abs);
  std::bernoulli_distribution neg(0.5);
  std::vector<T> x(static_cast<std::size_t>(n));
  for (auto& v : x) v = from_float<T>(static_cast<float>(neg(rng) ? -mag(rng) : mag(rng)));
  return x;
}

inline int exact_max_abs(std::int64_t n) {
  return static_cast<int>(std::clamp<std::int64_t>((std::int64_t{1} << 24) / std::max<std::int64_t>(n, 1), 1, 100));
}

template <class T>
std::int64_t exact_sum(const T* x, std::int64_t n) {
  std::int64_t s = 0;
  for (std::int64_t i = 0; i < n; ++i) s += static_cast<std::int64_t>(rb::widen(x[i]));
  return s;
}

// Values within 1000 of INT32_MAX (pattern 0), of INT32_MIN (1), or the two mixed (2).
inline std::vector<std::int32_t> near_limits(std::int64_t n, int pattern, std::uint64_t seed) {
  constexpr std::int32_t hi = std::numeric_limits<std::int32_t>::max(), lo = std::numeric_limits<std::int32_t>::min();
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int32_t> spread(0, 1000);
  std::bernoulli_distribution coin(0.5);
  std::vector<std::int32_t> x(static_cast<std::size_t>(n));
  for (auto& v : x) {
    const bool high = pattern == 0 || (pattern == 2 && coin(rng));
    v = high ? hi - spread(rng) : lo + spread(rng);
  }
  return x;
}

// NaN (quiet and signalling), +inf and -inf of each floating type.
template <class T>
struct Special;
template <>
struct Special<double> {
  static constexpr double qnan = std::numeric_limits<double>::quiet_NaN();
  static constexpr double snan = std::numeric_limits<double>::signaling_NaN();
  static constexpr double inf = std::numeric_limits<double>::infinity(), ninf = -inf;
};
template <>
struct Special<rb::f16> {
  static constexpr rb::f16 qnan{0x7E00}, snan{0x7C01}, inf{0x7C00}, ninf{0xFC00};
};
template <>
struct Special<rb::bf16> {
  static constexpr rb::bf16 qnan{0x7FC0}, snan{0x7F81}, inf{0x7F80}, ninf{0xFF80};
};

// Every n in [0, max_n] at every start in [0, max_offset]: sum(p, n) within bound(n, sum|x|) of
// the reference over random values, reported at the first miss.
template <class T, class Sum, class Bound>
void expect_random_every_size(std::int64_t max_n, int max_offset, int pad, Sum sum, Bound bound) {
  const auto x = random_values<T>(max_n + max_offset + pad, 99);
  for (int offset = 0; offset <= max_offset; ++offset) {
    const T* p = x.data() + offset;
    Reference ref;
    for (std::int64_t n = 0; n <= max_n; ++n) {
      if (n > 0) ref.add(p[n - 1]);
      const double got = sum(p, n), err = std::fabs(got - ref.sum()), tol = bound(n, ref.abs);
      if (!(err <= tol)) {
        ADD_FAILURE() << "random, n = " << n << ", offset = " << offset << ": got " << got << ", reference "
                      << ref.sum() << ", error " << err << " > bound " << tol;
        return;
      }
    }
  }
}

// The same over small integers, whose sums every correct order gets exactly.
template <class T, class Sum>
void expect_exact_every_size(std::int64_t max_n, int max_offset, int pad, Sum sum) {
  const auto x = small_integers<T>(max_n + max_offset + pad, 100, 7);
  for (int offset = 0; offset <= max_offset; ++offset) {
    const T* p = x.data() + offset;
    std::int64_t want = 0;
    for (std::int64_t n = 0; n <= max_n; ++n) {
      if (n > 0) want += static_cast<std::int64_t>(rb::widen(p[n - 1]));
      const Out<T> got = sum(p, n);
      if (got != static_cast<Out<T>>(want)) {
        ADD_FAILURE() << "integers, n = " << n << ", offset = " << offset << ": expected exactly " << want
                      << ", got " << got;
        return;
      }
    }
  }
}

// +-Inf, both, quiet and signalling NaN at every position of n random values: sum(p, n) must give
// them in kind.
template <class T, class Sum>
void expect_non_finite_everywhere(std::int64_t n, Sum sum) {
  using S = Special<T>;
  constexpr double inf = std::numeric_limits<double>::infinity();
  const auto base = random_values<T>(n, 5);
  for (std::int64_t at = 0; at < n; ++at) {
    const auto i = static_cast<std::size_t>(at);
    SCOPED_TRACE(testing::Message() << "n = " << n << ", non-finite at " << at);
    auto x = base;
    x[i] = S::inf;
    ASSERT_EQ(sum(x.data(), n), inf) << "+inf in";
    x[static_cast<std::size_t>((at + n / 2) % n)] = S::ninf;
    ASSERT_TRUE(std::isnan(sum(x.data(), n))) << "+inf and -inf in";
    x = base;
    x[i] = S::ninf;
    ASSERT_EQ(sum(x.data(), n), -inf) << "-inf in";
    x[i] = S::qnan;
    ASSERT_TRUE(std::isnan(sum(x.data(), n))) << "quiet NaN in";
    x[i] = S::snan;
    ASSERT_TRUE(std::isnan(sum(x.data(), n))) << "signalling NaN in";
  }
}

// sum(x) gives its first call's bits on `calls` more calls, and with x copied to each start in
// [1, max_offset]: the order of the additions depends on n alone, not on the call or the address.
template <class T, class Sum>
void expect_same_bits_anywhere(const std::vector<T>& x, int max_offset, int calls, Sum sum) {
  const auto n = static_cast<std::int64_t>(x.size());
  const auto first = bits<T>(sum(x.data(), n));
  for (int call = 0; call < calls; ++call) ASSERT_EQ(bits<T>(sum(x.data(), n)), first) << "call " << call;
  std::vector<T> moved(x.size() + static_cast<std::size_t>(max_offset));
  for (int offset = 1; offset <= max_offset; ++offset) {
    std::copy(x.begin(), x.end(), moved.begin() + offset);
    EXPECT_EQ(bits<T>(sum(moved.data() + offset, n)), first) << "copied to offset " << offset;
  }
}

}  // namespace rb::test::typed
