#pragma once
// Serial sums of the input types other than float (common/dtype.hpp). The harness derives each
// row's accuracy bound from the structure stated here, so keep this table in step with the code.
//
// In the terms of bench/summation.hpp, lanes(acc, L, T): L independent accumulators, each a chain
// of at most ceil(n / L) + T additions (element i in the main loop goes to accumulator i % L),
// then a fixed tree of log2 L levels over them, in the accumulator's type. Every element is first
// converted exactly (f16/bf16 -> float, f64 stays double, i32 -> int64).
//
//   kernel            input  accumulator                   L   T  then
//   accumulate_f64in  f64    1 double                      1   0  -
//   accumulate_f16    f16    1 float                       1   0  -
//   accumulate_bf16   bf16   1 float                       1   0  -
//   accumulate_i32    i32    1 int64                       1   -  - (exact)
//   avx2_f64in        f64    4 vectors x 4 double lanes   16   3  tree of 4 levels
//   avx2_f16          f16    4 vectors x 8 float lanes    32   3  tree of 5 levels
//   avx2_bf16         bf16   4 vectors x 8 float lanes    32   3  tree of 5 levels
//   avx2_i32          i32    4 vectors x 4 int64 lanes    16   -  - (exact)
//   avx512_f64in      f64    4 vectors x 8 double lanes   32   3  tree of 5 levels
//   avx512_f16        f16    4 vectors x 16 float lanes   64   3  tree of 6 levels
//   avx512_bf16       bf16   4 vectors x 16 float lanes   64   3  tree of 6 levels
//   avx512_i32        i32    4 vectors x 8 int64 lanes    32   -  - (exact)
//   avx512_bf16dp     bf16   8 vectors x 16 float lanes  128  14  tree of 7 levels
//
// The SIMD kernels: after the main loop (4 vectors per step) up to 3 single-vector steps go to
// the first vector and the last partial vector (missing lanes zero) to the second: T = 3. The
// tree adds the 4 vectors as (v0 + v1) + (v2 + v3), then halves the lanes of the result.
// avx512_bf16dp (typed_bf16dp.cpp) adds two elements per lane per instruction (vdpbf16ps against
// ones: two rounded FMAs), 8 vectors per step: lane chains of 2 floor(n/256) from the main loop,
// plus 2 x 7 single-vector steps or 2 for the tail, <= ceil(n/128) + 14. Unlike the others it
// reads a bf16 below 2^-126 in magnitude as zero and flushes a denormal float result to zero (the
// instruction's DAZ/FTZ), whatever MXCSR says.
// float results are the float accumulator itself (no final rounding); f64 results are double.
// i32: int64 addition is exact for any n < 2^32 (|sum| < 2^63), in any order, so L is immaterial.
// Every kernel adds in an order fixed by n alone (not by the data's address): the same input
// gives the same bits on every call.
//
// ISA: avx2_* need has_avx2(), avx2_f16 also has_f16c(); avx512_* need has_avx512f() only
// (AVX-512F: no BW/VL/BF16), avx512_bf16dp also has_avx512_bf16(). Elsewhere they die with SIGILL
// (isa.hpp).
#include <cstdint>

#include "common/dtype.hpp"

namespace rb::cpu {

double accumulate_f64in(const double* data, std::int64_t n) noexcept;
float accumulate_f16(const rb::f16* data, std::int64_t n) noexcept;
float accumulate_bf16(const rb::bf16* data, std::int64_t n) noexcept;
std::int64_t accumulate_i32(const std::int32_t* data, std::int64_t n) noexcept;

double avx2_f64in(const double* data, std::int64_t n) noexcept;
float avx2_f16(const rb::f16* data, std::int64_t n) noexcept;
float avx2_bf16(const rb::bf16* data, std::int64_t n) noexcept;
std::int64_t avx2_i32(const std::int32_t* data, std::int64_t n) noexcept;

double avx512_f64in(const double* data, std::int64_t n) noexcept;
float avx512_f16(const rb::f16* data, std::int64_t n) noexcept;
float avx512_bf16(const rb::bf16* data, std::int64_t n) noexcept;
std::int64_t avx512_i32(const std::int32_t* data, std::int64_t n) noexcept;

float avx512_bf16dp(const rb::bf16* data, std::int64_t n) noexcept;

}  // namespace rb::cpu
