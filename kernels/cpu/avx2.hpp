#pragma once
// Serial kernels 3-5 and the element types' AVX2 sums. Call only where has_avx2() (isa.hpp);
// avx2_f16 also needs has_f16c().
//
//   avx2_f32    What changed from unrolled8: 4 independent 8-lane accumulators (32 floats per
//               iteration) instead of 8 scalars. Why faster: 4 adds in flight cover the 3-4
//               cycle add latency at 2 vector loads per cycle, so one core reads L2/L3 at the
//               cache's speed, not the adder's. Cost: 32 float chains of n/32 elements each;
//               the 32 lanes meet in a fixed tree.
//   avx2_kahan  What changed: each lane carries a Kahan correction, also through the tail
//               (one masked-load step) and the horizontal reduction (the sums and corrections
//               are widened to double and combined there). Why: the error no longer grows with
//               n: about 2 u32 sum|x|, independent of n. Cost: 4 dependent adds per step
//               instead of 1; 6 independent pairs (avx2_kahan.cpp) keep that above DRAM speed.
//               Returned as double so that the final correction is not rounded away.
//   avx2_f64    What changed: floats are widened (vcvtps2pd) and summed in 4-lane double
//               accumulators, 4 of them. Why: double accuracy at float bandwidth; the
//               conversion is one extra uop per 4 floats.
//
// Every one but Kahan is the same loop (simd_sum.hpp) over its input and accumulator type, in the
// terms of bench/api/summation.hpp lanes(acc, L, 3): L lanes, each a chain of at most ceil(n / L) + 3
// additions, then a fixed tree of log2 L levels. Every element is first converted exactly.
//
//   kernel       input  accumulator                  L
//   avx2_f32     f32    4 vectors x 8 float lanes    32
//   avx2_f64     f32    4 vectors x 4 double lanes   16
//   avx2_f64in   f64    4 vectors x 4 double lanes   16
//   avx2_f16     f16    4 vectors x 8 float lanes    32   (f16 through F16C)
//   avx2_bf16    bf16   4 vectors x 8 float lanes    32   (bf16 by a shift)
//   avx2_i32     i32    4 vectors x 4 int64 lanes    16   exact for any n < 2^32
//
// float results are the float accumulator itself (no final rounding); f64 results are double.
#include <cstdint>

#include "kernels/cpu/sum_declarations.hpp"

namespace rb::cpu {

RB_CPU_DECLARE_SUMS(avx2);
double avx2_kahan(const float* data, std::int64_t n) noexcept;
double avx2_f64(const float* data, std::int64_t n) noexcept;

}  // namespace rb::cpu
