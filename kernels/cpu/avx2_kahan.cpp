// AVX2, Kahan-compensated float accumulators: 4 independent (sum, compensation) pairs x 8 lanes.
//
// Where the compensation could be lost, and how it is not:
//   - the tail: the last n % 8 floats go through the same vector Kahan step, as a masked load
//     whose missing lanes are zero (adding 0 through a Kahan step changes nothing);
//   - the horizontal reduction: folding 32 lanes into one float would round away what the 32
//     compensations hold. Instead every sum and every compensation is widened to double
//     (exactly) and the result is sum(s) - sum(c), in a fixed order, in double: 29 extra bits
//     absorb the cancellation between lanes.
// The step relies on IEEE evaluation order: no -ffast-math or -fassociative-math on this file
// (the intrinsics are plain vector adds to GCC, which reassociation would fold to c = 0).
#include <immintrin.h>

#include "kernels/cpu/accumulate.hpp"
#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/avx2_tail.hpp"
#include "kernels/cpu/isa.hpp"

namespace rb::cpu {
namespace {

struct Kahan8 {
  __m256 s;
  __m256 c;  // what s holds in excess of the true running sum
};

RB_TARGET_AVX2 inline void add(Kahan8& k, __m256 x) noexcept {
  const __m256 y = _mm256_sub_ps(x, k.c);
  const __m256 t = _mm256_add_ps(k.s, y);
  k.c = _mm256_sub_ps(_mm256_sub_ps(t, k.s), y);
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
  const __m256 zero = _mm256_setzero_ps();
  Kahan8 k0{zero, zero}, k1{zero, zero}, k2{zero, zero}, k3{zero, zero};
  std::int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    add(k0, _mm256_loadu_ps(data + i));
    add(k1, _mm256_loadu_ps(data + i + 8));
    add(k2, _mm256_loadu_ps(data + i + 16));
    add(k3, _mm256_loadu_ps(data + i + 24));
  }
  for (; i + 8 <= n; i += 8) add(k0, _mm256_loadu_ps(data + i));
  if (i < n) add(k1, detail::avx2_load_tail(data + i, n - i));

  const __m256d s = _mm256_add_pd(_mm256_add_pd(widen_sum(k0.s), widen_sum(k1.s)),
                                  _mm256_add_pd(widen_sum(k2.s), widen_sum(k3.s)));
  const __m256d c = _mm256_add_pd(_mm256_add_pd(widen_sum(k0.c), widen_sum(k1.c)),
                                  _mm256_add_pd(widen_sum(k2.c), widen_sum(k3.c)));
  const double sum = hsum(_mm256_sub_pd(s, c));
  // Kahan's step turns an infinite lane into NaN (c = Inf - Inf), and a float lane can overflow
  // on finite data. Either way the (rare) non-finite result is redone in double, which gives
  // IEEE's answer (Inf, or NaN for a NaN or for +Inf with -Inf) and cannot overflow on floats.
  return __builtin_isfinite(sum) ? sum : accumulate_f64(data, n);
}

}  // namespace rb::cpu
