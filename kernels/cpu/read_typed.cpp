// The read loop of read.hpp over f64, f16, bf16 and i32, spelled with intrinsics for AVX-512F and
// AVX2: the same 64 lanes (lane j takes the elements i = j mod 64), the same tail (the last n mod
// 64 elements to the first lanes, the others untouched) and the same tree (lane j adds lane j + w
// for w = 32, 16, ..., 1), so every version returns the plain loop's bits. Why not the plain loop:
// what the compiler makes of it depends on the compiler (GCC 12 widens 16-bit elements 1.5 to 3
// times slower than the typed kernels convert), and a read ceiling below the sums it bounds would
// bound nothing.
#include "kernels/cpu/avx512_tail.hpp"  // first: it includes <immintrin.h>

#include <cstddef>
#include <cstring>

#include "kernels/cpu/avx2_tail.hpp"
#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/read_typed.hpp"

// vcvtph2ps on 256-bit vectors is F16C, not AVX2 (typed_avx2.cpp).
#define RB_TARGET_AVX2_F16C __attribute__((target("avx2,f16c")))

namespace rb::cpu::detail {
namespace {

constexpr int kLanes = 64;

// How many of the `width` lanes from `first` on the tail of r elements reaches (r - first, clamped).
constexpr int tail_count(std::int64_t r, std::int64_t first, int width) noexcept {
  return r <= first ? 0 : (r - first >= width ? width : static_cast<int>(r - first));
}

// The last r < 64 16-bit elements, zero-padded: a 16-bit masked load is AVX512BW, not required.
struct Tail16 {
  alignas(64) std::uint16_t bits[kLanes] = {};
  Tail16(const void* p, std::int64_t r) noexcept { std::memcpy(bits, p, static_cast<std::size_t>(r) * 2); }
};

// ---- AVX-512F ----

RB_TARGET_AVX512 inline __m256i load256(const void* p) noexcept {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}
RB_TARGET_AVX512 inline __m512i load512(const void* p) noexcept { return _mm512_loadu_si512(p); }

// Lanes 0..3 of a vector of 4 summed as the plain tree does: (l0 + l2) + (l1 + l3).
RB_TARGET_AVX2 inline float tree4(__m128 q) noexcept {
  const __m128 two = _mm_add_ps(q, _mm_movehl_ps(q, q));
  return _mm_cvtss_f32(_mm_add_ss(two, _mm_movehdup_ps(two)));
}
RB_TARGET_AVX2 inline double tree4(__m256d v) noexcept {
  const __m128d two = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
  return _mm_cvtsd_f64(_mm_add_sd(two, _mm_unpackhi_pd(two, two)));
}
// 16 lanes to 4 (w = 8, 4): the high half taken as 4 doubles' bits, since extracting 8 floats
// would need AVX512DQ.
RB_TARGET_AVX512 inline __m128 tree16to4(__m512 v) noexcept {
  const __m256 high = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
  const __m256 h = _mm256_add_ps(_mm512_castps512_ps256(v), high);
  return _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
}

// a[k] holds lanes 8k..8k+7: 8 independent vector chains, loads straight into the adds.
RB_TARGET_AVX512 double read_f64_avx512_impl(const double* data, std::int64_t n) noexcept {
  __m512d a[8];
  for (auto& v : a) v = _mm512_setzero_pd();
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < 8; ++k) a[k] = _mm512_add_pd(a[k], _mm512_loadu_pd(data + i + 8 * k));
  }
  if (i < n) {
    // Masked lanes are neither read nor added to: a lane of -0.0 plus +0.0 would turn +0.0.
    for (int k = 0; k < 8; ++k) {
      const auto mask = static_cast<__mmask8>((1u << tail_count(n - i, 8 * k, 8)) - 1u);
      a[k] = _mm512_mask_add_pd(a[k], mask, a[k], _mm512_maskz_loadu_pd(mask, data + i + 8 * k));
    }
  }
  for (int k = 0; k < 4; ++k) a[k] = _mm512_add_pd(a[k], a[k + 4]);  // w = 32
  for (int k = 0; k < 2; ++k) a[k] = _mm512_add_pd(a[k], a[k + 2]);  // w = 16
  const __m512d v = _mm512_add_pd(a[0], a[1]);                          // w = 8
  return tree4(_mm256_add_pd(_mm512_castpd512_pd256(v), _mm512_extractf64x4_pd(v, 1)));  // w = 4, 2, 1
}

// a[k] holds lanes 8k..8k+7 as int64. Integer sums are exact: the order cannot change the result.
RB_TARGET_AVX512 std::int64_t read_i32_avx512_impl(const std::int32_t* data, std::int64_t n) noexcept {
  __m512i a[8];
  for (auto& v : a) v = _mm512_setzero_si512();
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < 8; ++k) a[k] = _mm512_add_epi64(a[k], _mm512_cvtepi32_epi64(load256(data + i + 8 * k)));
  }
  if (i < n) {
    for (int k = 0; k < 8; ++k) {
      const auto mask = static_cast<__mmask16>((1u << tail_count(n - i, 8 * k, 8)) - 1u);
      const __m512i x = _mm512_maskz_loadu_epi32(mask, data + i + 8 * k);  // only the low 8 can be set
      a[k] = _mm512_add_epi64(a[k], _mm512_cvtepi32_epi64(_mm512_castsi512_si256(x)));
    }
  }
  for (int k = 0; k < 4; ++k) a[k] = _mm512_add_epi64(a[k], a[k + 4]);
  for (int k = 0; k < 2; ++k) a[k] = _mm512_add_epi64(a[k], a[k + 2]);
  return _mm512_reduce_add_epi64(_mm512_add_epi64(a[0], a[1]));
}

RB_TARGET_AVX512 inline __m512 f16x16(const void* p) noexcept { return _mm512_cvtph_ps(load256(p)); }
// bf16 is the high half of a float: zero-extended to 32 bits and shifted up.
RB_TARGET_AVX512 inline __m512 bf16x16(const void* p) noexcept {
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(load256(p)), 16));
}

// a[k] holds lanes 16k..16k+15. Widen: 16 elements at p as 16 floats.
template <__m512 (*Widen)(const void*)>
RB_TARGET_AVX512 float read16_avx512(const std::uint16_t* data, std::int64_t n) noexcept {
  __m512 a[4];
  for (auto& v : a) v = _mm512_setzero_ps();
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < 4; ++k) a[k] = _mm512_add_ps(a[k], Widen(data + i + 16 * k));
  }
  if (i < n) {
    const Tail16 tail(data + i, n - i);
    for (int k = 0; k < 4; ++k) {
      const auto mask = static_cast<__mmask16>((1u << tail_count(n - i, 16 * k, 16)) - 1u);
      a[k] = _mm512_mask_add_ps(a[k], mask, a[k], Widen(tail.bits + 16 * k));
    }
  }
  const __m512 v = _mm512_add_ps(_mm512_add_ps(a[0], a[2]), _mm512_add_ps(a[1], a[3]));  // w = 32, 16
  return tree4(tree16to4(v));                                                             // w = 8, ..., 1
}

// ---- AVX2 ----

RB_TARGET_AVX2 inline __m128i load128(const void* p) noexcept {
  return _mm_loadu_si128(static_cast<const __m128i*>(p));
}
// kTailMask's 8 ints from which `count` of 8 32-bit lanes (or count of 4 64-bit ones, 2 * count
// ints) are set.
RB_TARGET_AVX2 inline __m256i mask8(int count) noexcept {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kTailMask + 8 - count));
}

// a[k] holds lanes 4k..4k+3: all 16 ymm registers as accumulators, the loads folded into the adds.
RB_TARGET_AVX2 double read_f64_avx2_impl(const double* data, std::int64_t n) noexcept {
  __m256d a[16];
  for (auto& v : a) v = _mm256_setzero_pd();
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < 16; ++k) a[k] = _mm256_add_pd(a[k], _mm256_loadu_pd(data + i + 4 * k));
  }
  if (i < n) {
    for (int k = 0; k < 16; ++k) {
      const __m256d mask = _mm256_castsi256_pd(mask8(2 * tail_count(n - i, 4 * k, 4)));
      const __m256d x = _mm256_maskload_pd(data + i + 4 * k, _mm256_castpd_si256(mask));
      a[k] = _mm256_blendv_pd(a[k], _mm256_add_pd(a[k], x), mask);
    }
  }
  for (int w = 8; w > 0; w /= 2) {  // w = 32, 16, 8, 4 in lanes
    for (int k = 0; k < w; ++k) a[k] = _mm256_add_pd(a[k], a[k + w]);
  }
  return tree4(a[0]);  // w = 2, 1
}

// a[k] holds lanes 4k..4k+3 as int64 (exact in any order).
RB_TARGET_AVX2 std::int64_t read_i32_avx2_impl(const std::int32_t* data, std::int64_t n) noexcept {
  __m256i a[16];
  for (auto& v : a) v = _mm256_setzero_si256();
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < 16; ++k) a[k] = _mm256_add_epi64(a[k], _mm256_cvtepi32_epi64(load128(data + i + 4 * k)));
  }
  if (i < n) {
    for (int k = 0; k < 16; ++k) {
      const __m128i mask = _mm256_castsi256_si128(mask8(tail_count(n - i, 4 * k, 4)));
      a[k] = _mm256_add_epi64(a[k], _mm256_cvtepi32_epi64(_mm_maskload_epi32(data + i + 4 * k, mask)));
    }
  }
  for (int w = 8; w > 0; w /= 2) {
    for (int k = 0; k < w; ++k) a[k] = _mm256_add_epi64(a[k], a[k + w]);
  }
  const __m128i two = _mm_add_epi64(_mm256_castsi256_si128(a[0]), _mm256_extracti128_si256(a[0], 1));
  return _mm_cvtsi128_si64(_mm_add_epi64(two, _mm_unpackhi_epi64(two, two)));
}

RB_TARGET_AVX2_F16C inline __m256 f16x8(const void* p) noexcept { return _mm256_cvtph_ps(load128(p)); }
RB_TARGET_AVX2 inline __m256 bf16x8(const void* p) noexcept {
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(load128(p)), 16));
}

// a[k] holds lanes 8k..8k+7. The bf16 version shares the f16 one's target, so both are called
// only where has_f16c() holds too.
template <__m256 (*Widen)(const void*)>
RB_TARGET_AVX2_F16C float read16_avx2(const std::uint16_t* data, std::int64_t n) noexcept {
  __m256 a[8];
  for (auto& v : a) v = _mm256_setzero_ps();
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < 8; ++k) a[k] = _mm256_add_ps(a[k], Widen(data + i + 8 * k));
  }
  if (i < n) {
    const Tail16 tail(data + i, n - i);
    for (int k = 0; k < 8; ++k) {
      const __m256 mask = _mm256_castsi256_ps(mask8(tail_count(n - i, 8 * k, 8)));
      a[k] = _mm256_blendv_ps(a[k], _mm256_add_ps(a[k], Widen(tail.bits + 8 * k)), mask);
    }
  }
  for (int w = 4; w > 0; w /= 2) {  // w = 32, 16, 8 in lanes
    for (int k = 0; k < w; ++k) a[k] = _mm256_add_ps(a[k], a[k + w]);
  }
  return tree4(_mm_add_ps(_mm256_castps256_ps128(a[0]), _mm256_extractf128_ps(a[0], 1)));  // w = 4, 2, 1
}

}  // namespace

double read_f64_avx512(const double* data, std::int64_t n) noexcept { return read_f64_avx512_impl(data, n); }
std::int64_t read_i32_avx512(const std::int32_t* data, std::int64_t n) noexcept {
  return read_i32_avx512_impl(data, n);
}
float read_f16_avx512(const rb::f16* data, std::int64_t n) noexcept {
  return read16_avx512<f16x16>(reinterpret_cast<const std::uint16_t*>(data), n);
}
float read_bf16_avx512(const rb::bf16* data, std::int64_t n) noexcept {
  return read16_avx512<bf16x16>(reinterpret_cast<const std::uint16_t*>(data), n);
}
double read_f64_avx2(const double* data, std::int64_t n) noexcept { return read_f64_avx2_impl(data, n); }
std::int64_t read_i32_avx2(const std::int32_t* data, std::int64_t n) noexcept { return read_i32_avx2_impl(data, n); }
float read_f16_avx2(const rb::f16* data, std::int64_t n) noexcept {
  return read16_avx2<f16x8>(reinterpret_cast<const std::uint16_t*>(data), n);
}
float read_bf16_avx2(const rb::bf16* data, std::int64_t n) noexcept {
  return read16_avx2<bf16x8>(reinterpret_cast<const std::uint16_t*>(data), n);
}

}  // namespace rb::cpu::detail
