// The read loop of read.hpp over 16-bit elements (f16, bf16), spelled with intrinsics for AVX-512F
// and AVX2: the same 64 float lanes (lane j takes the elements i = j mod 64), the same tail (the
// last n mod 64 elements to the first lanes, the others untouched) and the same tree (lane j adds
// lane j + w for w = 32, 16, ..., 1), so every version returns the plain loop's bits. Why not the
// plain loop: GCC 12 vectorizes its widening 1.5 to 3 times slower than the typed kernels convert
// (bf16 on 256-bit vectors with reloads, f16 through compares and masked multiplies), and a read
// ceiling below the sums it bounds would bound nothing.
#include "kernels/cpu/avx512_tail.hpp"  // first: it includes <immintrin.h>

#include <cstddef>
#include <cstring>

#include "kernels/cpu/avx2_tail.hpp"
#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/read16.hpp"

// vcvtph2ps on 256-bit vectors is F16C, not AVX2 (typed_avx2.cpp). The bf16 version shares the
// f16 one's code and target, so both are called only where has_f16c() holds too.
#define RB_TARGET_AVX2_F16C __attribute__((target("avx2,f16c")))

namespace rb::cpu::detail {
namespace {

constexpr int kLanes = 64;

// The last r < 64 elements, zero-padded: a 16-bit masked load is AVX512BW, which is not required.
struct Tail {
  alignas(64) std::uint16_t bits[kLanes] = {};
  Tail(const void* p, std::int64_t r) noexcept { std::memcpy(bits, p, static_cast<std::size_t>(r) * 2); }
};

RB_TARGET_AVX512 inline __m256i load256(const void* p) noexcept {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}
RB_TARGET_AVX512 inline __m512 f16x16(const void* p) noexcept { return _mm512_cvtph_ps(load256(p)); }
RB_TARGET_AVX512 inline __m512 bf16x16(const void* p) noexcept {
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(load256(p)), 16));
}

RB_TARGET_AVX2 inline __m128i load128(const void* p) noexcept {
  return _mm_loadu_si128(static_cast<const __m128i*>(p));
}
RB_TARGET_AVX2_F16C inline __m256 f16x8(const void* p) noexcept { return _mm256_cvtph_ps(load128(p)); }
RB_TARGET_AVX2_F16C inline __m256 bf16x8(const void* p) noexcept {
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(load128(p)), 16));
}

// Lanes 0..3 of a vector of 4 summed as the plain tree does: (l0 + l2) + (l1 + l3).
RB_TARGET_AVX2 inline float tree4(__m128 q) noexcept {
  const __m128 two = _mm_add_ps(q, _mm_movehl_ps(q, q));
  return _mm_cvtss_f32(_mm_add_ss(two, _mm_movehdup_ps(two)));
}

// a0..a3 hold lanes 16k..16k+15. Widen: 16 elements at p as 16 floats.
template <__m512 (*Widen)(const void*)>
RB_TARGET_AVX512 float read16_avx512(const std::uint16_t* data, std::int64_t n) noexcept {
  __m512 a[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps()};
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < 4; ++k) a[k] = _mm512_add_ps(a[k], Widen(data + i + 16 * k));
  }
  if (i < n) {
    const std::int64_t r = n - i;
    const Tail tail(data + i, r);
    for (int k = 0; k < 4 && 16 * k < r; ++k) {
      const std::int64_t count = r - 16 * k < 16 ? r - 16 * k : 16;
      const auto mask = static_cast<__mmask16>((1u << count) - 1u);
      a[k] = _mm512_mask_add_ps(a[k], mask, a[k], Widen(tail.bits + 16 * k));
    }
  }
  const __m512 v = _mm512_add_ps(_mm512_add_ps(a[0], a[2]), _mm512_add_ps(a[1], a[3]));  // w = 32, 16
  // w = 8, the high half taken as 4 doubles' bits: extracting 8 floats would need AVX512DQ.
  const __m256 high = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
  const __m256 h = _mm256_add_ps(_mm512_castps512_ps256(v), high);
  return tree4(_mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1)));  // w = 4, 2, 1
}

// a0..a7 hold lanes 8k..8k+7. Widen: 8 elements at p as 8 floats.
template <__m256 (*Widen)(const void*)>
RB_TARGET_AVX2_F16C float read16_avx2(const std::uint16_t* data, std::int64_t n) noexcept {
  __m256 a[8];
  for (auto& v : a) v = _mm256_setzero_ps();
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < 8; ++k) a[k] = _mm256_add_ps(a[k], Widen(data + i + 8 * k));
  }
  if (i < n) {
    const std::int64_t r = n - i;
    const Tail tail(data + i, r);
    for (int k = 0; k < 8 && 8 * k < r; ++k) {
      const std::int64_t count = r - 8 * k < 8 ? r - 8 * k : 8;
      const __m256 mask = _mm256_castsi256_ps(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kTailMask + 8 - count)));
      a[k] = _mm256_blendv_ps(a[k], _mm256_add_ps(a[k], Widen(tail.bits + 8 * k)), mask);
    }
  }
  for (int k = 0; k < 4; ++k) a[k] = _mm256_add_ps(a[k], a[k + 4]);  // w = 32
  for (int k = 0; k < 2; ++k) a[k] = _mm256_add_ps(a[k], a[k + 2]);  // w = 16
  const __m256 h = _mm256_add_ps(a[0], a[1]);                           // w = 8
  return tree4(_mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1)));  // w = 4, 2, 1
}

}  // namespace

float read_f16_avx512(const rb::f16* data, std::int64_t n) noexcept {
  return read16_avx512<f16x16>(reinterpret_cast<const std::uint16_t*>(data), n);
}
float read_bf16_avx512(const rb::bf16* data, std::int64_t n) noexcept {
  return read16_avx512<bf16x16>(reinterpret_cast<const std::uint16_t*>(data), n);
}
float read_f16_avx2(const rb::f16* data, std::int64_t n) noexcept {
  return read16_avx2<f16x8>(reinterpret_cast<const std::uint16_t*>(data), n);
}
float read_bf16_avx2(const rb::bf16* data, std::int64_t n) noexcept {
  return read16_avx2<bf16x8>(reinterpret_cast<const std::uint16_t*>(data), n);
}

}  // namespace rb::cpu::detail
