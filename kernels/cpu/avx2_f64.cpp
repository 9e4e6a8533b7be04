// AVX2, double accumulators: each 4 floats are widened (vcvtps2pd, the load folded in) and
// added to one of 4 independent 4-lane double accumulators, 16 floats per iteration.
#include <immintrin.h>

#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/isa.hpp"

namespace rb::cpu {
namespace {

RB_TARGET_AVX2 inline __m256d load4(const float* p) noexcept { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }

RB_TARGET_AVX2 inline double hsum(__m256d v) noexcept {
  const __m128d two = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
  return _mm_cvtsd_f64(_mm_add_sd(two, _mm_unpackhi_pd(two, two)));
}

}  // namespace

RB_TARGET_AVX2 double avx2_f64(const float* data, std::int64_t n) noexcept {
  __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd();
  __m256d a2 = _mm256_setzero_pd(), a3 = _mm256_setzero_pd();
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    a0 = _mm256_add_pd(a0, load4(data + i));
    a1 = _mm256_add_pd(a1, load4(data + i + 4));
    a2 = _mm256_add_pd(a2, load4(data + i + 8));
    a3 = _mm256_add_pd(a3, load4(data + i + 12));
  }
  for (; i + 4 <= n; i += 4) a0 = _mm256_add_pd(a0, load4(data + i));
  // The last n % 4 floats: in double, so a scalar tail loses nothing.
  double tail = 0;
  for (; i < n; ++i) tail += static_cast<double>(data[i]);
  return hsum(_mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3))) + tail;
}

}  // namespace rb::cpu
