// AVX2 kernels of typed.hpp: 4 independent vector accumulators each, like avx2_f32 (avx2.hpp says
// why 4), summed as (a0 + a1) + (a2 + a3) and then halved lane by lane in a fixed order.
#include <immintrin.h>

#include <cstddef>
#include <cstring>

#include "kernels/cpu/avx2_tail.hpp"
#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/typed.hpp"

// vcvtph2ps is F16C, not AVX2: only the fp16 kernel carries it (has_f16c()).
#define RB_TARGET_AVX2_F16C __attribute__((target("avx2,f16c")))

namespace rb::cpu {
namespace {

RB_TARGET_AVX2 inline float hsum(__m256 v) noexcept {
  const __m128 four = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  const __m128 two = _mm_add_ps(four, _mm_movehl_ps(four, four));
  return _mm_cvtss_f32(_mm_add_ss(two, _mm_movehdup_ps(two)));
}

RB_TARGET_AVX2 inline double hsum(__m256d v) noexcept {
  const __m128d two = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
  return _mm_cvtsd_f64(_mm_add_sd(two, _mm_unpackhi_pd(two, two)));
}

RB_TARGET_AVX2 inline std::int64_t hsum(__m256i v) noexcept {
  const __m128i two = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  return _mm_cvtsi128_si64(_mm_add_epi64(two, _mm_unpackhi_epi64(two, two)));
}

RB_TARGET_AVX2 inline __m128i load128(const void* p) noexcept {
  return _mm_loadu_si128(static_cast<const __m128i*>(p));
}

// The last r < 8 16-bit elements, zero-padded (+0.0 in both formats): AVX2 has no 16-bit masked
// load, and a full load past the end could fault.
RB_TARGET_AVX2 inline __m128i load_tail16(const void* p, std::int64_t r) noexcept {
  alignas(16) std::uint16_t buf[8] = {};
  std::memcpy(buf, p, static_cast<std::size_t>(r) * sizeof(std::uint16_t));
  return _mm_load_si128(reinterpret_cast<const __m128i*>(buf));
}

// bf16 is the high half of a float: zero-extend each of 8 to 32 bits and shift it up.
RB_TARGET_AVX2 inline __m256 bf16x8(__m128i h) noexcept {
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}

RB_TARGET_AVX2 inline __m256i i32x4(const std::int32_t* p) noexcept { return _mm256_cvtepi32_epi64(load128(p)); }

}  // namespace

RB_TARGET_AVX2 double avx2_f64in(const double* data, std::int64_t n) noexcept {
  __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd();
  __m256d a2 = _mm256_setzero_pd(), a3 = _mm256_setzero_pd();
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    a0 = _mm256_add_pd(a0, _mm256_loadu_pd(data + i));
    a1 = _mm256_add_pd(a1, _mm256_loadu_pd(data + i + 4));
    a2 = _mm256_add_pd(a2, _mm256_loadu_pd(data + i + 8));
    a3 = _mm256_add_pd(a3, _mm256_loadu_pd(data + i + 12));
  }
  for (; i + 4 <= n; i += 4) a0 = _mm256_add_pd(a0, _mm256_loadu_pd(data + i));
  if (i < n) {
    // r < 4 doubles: the float tail mask read as 2r ones, i.e. r all-ones 64-bit lanes.
    const auto* mask = reinterpret_cast<const __m256i*>(detail::kTailMask + 8 - 2 * (n - i));
    a1 = _mm256_add_pd(a1, _mm256_maskload_pd(data + i, _mm256_loadu_si256(mask)));
  }
  return hsum(_mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3)));
}

RB_TARGET_AVX2_F16C float avx2_f16(const rb::f16* data, std::int64_t n) noexcept {
  __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
  __m256 a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
  std::int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a0 = _mm256_add_ps(a0, _mm256_cvtph_ps(load128(data + i)));
    a1 = _mm256_add_ps(a1, _mm256_cvtph_ps(load128(data + i + 8)));
    a2 = _mm256_add_ps(a2, _mm256_cvtph_ps(load128(data + i + 16)));
    a3 = _mm256_add_ps(a3, _mm256_cvtph_ps(load128(data + i + 24)));
  }
  for (; i + 8 <= n; i += 8) a0 = _mm256_add_ps(a0, _mm256_cvtph_ps(load128(data + i)));
  if (i < n) a1 = _mm256_add_ps(a1, _mm256_cvtph_ps(load_tail16(data + i, n - i)));
  return hsum(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
}

RB_TARGET_AVX2 float avx2_bf16(const rb::bf16* data, std::int64_t n) noexcept {
  __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
  __m256 a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
  std::int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a0 = _mm256_add_ps(a0, bf16x8(load128(data + i)));
    a1 = _mm256_add_ps(a1, bf16x8(load128(data + i + 8)));
    a2 = _mm256_add_ps(a2, bf16x8(load128(data + i + 16)));
    a3 = _mm256_add_ps(a3, bf16x8(load128(data + i + 24)));
  }
  for (; i + 8 <= n; i += 8) a0 = _mm256_add_ps(a0, bf16x8(load128(data + i)));
  if (i < n) a1 = _mm256_add_ps(a1, bf16x8(load_tail16(data + i, n - i)));
  return hsum(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
}

RB_TARGET_AVX2 std::int64_t avx2_i32(const std::int32_t* data, std::int64_t n) noexcept {
  __m256i a0 = _mm256_setzero_si256(), a1 = _mm256_setzero_si256();
  __m256i a2 = _mm256_setzero_si256(), a3 = _mm256_setzero_si256();
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    a0 = _mm256_add_epi64(a0, i32x4(data + i));
    a1 = _mm256_add_epi64(a1, i32x4(data + i + 4));
    a2 = _mm256_add_epi64(a2, i32x4(data + i + 8));
    a3 = _mm256_add_epi64(a3, i32x4(data + i + 12));
  }
  for (; i + 4 <= n; i += 4) a0 = _mm256_add_epi64(a0, i32x4(data + i));
  if (i < n) {
    const __m128i mask = load128(detail::kTailMask + 8 - (n - i));  // r < 4 ones
    a1 = _mm256_add_epi64(a1, _mm256_cvtepi32_epi64(_mm_maskload_epi32(data + i, mask)));
  }
  return hsum(_mm256_add_epi64(_mm256_add_epi64(a0, a1), _mm256_add_epi64(a2, a3)));
}

}  // namespace rb::cpu
