#pragma once
// What the typed kernel tests share: values stored as a type, small integers that every order
// sums exactly, random values of mixed magnitudes, and the reference they check against, a
// compensated (Neumaier) fp64 sum of rb::widen(x) over the finite values, accurate to about
// 2 x 2^-53 of sum|x|, and what IEEE arithmetic must give with NaN or infinities present; int32:
// the exact sum.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

#include "common/dtype.hpp"
#include "common/parallel.hpp"
#include "common/synth.hpp"

namespace rb::test {

// v stored as T: rounded to nearest even for f16 and bf16, converted for the others.
template <class T>
T stored(float v) {
  if constexpr (std::is_same_v<T, rb::f16>)
    return rb::to_f16(v);
  else if constexpr (std::is_same_v<T, rb::bf16>)
    return rb::to_bf16(v);
  else
    return static_cast<T>(v);
}

// x[i] = f(i) for i < n, in parallel chunks of 2^22.
template <class T, class F>
std::vector<T> generated(std::int64_t n, F f) {
  std::vector<T> x(static_cast<std::size_t>(n));
  constexpr std::int64_t kChunk = std::int64_t{1} << 22;
  rb::parallel_for((n + kChunk - 1) / kChunk, [&](std::int64_t c) {
    for (std::int64_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) x[static_cast<std::size_t>(i)] = f(i);
  });
  return x;
}

// A fence: a value exact in T that an element read beyond an array adds to an exact sum of small
// integers, visibly: 2^20, or 2^15 in f16 (its largest finite value is 65504).
template <class T>
T fence_value() {
  return stored<T>(std::is_same_v<T, rb::f16> ? 0x1p15f : 0x1p20f);
}

// Small integers +-(1 + h % 8) from a hash of (seed, i): every partial sum any order forms stays an
// integer far below 2^24 (a random walk), so a float accumulator adds them exactly and the sum
// must equal the integer sum: one element dropped or read twice changes it, at any n, which a
// rounding bound on random data misses once n x 2^-24 x sum|x| exceeds an element.
template <class T>
std::vector<T> small_integers(std::int64_t n, std::uint64_t seed) {
  return generated<T>(n, [seed](std::int64_t i) {
    const std::uint64_t h = rb::synth::mix(seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(i));
    const int v = (h & 8u) != 0 ? -static_cast<int>(1 + h % 8) : static_cast<int>(1 + h % 8);
    return stored<T>(static_cast<float>(v));
  });
}

// x[i] from a hash of (seed, i): floats sign x m x 2^e, m uniform in [1, 2) on a 2^-23 grid (2^-52
// for double), e uniform in [-8, 8], then rounded to T (rb::to_f16, rb::to_bf16): mixed
// magnitudes whose float sums stay finite (|sum| <= 512 n). int32: a quarter uniform over all of
// int32, a quarter each within 1024 of INT32_MAX and of INT32_MIN, so partial sums overflow int32
// (never int64 below 2^32 elements).
template <class T>
T element(std::uint64_t seed, std::int64_t i) {
  const std::uint64_t h = rb::synth::mix(rb::synth::mix(seed) + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(i));
  if constexpr (std::is_same_v<T, std::int32_t>) {
    const auto near = static_cast<std::int32_t>((h >> 8) & 1023u);
    switch (h & 3u) {
      case 0:
        return std::numeric_limits<std::int32_t>::max() - near;
      case 1:
        return std::numeric_limits<std::int32_t>::min() + near;
      default:
        return static_cast<std::int32_t>(static_cast<std::uint32_t>(h >> 32));
    }
  } else {
    const double sign = (h & 1u) != 0 ? -1.0 : 1.0;
    const int e = static_cast<int>((h >> 1) % 17) - 8;
    if constexpr (std::is_same_v<T, double>) {
      const std::uint64_t m = rb::synth::mix(h) >> 12;  // 52 bits
      return sign * std::ldexp(1.0 + static_cast<double>(m) * 0x1p-52, e);
    } else {
      const auto m = static_cast<float>((h >> 8) & 0x7FFFFFu);  // 23 bits
      const float v = static_cast<float>(sign) * std::ldexp(1.0f + m * 0x1p-23f, e);
      if constexpr (std::is_same_v<T, float>)
        return v;
      else if constexpr (std::is_same_v<T, rb::f16>)
        return rb::to_f16(v);
      else
        return rb::to_bf16(v);
    }
  }
}

template <class T>
std::vector<T> random_elements(std::int64_t n, std::uint64_t seed) {
  return generated<T>(n, [seed](std::int64_t i) { return element<T>(seed, i); });
}

struct TypedReference {
  double sum = 0, sum_abs = 0;
  long long exact = 0;  // int32 only
  bool nan = false, pos_inf = false, neg_inf = false;

  double expected() const {
    if (nan || (pos_inf && neg_inf)) return std::numeric_limits<double>::quiet_NaN();
    if (pos_inf) return std::numeric_limits<double>::infinity();
    if (neg_inf) return -std::numeric_limits<double>::infinity();
    return sum;
  }
};

inline void neumaier_add(double& s, double& err, double w) {
  const double t = s + w;
  err += std::fabs(s) >= std::fabs(w) ? (s - t) + w : (w - t) + s;
  s = t;
}

// In parallel chunks of 2^20, their sums and corrections combined compensated again.
template <class T>
TypedReference reference_of(std::span<const T> x) {
  const auto n = static_cast<std::int64_t>(x.size());
  constexpr std::int64_t kChunk = std::int64_t{1} << 20;
  const std::int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<TypedReference> part(static_cast<std::size_t>(chunks));
  std::vector<double> comp(static_cast<std::size_t>(chunks));
  rb::parallel_for(chunks, [&](std::int64_t c) {
    TypedReference r;
    double s = 0, err = 0;
    for (std::int64_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) {
      const T v = x[static_cast<std::size_t>(i)];
      if constexpr (std::is_same_v<T, std::int32_t>) {
        r.exact += v;
        r.sum_abs += std::fabs(static_cast<double>(v));
      } else {
        const double w = rb::widen(v);
        if (std::isnan(w)) {
          r.nan = true;
        } else if (std::isinf(w)) {
          (w > 0 ? r.pos_inf : r.neg_inf) = true;
        } else {
          neumaier_add(s, err, w);
          r.sum_abs += std::fabs(w);
        }
      }
    }
    r.sum = s;
    part[static_cast<std::size_t>(c)] = r;
    comp[static_cast<std::size_t>(c)] = err;
  });
  TypedReference total;
  double s = 0, err = 0;
  for (std::size_t c = 0; c < part.size(); ++c) {
    neumaier_add(s, err, part[c].sum);
    neumaier_add(s, err, comp[c]);
    total.sum_abs += part[c].sum_abs;
    total.exact += part[c].exact;
    total.nan |= part[c].nan;
    total.pos_inf |= part[c].pos_inf;
    total.neg_inf |= part[c].neg_inf;
  }
  total.sum = s + err;
  if constexpr (std::is_same_v<T, std::int32_t>) total.sum = static_cast<double>(total.exact);
  return total;
}

}  // namespace rb::test
