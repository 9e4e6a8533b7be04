// The AVX2 sums of avx2.hpp but Kahan's: one loop (simd_sum.hpp), one lane policy per pair of
// input and accumulator type. Lanes are added as (a0 + a1) + (a2 + a3), then halved in a fixed order.
#include <immintrin.h>

#include <cstddef>
#include <cstring>

#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/avx2_tail.hpp"
#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/simd_sum.hpp"

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

// The first r of the 8 mask lanes set (avx2_tail.hpp); as 64-bit lanes for 2r.
RB_TARGET_AVX2 inline __m128i mask4(std::int64_t r) noexcept { return load128(detail::kTailMask + 8 - r); }

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

// Lane policies (simd_sum.hpp). 8 float lanes over floats, f16 or bf16: From<T> adds T (with the
// ISA its conversion needs), FloatLanes does the rest.
template <class T>
struct From;

template <class T>
struct FloatLanes : From<T>, detail::LaneTypes<T, float, 8> {
  using V = __m256;
  RB_TARGET_AVX2 static void zero(__m256& a) noexcept { a = _mm256_setzero_ps(); }
  RB_TARGET_AVX2 static float total(__m256 (&a)[4]) noexcept {
    return hsum(_mm256_add_ps(_mm256_add_ps(a[0], a[1]), _mm256_add_ps(a[2], a[3])));
  }
};

template <>
struct From<float> {
  RB_TARGET_AVX2 static void add(__m256& a, const float* p) noexcept { a = _mm256_add_ps(a, _mm256_loadu_ps(p)); }
  RB_TARGET_AVX2 static void add_tail(__m256& a, const float* p, std::int64_t r) noexcept {
    a = _mm256_add_ps(a, detail::avx2_load_tail(p, r));
  }
};
// vcvtph2ps is F16C, not AVX2: only the f16 kernel carries it (has_f16c()).
template <>
struct From<rb::f16> {
  RB_TARGET_AVX2_F16C static void add(__m256& a, const rb::f16* p) noexcept {
    a = _mm256_add_ps(a, _mm256_cvtph_ps(load128(p)));
  }
  RB_TARGET_AVX2_F16C static void add_tail(__m256& a, const rb::f16* p, std::int64_t r) noexcept {
    a = _mm256_add_ps(a, _mm256_cvtph_ps(load_tail16(p, r)));
  }
};
template <>
struct From<rb::bf16> {
  RB_TARGET_AVX2 static void add(__m256& a, const rb::bf16* p) noexcept { a = _mm256_add_ps(a, bf16x8(load128(p))); }
  RB_TARGET_AVX2 static void add_tail(__m256& a, const rb::bf16* p, std::int64_t r) noexcept {
    a = _mm256_add_ps(a, bf16x8(load_tail16(p, r)));
  }
};

// 4 double lanes over floats (widened by vcvtps2pd) or doubles.
template <class T>
struct DoubleLanes : detail::LaneTypes<T, double, 4> {
  using V = __m256d;
  RB_TARGET_AVX2 static void zero(__m256d& a) noexcept { a = _mm256_setzero_pd(); }
  RB_TARGET_AVX2 static void add(__m256d& a, const T* p) noexcept {
    if constexpr (sizeof(T) == sizeof(float)) a = _mm256_add_pd(a, _mm256_cvtps_pd(_mm_loadu_ps(p)));
    else a = _mm256_add_pd(a, _mm256_loadu_pd(p));
  }
  RB_TARGET_AVX2 static void add_tail(__m256d& a, const T* p, std::int64_t r) noexcept {
    if constexpr (sizeof(T) == sizeof(float)) {
      a = _mm256_add_pd(a, _mm256_cvtps_pd(_mm_maskload_ps(p, mask4(r))));
    } else {
      // r < 4 doubles: the float tail mask read as 2r ones, i.e. r all-ones 64-bit lanes.
      const auto* mask = reinterpret_cast<const __m256i*>(detail::kTailMask + 8 - 2 * r);
      a = _mm256_add_pd(a, _mm256_maskload_pd(p, _mm256_loadu_si256(mask)));
    }
  }
  RB_TARGET_AVX2 static double total(__m256d (&a)[4]) noexcept {
    return hsum(_mm256_add_pd(_mm256_add_pd(a[0], a[1]), _mm256_add_pd(a[2], a[3])));
  }
};

// 4 int64 lanes over int32 (sign-extended): exact.
struct Int64Lanes : detail::LaneTypes<std::int32_t, std::int64_t, 4> {
  using V = __m256i;
  RB_TARGET_AVX2 static void zero(V& a) noexcept { a = _mm256_setzero_si256(); }
  RB_TARGET_AVX2 static void add(__m256i& a, const std::int32_t* p) noexcept {
    a = _mm256_add_epi64(a, _mm256_cvtepi32_epi64(load128(p)));
  }
  RB_TARGET_AVX2 static void add_tail(__m256i& a, const std::int32_t* p, std::int64_t r) noexcept {
    a = _mm256_add_epi64(a, _mm256_cvtepi32_epi64(_mm_maskload_epi32(p, mask4(r))));
  }
  RB_TARGET_AVX2 static std::int64_t total(V (&a)[4]) noexcept {
    return hsum(_mm256_add_epi64(_mm256_add_epi64(a[0], a[1]), _mm256_add_epi64(a[2], a[3])));
  }
};

}  // namespace

RB_CPU_DEFINE_SUM4_KERNELS(avx2, RB_TARGET_AVX2, RB_TARGET_AVX2_F16C)

}  // namespace rb::cpu
