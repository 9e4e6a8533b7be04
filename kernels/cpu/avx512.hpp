#pragma once
// Serial kernels 6-8 and the element types' AVX-512 sums: the AVX2 kernels (avx2.hpp) at 16 float
// lanes per register. Call only where has_avx512f() (isa.hpp); AVX-512F alone, no VL/DQ/BW;
// avx512_bf16dp also needs has_avx512_bf16().
//   What changed: registers twice as wide, and tails become one zero-masked load (a k-mask
//                 instead of a mask vector) where AVX-512F has one (32/64-bit elements), a
//                 zero-padded copy where not (16-bit elements).
//   Why faster:   half the instructions per byte. On cores that split 512-bit ops into two
//                 256-bit halves (AMD Zen 4) the gain is only in the front end; either way a
//                 memory-bound run is no faster, and some Intel parts lower their clock.
//   Cost:         avx512_f32 keeps 64 float chains of n/64 elements;
//                 avx512_kahan's error stays ~2 u32 sum|x|; avx512_f64 adds in double.
//
// Every one but Kahan and bf16dp is the loop of simd_sum.hpp, lanes(acc, L, 3) as in avx2.hpp:
//
//   kernel         input  accumulator                    L    T
//   avx512_f32     f32    4 vectors x 16 float lanes     64   3
//   avx512_f64     f32    4 vectors x 8 double lanes     32   3
//   avx512_f64in   f64    4 vectors x 8 double lanes     32   3
//   avx512_f16     f16    4 vectors x 16 float lanes     64   3
//   avx512_bf16    bf16   4 vectors x 16 float lanes     64   3
//   avx512_i32     i32    4 vectors x 8 int64 lanes      32   -  (exact)
//   avx512_bf16dp  bf16   8 vectors x 16 float lanes    128  14
//
// avx512_bf16dp (avx512_bf16dp.cpp) adds two elements per lane per instruction (vdpbf16ps against
// ones: two rounded FMAs), 8 vectors per step: lane chains of 2 floor(n/256) from the main loop,
// plus 2 x 7 single-vector steps or 2 for the tail, <= ceil(n/128) + 14. Unlike the others it
// reads a bf16 below 2^-126 in magnitude as zero and flushes a denormal float result to zero (the
// instruction's DAZ/FTZ), whatever MXCSR says.
#include <cstdint>

#include "kernels/cpu/sum_declarations.hpp"

namespace rb::cpu {

RB_CPU_DECLARE_SUMS(avx512);
double avx512_kahan(const float* data, std::int64_t n) noexcept;
double avx512_f64(const float* data, std::int64_t n) noexcept;
float avx512_bf16dp(const rb::bf16* data, std::int64_t n) noexcept;

}  // namespace rb::cpu
