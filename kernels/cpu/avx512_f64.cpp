// AVX-512, double accumulators: each 8 floats are widened (vcvtps2pd zmm, ymm) and added to one
// of 4 independent 8-lane double accumulators, 32 floats per iteration.
#include "kernels/cpu/avx512_tail.hpp"  // first: it includes <immintrin.h>
#include "kernels/cpu/avx512.hpp"
#include "kernels/cpu/isa.hpp"

namespace rb::cpu {
namespace {

RB_TARGET_AVX512 inline __m512d load8(const float* p) noexcept {
  return _mm512_cvtps_pd(_mm256_loadu_ps(p));
}

}  // namespace

RB_TARGET_AVX512 double avx512_f64(const float* data, std::int64_t n) noexcept {
  __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
  __m512d a2 = _mm512_setzero_pd(), a3 = _mm512_setzero_pd();
  std::int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a0 = _mm512_add_pd(a0, load8(data + i));
    a1 = _mm512_add_pd(a1, load8(data + i + 8));
    a2 = _mm512_add_pd(a2, load8(data + i + 16));
    a3 = _mm512_add_pd(a3, load8(data + i + 24));
  }
  for (; i + 8 <= n; i += 8) a0 = _mm512_add_pd(a0, load8(data + i));
  if (i < n) {
    // r < 8 floats: a zero-masked 16-lane load of which only the low 8 lanes can be set.
    const __m512 tail = detail::avx512_load_tail(data + i, n - i);
    a1 = _mm512_add_pd(a1, _mm512_cvtps_pd(_mm512_castps512_ps256(tail)));
  }
  return _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3)));
}

}  // namespace rb::cpu
