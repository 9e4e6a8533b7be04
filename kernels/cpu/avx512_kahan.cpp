// AVX-512, Kahan-compensated float accumulators: 4 (sum, compensation) pairs x 16 lanes.
// The compensation survives the tail (a zero-masked load through the same step) and the
// horizontal reduction (sums and compensations widened to double, sum(s) - sum(c) there), as in
// avx2_kahan.cpp. No -ffast-math on this file: reassociation would fold the compensation to 0.
#include "kernels/cpu/avx512_tail.hpp"  // first: it includes <immintrin.h>
#include "kernels/cpu/accumulate.hpp"
#include "kernels/cpu/avx512.hpp"
#include "kernels/cpu/isa.hpp"

namespace rb::cpu {
namespace {

struct Kahan16 {
  __m512 s;
  __m512 c;  // what s holds in excess of the true running sum
};

RB_TARGET_AVX512 inline void add(Kahan16& k, __m512 x) noexcept {
  const __m512 y = _mm512_sub_ps(x, k.c);
  const __m512 t = _mm512_add_ps(k.s, y);
  k.c = _mm512_sub_ps(_mm512_sub_ps(t, k.s), y);
  k.s = t;
}

// Both 8-float halves widened to double and added (exact conversions; AVX-512F only: the upper
// half is taken through the 64x4 extract, which needs no DQ).
RB_TARGET_AVX512 inline __m512d widen_sum(__m512 v) noexcept {
  const __m256 hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
  return _mm512_add_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(v)), _mm512_cvtps_pd(hi));
}

}  // namespace

RB_TARGET_AVX512 double avx512_kahan(const float* data, std::int64_t n) noexcept {
  const __m512 zero = _mm512_setzero_ps();
  Kahan16 k0{zero, zero}, k1{zero, zero}, k2{zero, zero}, k3{zero, zero};
  std::int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    add(k0, _mm512_loadu_ps(data + i));
    add(k1, _mm512_loadu_ps(data + i + 16));
    add(k2, _mm512_loadu_ps(data + i + 32));
    add(k3, _mm512_loadu_ps(data + i + 48));
  }
  for (; i + 16 <= n; i += 16) add(k0, _mm512_loadu_ps(data + i));
  if (i < n) add(k1, detail::avx512_load_tail(data + i, n - i));

  const __m512d s = _mm512_add_pd(_mm512_add_pd(widen_sum(k0.s), widen_sum(k1.s)),
                                  _mm512_add_pd(widen_sum(k2.s), widen_sum(k3.s)));
  const __m512d c = _mm512_add_pd(_mm512_add_pd(widen_sum(k0.c), widen_sum(k1.c)),
                                  _mm512_add_pd(widen_sum(k2.c), widen_sum(k3.c)));
  const double sum = _mm512_reduce_add_pd(_mm512_sub_pd(s, c));
  // Kahan's step turns an infinite lane into NaN (c = Inf - Inf), and a float lane can overflow
  // on finite data. Either way the (rare) non-finite result is redone in double, which gives
  // IEEE's answer (Inf, or NaN for a NaN or for +Inf with -Inf) and cannot overflow on floats.
  return __builtin_isfinite(sum) ? sum : accumulate_f64(data, n);
}

}  // namespace rb::cpu
