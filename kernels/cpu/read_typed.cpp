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

// vcvtph2ps on 256-bit vectors is F16C, not AVX2 (isa.hpp: RB_TARGET_AVX2_F16C).

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

// a[k] holds lanes 16k..16k+15, each 16 f16 widened by vcvtph2ps.
RB_TARGET_AVX512 float read_f16_avx512_impl(const std::uint16_t* data, std::int64_t n) noexcept {
  __m512 a[4];
  for (auto& v : a) v = _mm512_setzero_ps();
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < 4; ++k) a[k] = _mm512_add_ps(a[k], f16x16(data + i + 16 * k));
  }
  if (i < n) {
    const Tail16 tail(data + i, n - i);
    for (int k = 0; k < 4; ++k) {
      const auto mask = static_cast<__mmask16>((1u << tail_count(n - i, 16 * k, 16)) - 1u);
      a[k] = _mm512_mask_add_ps(a[k], mask, a[k], f16x16(tail.bits + 16 * k));
    }
  }
  const __m512 v = _mm512_add_ps(_mm512_add_ps(a[0], a[2]), _mm512_add_ps(a[1], a[3]));  // w = 32, 16
  return tree4(tree16to4(v));                                                             // w = 8, ..., 1
}

// bf16 without widening: a 32-bit word holds elements 2k (low half) and 2k + 1 (high half), and a
// bf16 is the high half of a float, so the word shifted up 16 is element 2k as a float and the word
// with its low half cleared is element 2k + 1. No zero-extending shuffle: per 32 elements, one load,
// a shift, an and and two adds, against two shuffles, two shifts and two adds widening. Lanes stay
// the plain loop's: e[m] lane k is lane 32m + 2k, o[m] lane k is lane 32m + 2k + 1, and the tree
// pairs them as the plain tree does (w = 32 across m, w = 16 ... 2 inside e and o, w = 1 e + o).
constexpr std::uint32_t kHighHalf = 0xFFFF0000u;
// How many of a split vector's `width` lanes k the tail of r elements reaches: those with
// first + 2k + odd < r, where the vector's elements start at `first` (e: odd = 0, o: odd = 1).
constexpr int split_tail_count(std::int64_t r, std::int64_t first, int odd, int width) noexcept {
  const std::int64_t left = r - first - odd;  // lanes with 2k < left
  return left <= 0 ? 0 : (left >= 2 * width ? width : static_cast<int>((left + 1) / 2));
}

RB_TARGET_AVX512 inline __m512 even_bf16(__m512i w) noexcept { return _mm512_castsi512_ps(_mm512_slli_epi32(w, 16)); }
RB_TARGET_AVX512 inline __m512 odd_bf16(__m512i w) noexcept {
  return _mm512_castsi512_ps(_mm512_and_si512(w, _mm512_set1_epi32(static_cast<int>(kHighHalf))));
}

RB_TARGET_AVX512 float read_bf16_avx512_impl(const std::uint16_t* data, std::int64_t n) noexcept {
  __m512 e[2], o[2];
  for (int m = 0; m < 2; ++m) e[m] = o[m] = _mm512_setzero_ps();
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int m = 0; m < 2; ++m) {
      const __m512i w = load512(data + i + 32 * m);
      e[m] = _mm512_add_ps(e[m], even_bf16(w));
      o[m] = _mm512_add_ps(o[m], odd_bf16(w));
    }
  }
  if (i < n) {
    const Tail16 tail(data + i, n - i);
    for (int m = 0; m < 2; ++m) {
      const __m512i w = load512(tail.bits + 32 * m);
      const auto even = static_cast<__mmask16>((1u << split_tail_count(n - i, 32 * m, 0, 16)) - 1u);
      const auto odd = static_cast<__mmask16>((1u << split_tail_count(n - i, 32 * m, 1, 16)) - 1u);
      e[m] = _mm512_mask_add_ps(e[m], even, e[m], even_bf16(w));
      o[m] = _mm512_mask_add_ps(o[m], odd, o[m], odd_bf16(w));
    }
  }
  const float even = tree4(tree16to4(_mm512_add_ps(e[0], e[1])));  // w = 32, then 16, ..., 2
  const float odd = tree4(tree16to4(_mm512_add_ps(o[0], o[1])));
  return even + odd;  // w = 1
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

// a[k] holds lanes 8k..8k+7, each 8 f16 widened by vcvtph2ps.
RB_TARGET_AVX2_F16C float read_f16_avx2_impl(const std::uint16_t* data, std::int64_t n) noexcept {
  __m256 a[8];
  for (auto& v : a) v = _mm256_setzero_ps();
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < 8; ++k) a[k] = _mm256_add_ps(a[k], f16x8(data + i + 8 * k));
  }
  if (i < n) {
    const Tail16 tail(data + i, n - i);
    for (int k = 0; k < 8; ++k) {
      const __m256 mask = _mm256_castsi256_ps(mask8(tail_count(n - i, 8 * k, 8)));
      a[k] = _mm256_blendv_ps(a[k], _mm256_add_ps(a[k], f16x8(tail.bits + 8 * k)), mask);
    }
  }
  for (int w = 4; w > 0; w /= 2) {  // w = 32, 16, 8 in lanes
    for (int k = 0; k < w; ++k) a[k] = _mm256_add_ps(a[k], a[k + w]);
  }
  return tree4(_mm_add_ps(_mm256_castps256_ps128(a[0]), _mm256_extractf128_ps(a[0], 1)));  // w = 4, 2, 1
}

// The AVX2 version of read_bf16_avx512_impl: e[m] lane k is lane 16m + 2k, o[m] lane k lane
// 16m + 2k + 1; the tree adds m + 2 into m (w = 32), then 1 into 0 (w = 16), then inside e and o.
RB_TARGET_AVX2 inline __m256 even_bf16(__m256i w) noexcept { return _mm256_castsi256_ps(_mm256_slli_epi32(w, 16)); }
RB_TARGET_AVX2 inline __m256 odd_bf16(__m256i w) noexcept {
  return _mm256_castsi256_ps(_mm256_and_si256(w, _mm256_set1_epi32(static_cast<int>(kHighHalf))));
}

RB_TARGET_AVX2 float read_bf16_avx2_impl(const std::uint16_t* data, std::int64_t n) noexcept {
  __m256 e[4], o[4];
  for (int m = 0; m < 4; ++m) e[m] = o[m] = _mm256_setzero_ps();
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int m = 0; m < 4; ++m) {
      const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + i + 16 * m));
      e[m] = _mm256_add_ps(e[m], even_bf16(w));
      o[m] = _mm256_add_ps(o[m], odd_bf16(w));
    }
  }
  if (i < n) {
    const Tail16 tail(data + i, n - i);
    for (int m = 0; m < 4; ++m) {
      const __m256i w = _mm256_load_si256(reinterpret_cast<const __m256i*>(tail.bits + 16 * m));
      const __m256 even = _mm256_castsi256_ps(mask8(split_tail_count(n - i, 16 * m, 0, 8)));
      const __m256 odd = _mm256_castsi256_ps(mask8(split_tail_count(n - i, 16 * m, 1, 8)));
      e[m] = _mm256_blendv_ps(e[m], _mm256_add_ps(e[m], even_bf16(w)), even);
      o[m] = _mm256_blendv_ps(o[m], _mm256_add_ps(o[m], odd_bf16(w)), odd);
    }
  }
  for (int w = 2; w > 0; w /= 2) {  // w = 32, 16 in lanes
    for (int m = 0; m < w; ++m) {
      e[m] = _mm256_add_ps(e[m], e[m + w]);
      o[m] = _mm256_add_ps(o[m], o[m + w]);
    }
  }
  // w = 8 (halves), then 4, 2 (tree4); w = 1: even + odd
  const float even = tree4(_mm_add_ps(_mm256_castps256_ps128(e[0]), _mm256_extractf128_ps(e[0], 1)));
  const float odd = tree4(_mm_add_ps(_mm256_castps256_ps128(o[0]), _mm256_extractf128_ps(o[0], 1)));
  return even + odd;
}

}  // namespace

double read_f64_avx512(const double* data, std::int64_t n) noexcept { return read_f64_avx512_impl(data, n); }
std::int64_t read_i32_avx512(const std::int32_t* data, std::int64_t n) noexcept {
  return read_i32_avx512_impl(data, n);
}
float read_f16_avx512(const rb::f16* data, std::int64_t n) noexcept {
  return read_f16_avx512_impl(reinterpret_cast<const std::uint16_t*>(data), n);
}
float read_bf16_avx512(const rb::bf16* data, std::int64_t n) noexcept {
  return read_bf16_avx512_impl(reinterpret_cast<const std::uint16_t*>(data), n);
}
double read_f64_avx2(const double* data, std::int64_t n) noexcept { return read_f64_avx2_impl(data, n); }
std::int64_t read_i32_avx2(const std::int32_t* data, std::int64_t n) noexcept { return read_i32_avx2_impl(data, n); }
float read_f16_avx2(const rb::f16* data, std::int64_t n) noexcept {
  return read_f16_avx2_impl(reinterpret_cast<const std::uint16_t*>(data), n);
}
float read_bf16_avx2(const rb::bf16* data, std::int64_t n) noexcept {
  return read_bf16_avx2_impl(reinterpret_cast<const std::uint16_t*>(data), n);
}

}  // namespace rb::cpu::detail
