#pragma once
// read.hpp's loop over the element types other than float, with intrinsics (read_typed.cpp says
// why), one per ISA; read.cpp picks among them. Each needs its ISA: AVX-512F, AVX2, or AVX2 with
// F16C for f16 (isa.hpp). The baseline versions (read.cpp: the plain loop, compiled for SSE2) run
// anywhere. All return the same bits; they are declared here so that the tests can hold every
// version to that.
#include <cstdint>

#include "common/dtype.hpp"

// read_f64_ISA, read_f16_ISA, read_bf16_ISA, read_i32_ISA for one ISA's versions.
#define RB_CPU_DECLARE_READS(isa)                                       \
  double read_f64_##isa(const double* data, std::int64_t n) noexcept;   \
  float read_f16_##isa(const rb::f16* data, std::int64_t n) noexcept;   \
  float read_bf16_##isa(const rb::bf16* data, std::int64_t n) noexcept; \
  std::int64_t read_i32_##isa(const std::int32_t* data, std::int64_t n) noexcept

namespace rb::cpu::detail {

RB_CPU_DECLARE_READS(avx512);
RB_CPU_DECLARE_READS(avx2);  // read_f16_avx2 also needs F16C
RB_CPU_DECLARE_READS(baseline);

}  // namespace rb::cpu::detail
#undef RB_CPU_DECLARE_READS
