#pragma once
// Serial baselines: std::accumulate as a user writes it.
//   accumulate_f32: float accumulator, one dependent add per element. Its error grows with n:
//                   a sum of positive terms stalls once a term drops below half an ulp of the
//                   running sum (2^24 ones sum to 2^24 and stay there).
//   accumulate_f64: the same loop with a double accumulator; as fast (the add latency, not the
//                   width, bounds both) and accurate to ~n * 2^-53.
#include <cstdint>

namespace rb::cpu {

float accumulate_f32(const float* data, std::int64_t n) noexcept;
double accumulate_f64(const float* data, std::int64_t n) noexcept;

}  // namespace rb::cpu
