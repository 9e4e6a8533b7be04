#pragma once
// read.hpp's loop over 16-bit elements with intrinsics (read16.cpp says why), one per ISA; read.cpp
// picks among them. Each needs its ISA: AVX-512F, or AVX2 with F16C (isa.hpp). The baseline
// versions (read.cpp: the plain loop, compiled for SSE2) run anywhere. All return the same bits;
// they are declared here so that the tests can hold every version to that.
#include <cstdint>

#include "common/dtype.hpp"

namespace rb::cpu::detail {

float read_f16_avx512(const rb::f16* data, std::int64_t n) noexcept;
float read_bf16_avx512(const rb::bf16* data, std::int64_t n) noexcept;
float read_f16_avx2(const rb::f16* data, std::int64_t n) noexcept;
float read_bf16_avx2(const rb::bf16* data, std::int64_t n) noexcept;
float read_f16_baseline(const rb::f16* data, std::int64_t n) noexcept;
float read_bf16_baseline(const rb::bf16* data, std::int64_t n) noexcept;

}  // namespace rb::cpu::detail
