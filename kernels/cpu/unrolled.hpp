#pragma once
// Serial kernel 2: accumulate (accumulate.hpp) with 8 independent accumulators.
//   What changed: element i goes to accumulator i % 8, and the 8 are added in a fixed tree
//                 at the end.
//   Why faster:   std::accumulate is bound by the add latency (one dependent add every 3-4
//                 cycles); 8 independent chains keep the adders busy. GCC 12 packs them into two
//                 SSE registers (lane-wise, so no reassociation is needed): ~8x at 2^20.
//   What it costs: nothing in accuracy: each chain runs over n/8 elements, so the f32 variant
//                 is still a sequential float sum per chain (8 float chains of n/8).
#include <cstdint>

namespace rb::cpu {

float unrolled8_f32(const float* data, std::int64_t n) noexcept;
double unrolled8_f64(const float* data, std::int64_t n) noexcept;

}  // namespace rb::cpu
