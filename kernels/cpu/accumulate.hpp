#pragma once
// Serial baselines: std::accumulate as a user writes it, one accumulator, each element first
// converted exactly (f16/bf16 -> float, f64 stays double, i32 -> int64).
//   accumulate_f32: float accumulator, one dependent add per element. Its error grows with n:
//                   a sum of positive terms stalls once a term drops below half an ulp of the
//                   running sum (2^24 ones sum to 2^24 and stay there).
//   accumulate_f64: the same loop over floats with a double accumulator; as fast (the add
//                   latency, not the width, bounds both) and accurate to ~n * 2^-53.
//   accumulate_f64in, _f16, _bf16: the element types' loops, in double, float and float;
//   accumulate_i32:  in int64, exact for any n < 2^32 in any order.
#include <cstdint>

#include "kernels/cpu/sum_declarations.hpp"

namespace rb::cpu {

RB_CPU_DECLARE_SUMS(accumulate);
double accumulate_f64(const float* data, std::int64_t n) noexcept;

}  // namespace rb::cpu
