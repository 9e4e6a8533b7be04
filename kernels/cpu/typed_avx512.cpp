// AVX-512F kernels of typed.hpp: the AVX2 ones (typed_avx2.cpp) at twice the width, tails as
// zero-masked loads where AVX-512F has one (32/64-bit elements) and a zero-padded copy where not.
#include "kernels/cpu/avx512_tail.hpp"  // first: it includes <immintrin.h>

#include <cstddef>
#include <cstring>

#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/typed.hpp"

namespace rb::cpu {
namespace {

RB_TARGET_AVX512 inline __m256i load256(const void* p) noexcept {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

// The last r < 16 16-bit elements, zero-padded (+0.0 in both formats): a 16-bit masked load is
// AVX512BW, which these kernels do not require.
RB_TARGET_AVX512 inline __m256i load_tail16(const void* p, std::int64_t r) noexcept {
  alignas(32) std::uint16_t buf[16] = {};
  std::memcpy(buf, p, static_cast<std::size_t>(r) * sizeof(std::uint16_t));
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(buf));
}

RB_TARGET_AVX512 inline __m512 bf16x16(__m256i h) noexcept {
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

RB_TARGET_AVX512 inline __m512i i32x8(const std::int32_t* p) noexcept { return _mm512_cvtepi32_epi64(load256(p)); }

}  // namespace

RB_TARGET_AVX512 double avx512_f64in(const double* data, std::int64_t n) noexcept {
  __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
  __m512d a2 = _mm512_setzero_pd(), a3 = _mm512_setzero_pd();
  std::int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a0 = _mm512_add_pd(a0, _mm512_loadu_pd(data + i));
    a1 = _mm512_add_pd(a1, _mm512_loadu_pd(data + i + 8));
    a2 = _mm512_add_pd(a2, _mm512_loadu_pd(data + i + 16));
    a3 = _mm512_add_pd(a3, _mm512_loadu_pd(data + i + 24));
  }
  for (; i + 8 <= n; i += 8) a0 = _mm512_add_pd(a0, _mm512_loadu_pd(data + i));
  if (i < n) a1 = _mm512_add_pd(a1, _mm512_maskz_loadu_pd(static_cast<__mmask8>((1u << (n - i)) - 1u), data + i));
  return _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3)));
}

RB_TARGET_AVX512 float avx512_f16(const rb::f16* data, std::int64_t n) noexcept {
  __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
  __m512 a2 = _mm512_setzero_ps(), a3 = _mm512_setzero_ps();
  std::int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    a0 = _mm512_add_ps(a0, _mm512_cvtph_ps(load256(data + i)));
    a1 = _mm512_add_ps(a1, _mm512_cvtph_ps(load256(data + i + 16)));
    a2 = _mm512_add_ps(a2, _mm512_cvtph_ps(load256(data + i + 32)));
    a3 = _mm512_add_ps(a3, _mm512_cvtph_ps(load256(data + i + 48)));
  }
  for (; i + 16 <= n; i += 16) a0 = _mm512_add_ps(a0, _mm512_cvtph_ps(load256(data + i)));
  if (i < n) a1 = _mm512_add_ps(a1, _mm512_cvtph_ps(load_tail16(data + i, n - i)));
  return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
}

RB_TARGET_AVX512 float avx512_bf16(const rb::bf16* data, std::int64_t n) noexcept {
  __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
  __m512 a2 = _mm512_setzero_ps(), a3 = _mm512_setzero_ps();
  std::int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    a0 = _mm512_add_ps(a0, bf16x16(load256(data + i)));
    a1 = _mm512_add_ps(a1, bf16x16(load256(data + i + 16)));
    a2 = _mm512_add_ps(a2, bf16x16(load256(data + i + 32)));
    a3 = _mm512_add_ps(a3, bf16x16(load256(data + i + 48)));
  }
  for (; i + 16 <= n; i += 16) a0 = _mm512_add_ps(a0, bf16x16(load256(data + i)));
  if (i < n) a1 = _mm512_add_ps(a1, bf16x16(load_tail16(data + i, n - i)));
  return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
}

RB_TARGET_AVX512 std::int64_t avx512_i32(const std::int32_t* data, std::int64_t n) noexcept {
  __m512i a0 = _mm512_setzero_si512(), a1 = _mm512_setzero_si512();
  __m512i a2 = _mm512_setzero_si512(), a3 = _mm512_setzero_si512();
  std::int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a0 = _mm512_add_epi64(a0, i32x8(data + i));
    a1 = _mm512_add_epi64(a1, i32x8(data + i + 8));
    a2 = _mm512_add_epi64(a2, i32x8(data + i + 16));
    a3 = _mm512_add_epi64(a3, i32x8(data + i + 24));
  }
  for (; i + 8 <= n; i += 8) a0 = _mm512_add_epi64(a0, i32x8(data + i));
  if (i < n) {
    // r < 8 ints: a zero-masked 16-lane load of which only the low 8 lanes can be set.
    const __m512i tail = _mm512_maskz_loadu_epi32(static_cast<__mmask16>((1u << (n - i)) - 1u), data + i);
    a1 = _mm512_add_epi64(a1, _mm512_cvtepi32_epi64(_mm512_castsi512_si256(tail)));
  }
  return _mm512_reduce_add_epi64(_mm512_add_epi64(_mm512_add_epi64(a0, a1), _mm512_add_epi64(a2, a3)));
}

}  // namespace rb::cpu
