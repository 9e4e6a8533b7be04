// AVX-512, float accumulators: 4 x 16 lanes, 64 floats per iteration.
#include "kernels/cpu/avx512_tail.hpp"  // first: it includes <immintrin.h>
#include "kernels/cpu/avx512.hpp"
#include "kernels/cpu/isa.hpp"

namespace rb::cpu {

RB_TARGET_AVX512 float avx512_f32(const float* data, std::int64_t n) noexcept {
  __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
  __m512 a2 = _mm512_setzero_ps(), a3 = _mm512_setzero_ps();
  std::int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    a0 = _mm512_add_ps(a0, _mm512_loadu_ps(data + i));
    a1 = _mm512_add_ps(a1, _mm512_loadu_ps(data + i + 16));
    a2 = _mm512_add_ps(a2, _mm512_loadu_ps(data + i + 32));
    a3 = _mm512_add_ps(a3, _mm512_loadu_ps(data + i + 48));
  }
  for (; i + 16 <= n; i += 16) a0 = _mm512_add_ps(a0, _mm512_loadu_ps(data + i));
  if (i < n) a1 = _mm512_add_ps(a1, detail::avx512_load_tail(data + i, n - i));
  // A fixed halving tree over the 16 lanes.
  return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
}

}  // namespace rb::cpu
