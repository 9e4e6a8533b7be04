#pragma once
// read.hpp's loop over the element types other than float, with intrinsics (read_typed.cpp says
// why), one per ISA; read.cpp picks among them. Each needs its ISA: AVX-512F, AVX2, or AVX2 with
// F16C for f16 (isa.hpp). The baseline versions (read.cpp: the plain loop, compiled for SSE2) run
// anywhere. All return the same bits; they are declared here so that the tests can hold every
// version to that.
#include <cstdint>

#include "common/dtype.hpp"

namespace rb::cpu::detail {

double read_f64_avx512(const double* data, std::int64_t n) noexcept;
float read_f16_avx512(const rb::f16* data, std::int64_t n) noexcept;
float read_bf16_avx512(const rb::bf16* data, std::int64_t n) noexcept;
std::int64_t read_i32_avx512(const std::int32_t* data, std::int64_t n) noexcept;

double read_f64_avx2(const double* data, std::int64_t n) noexcept;
float read_f16_avx2(const rb::f16* data, std::int64_t n) noexcept;  // also needs F16C
float read_bf16_avx2(const rb::bf16* data, std::int64_t n) noexcept;
std::int64_t read_i32_avx2(const std::int32_t* data, std::int64_t n) noexcept;

double read_f64_baseline(const double* data, std::int64_t n) noexcept;
float read_f16_baseline(const rb::f16* data, std::int64_t n) noexcept;
float read_bf16_baseline(const rb::bf16* data, std::int64_t n) noexcept;
std::int64_t read_i32_baseline(const std::int32_t* data, std::int64_t n) noexcept;

}  // namespace rb::cpu::detail
