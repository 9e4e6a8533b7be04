// The AVX-512F sums of avx512.hpp but Kahan's and bf16dp's: one loop (simd_sum.hpp), one lane
// policy per pair of input and accumulator type; the AVX2 ones (avx2.cpp) at twice the width.
#include "kernels/cpu/avx512_tail.hpp"  // first: it includes <immintrin.h>

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "kernels/cpu/avx512.hpp"
#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/simd_sum.hpp"

namespace rb::cpu {
namespace {

RB_TARGET_AVX512 inline __m256i load256(const void* p) noexcept {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

// The first r of 16 (or 8) lanes.
RB_TARGET_AVX512 inline __mmask16 first16(std::int64_t r) noexcept { return static_cast<__mmask16>((1u << r) - 1u); }

// The last r < 16 16-bit elements, zero-padded (+0.0 in both formats): a 16-bit masked load is
// AVX512BW, which these kernels do not require.
RB_TARGET_AVX512 inline __m256i load_tail16(const void* p, std::int64_t r) noexcept {
  alignas(32) std::uint16_t buf[16] = {};
  std::memcpy(buf, p, static_cast<std::size_t>(r) * sizeof(std::uint16_t));
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(buf));
}

// 16 f16 or bf16 as floats; bf16 is the high half of a float: zero-extend and shift it up.
template <class T>
RB_TARGET_AVX512 inline __m512 floats16(__m256i h) noexcept {
  if constexpr (std::is_same_v<T, rb::f16>) return _mm512_cvtph_ps(h);
  else return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

// Lane policies (simd_sum.hpp); the lanes meet in _mm512_reduce_add_*'s fixed halving tree.
// 16 float lanes over floats, f16 or bf16.
template <class T>
struct FloatLanes : detail::LaneTypes<T, float, 16> {
  using V = __m512;
  RB_TARGET_AVX512 static void zero(__m512& a) noexcept { a = _mm512_setzero_ps(); }
  RB_TARGET_AVX512 static void add(__m512& a, const T* p) noexcept {
    if constexpr (std::is_same_v<T, float>) a = _mm512_add_ps(a, _mm512_loadu_ps(p));
    else a = _mm512_add_ps(a, floats16<T>(load256(p)));
  }
  RB_TARGET_AVX512 static void add_tail(__m512& a, const T* p, std::int64_t r) noexcept {
    if constexpr (std::is_same_v<T, float>) a = _mm512_add_ps(a, detail::avx512_load_tail(p, r));
    else a = _mm512_add_ps(a, floats16<T>(load_tail16(p, r)));
  }
  RB_TARGET_AVX512 static float total(__m512 (&a)[4]) noexcept {
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a[0], a[1]), _mm512_add_ps(a[2], a[3])));
  }
};

// 8 double lanes over floats (widened by vcvtps2pd zmm, ymm) or doubles.
template <class T>
struct DoubleLanes : detail::LaneTypes<T, double, 8> {
  using V = __m512d;
  RB_TARGET_AVX512 static void zero(__m512d& a) noexcept { a = _mm512_setzero_pd(); }
  RB_TARGET_AVX512 static void add(__m512d& a, const T* p) noexcept {
    if constexpr (std::is_same_v<T, float>) a = _mm512_add_pd(a, _mm512_cvtps_pd(_mm256_loadu_ps(p)));
    else a = _mm512_add_pd(a, _mm512_loadu_pd(p));
  }
  RB_TARGET_AVX512 static void add_tail(__m512d& a, const T* p, std::int64_t r) noexcept {
    if constexpr (std::is_same_v<T, float>) {
      // r < 8 floats: a zero-masked 16-lane load of which only the low 8 lanes can be set.
      a = _mm512_add_pd(a, _mm512_cvtps_pd(_mm512_castps512_ps256(detail::avx512_load_tail(p, r))));
    } else {
      a = _mm512_add_pd(a, _mm512_maskz_loadu_pd(static_cast<__mmask8>(first16(r)), p));
    }
  }
  RB_TARGET_AVX512 static double total(__m512d (&a)[4]) noexcept {
    return _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(a[0], a[1]), _mm512_add_pd(a[2], a[3])));
  }
};

// 8 int64 lanes over int32 (sign-extended): exact.
struct Int64Lanes : detail::LaneTypes<std::int32_t, std::int64_t, 8> {
  using V = __m512i;
  RB_TARGET_AVX512 static void zero(V& a) noexcept { a = _mm512_setzero_si512(); }
  RB_TARGET_AVX512 static void add(V& a, const In* p) noexcept {
    a = _mm512_add_epi64(a, _mm512_cvtepi32_epi64(load256(p)));
  }
  RB_TARGET_AVX512 static void add_tail(V& a, const In* p, std::int64_t r) noexcept {
    // r < 8 ints: a zero-masked 16-lane load of which only the low 8 lanes can be set.
    const __m512i tail = _mm512_maskz_loadu_epi32(first16(r), p);
    a = _mm512_add_epi64(a, _mm512_cvtepi32_epi64(_mm512_castsi512_si256(tail)));
  }
  RB_TARGET_AVX512 static std::int64_t total(V (&a)[4]) noexcept {
    return _mm512_reduce_add_epi64(_mm512_add_epi64(_mm512_add_epi64(a[0], a[1]), _mm512_add_epi64(a[2], a[3])));
  }
};

}  // namespace

RB_CPU_DEFINE_SUM4_KERNELS(avx512, RB_TARGET_AVX512, RB_TARGET_AVX512)

}  // namespace rb::cpu
