#pragma once
// The masked tail load shared by the AVX2 kernels: the last r < 8 floats of a range, with the
// missing lanes zero. vmaskmovps does not touch (or fault on) masked-out lanes, so reading past
// the end of the input is never an issue, whatever the alignment.
#include <immintrin.h>

#include <cstdint>

#include "kernels/cpu/isa.hpp"

namespace rb::cpu::detail {

// 8 all-ones lanes then 8 zero lanes: the 8 ints starting at kTailMask + 8 - r have r ones.
alignas(64) inline constexpr std::int32_t kTailMask[16] = {-1, -1, -1, -1, -1, -1, -1, -1,
                                                             0, 0, 0, 0, 0, 0, 0, 0};

RB_TARGET_AVX2 inline __m256 avx2_load_tail(const float* p, std::int64_t r) noexcept {
  const __m256i mask = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kTailMask + 8 - r));
  return _mm256_maskload_ps(p, mask);
}

}  // namespace rb::cpu::detail
