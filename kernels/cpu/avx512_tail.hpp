#pragma once
// The masked tail load shared by the AVX-512 kernels: the last r < 16 floats of a range, the
// other lanes zero. Masked-out lanes are never read, so they cannot fault past the end.
//
// Include this, not <immintrin.h>, first in AVX-512 files: GCC 12's _mm512_undefined_pd/ps
// initialise a variable with itself, which -W(maybe-)uninitialized reports wherever
// _mm512_cvtps_pd or _mm512_extractf64x4_pd is inlined (GCC PR 105593, fixed in GCC 13). The
// pragmas cover only the intrinsics header's own lines.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <cstdint>

#include "kernels/cpu/isa.hpp"

namespace rb::cpu::detail {

RB_TARGET_AVX512 inline __m512 avx512_load_tail(const float* p, std::int64_t r) noexcept {
  return _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << r) - 1u), p);
}

}  // namespace rb::cpu::detail
