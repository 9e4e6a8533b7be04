// AVX2, float accumulators: 4 x 8 lanes (see avx2.hpp for why 4).
#include <immintrin.h>

#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/avx2_tail.hpp"
#include "kernels/cpu/isa.hpp"

namespace rb::cpu {
namespace {

RB_TARGET_AVX2 float hsum(__m256 v) noexcept {
  const __m128 four = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  const __m128 two = _mm_add_ps(four, _mm_movehl_ps(four, four));
  const __m128 one = _mm_add_ss(two, _mm_movehdup_ps(two));
  return _mm_cvtss_f32(one);
}

}  // namespace

RB_TARGET_AVX2 float avx2_f32(const float* data, std::int64_t n) noexcept {
  __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
  __m256 a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
  std::int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a0 = _mm256_add_ps(a0, _mm256_loadu_ps(data + i));
    a1 = _mm256_add_ps(a1, _mm256_loadu_ps(data + i + 8));
    a2 = _mm256_add_ps(a2, _mm256_loadu_ps(data + i + 16));
    a3 = _mm256_add_ps(a3, _mm256_loadu_ps(data + i + 24));
  }
  for (; i + 8 <= n; i += 8) a0 = _mm256_add_ps(a0, _mm256_loadu_ps(data + i));
  if (i < n) a1 = _mm256_add_ps(a1, detail::avx2_load_tail(data + i, n - i));
  return hsum(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
}

}  // namespace rb::cpu
