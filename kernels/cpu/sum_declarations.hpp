#pragma once
// The signatures every serial kernel family shares, written once: FAMILY_f32 over floats, and one
// sum per other element type, each in the type its lanes hold (f16/bf16 in float, i32 in int64).
// A family adds its own further kernels (accumulate_f64, avx2_kahan, ...) beside the macro.
#include <cstdint>

#include "common/dtype.hpp"

#define RB_CPU_DECLARE_SUMS(family)                                   \
  float family##_f32(const float* data, std::int64_t n) noexcept;     \
  double family##_f64in(const double* data, std::int64_t n) noexcept; \
  float family##_f16(const rb::f16* data, std::int64_t n) noexcept;   \
  float family##_bf16(const rb::bf16* data, std::int64_t n) noexcept; \
  std::int64_t family##_i32(const std::int32_t* data, std::int64_t n) noexcept
