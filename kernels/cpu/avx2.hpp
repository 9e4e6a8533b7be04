#pragma once
// Serial kernels 3-5: AVX2, 8 float lanes per register. Call only where has_avx2() (isa.hpp).
//
//   avx2_f32    What changed from unrolled8: 4 independent 8-lane accumulators (32 floats per
//               iteration) instead of 8 scalars. Why faster: 4 adds in flight cover the 3-4
//               cycle add latency at 2 vector loads per cycle, so one core reads L2/L3 at the
//               cache's speed, not the adder's. Cost: 32 float chains of n/32 elements each
//               (32 float chains); the 32 lanes meet in a fixed tree.
//   avx2_kahan  What changed: each lane carries a Kahan correction, also through the tail
//               (one masked-load step) and the horizontal reduction (the sums and corrections
//               are widened to double and combined there). Why: the error no longer grows with
//               n: about 2 u32 sum|x|, independent of n. Cost: 4 dependent adds per step
//               instead of 1; 6 independent pairs (avx2_kahan.cpp) keep that above DRAM speed.
//               Returned as double so that the final correction is not rounded away.
//   avx2_f64    What changed: floats are widened (vcvtps2pd) and summed in 4-lane double
//               accumulators, 4 of them. Why: double accuracy at float bandwidth; the
//               conversion is one extra uop per 4 floats.
#include <cstdint>

namespace rb::cpu {

float avx2_f32(const float* data, std::int64_t n) noexcept;
double avx2_kahan(const float* data, std::int64_t n) noexcept;
double avx2_f64(const float* data, std::int64_t n) noexcept;

}  // namespace rb::cpu
