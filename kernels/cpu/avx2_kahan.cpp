// AVX2, Kahan-compensated float accumulators: 6 independent (sum, correction) pairs x 8 lanes.
//
// The step keeps the correction negated (m = -c, what s still lacks), so the new term is added
// to it, not subtracted: y = m + x takes x straight from memory, which saves the register that
// lets 6 pairs (12 ymm) fit in AVX2's 16 without spills. 6, not 4: the step is a chain of 4
// dependent adds (12 cycles on Zen 4), and 4 pairs left the adders idle: 39 GB/s from L3 on one
// core, 50 GB/s with 6; 8 pairs spill (42 GB/s). Measured on the 2-core CI guest, n = 2^20.
//
// Where the correction could be lost, and how it is not:
//   - the tail: the last n % 8 floats go through the same vector step, as a masked load whose
//     missing lanes are zero (adding 0 through a Kahan step loses nothing);
//   - the horizontal reduction: folding 48 lanes into one float would round away what the 48
//     corrections hold. Instead every sum and every correction is widened to double (exactly)
//     and the result is sum(s) + sum(m), in a fixed order, in double: 29 extra bits absorb the
//     cancellation between lanes.
// The step relies on IEEE evaluation order: no -ffast-math or -fassociative-math on this file
// (the intrinsics are plain vector adds to GCC, which reassociation would fold to m = 0).
#include <immintrin.h>

#include "kernels/cpu/accumulate.hpp"
#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/avx2_tail.hpp"
#include "kernels/cpu/isa.hpp"

namespace rb::cpu {
namespace {

constexpr int kPairs = 6;

struct Kahan8 {
  __m256 s;
  __m256 m;  // what s still lacks of the true running sum (Kahan's c, negated)
};

RB_TARGET_AVX2 inline void add(Kahan8& k, __m256 x) noexcept {
  const __m256 y = _mm256_add_ps(k.m, x);
  const __m256 t = _mm256_add_ps(k.s, y);
  k.m = _mm256_sub_ps(y, _mm256_sub_ps(t, k.s));
  k.s = t;
}

RB_TARGET_AVX2 inline __m256d widen_sum(__m256 v) noexcept {
  return _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(v)),
                       _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)));
}

RB_TARGET_AVX2 inline double hsum(__m256d v) noexcept {
  const __m128d two = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
  return _mm_cvtsd_f64(_mm_add_sd(two, _mm_unpackhi_pd(two, two)));
}

}  // namespace

RB_TARGET_AVX2 double avx2_kahan(const float* data, std::int64_t n) noexcept {
  Kahan8 k[kPairs];
  for (auto& pair : k) pair = {_mm256_setzero_ps(), _mm256_setzero_ps()};
  std::int64_t i = 0;
  for (; i + 8 * kPairs <= n; i += 8 * kPairs) {
#pragma GCC unroll 6
    for (int p = 0; p < kPairs; ++p) add(k[p], _mm256_loadu_ps(data + i + 8 * p));
  }
  for (; i + 8 <= n; i += 8) add(k[0], _mm256_loadu_ps(data + i));
  if (i < n) add(k[1], detail::avx2_load_tail(data + i, n - i));

  __m256d s = _mm256_setzero_pd(), m = _mm256_setzero_pd();
  for (const auto& pair : k) {
    s = _mm256_add_pd(s, widen_sum(pair.s));
    m = _mm256_add_pd(m, widen_sum(pair.m));
  }
  const double sum = hsum(_mm256_add_pd(s, m));
  // Kahan's step turns an infinite lane into NaN (Inf - Inf), and a float lane can overflow on
  // finite data. Either way the (rare) non-finite result is redone in double, which gives
  // IEEE's answer (Inf, or NaN for a NaN or for +Inf with -Inf) and cannot overflow on floats.
  return __builtin_isfinite(sum) ? sum : accumulate_f64(data, n);
}

}  // namespace rb::cpu
