#pragma once
// Serial kernels 6-8: the AVX2 kernels (avx2.hpp) at 16 float lanes per register. Call only
// where has_avx512f() (isa.hpp); AVX-512F alone, no VL/DQ/BW.
//   What changed: registers twice as wide, and tails become one zero-masked load (a k-mask
//                 instead of a mask vector).
//   Why faster:   half the instructions per byte. On cores that split 512-bit ops into two
//                 256-bit halves (AMD Zen 4) the gain is only in the front end; either way a
//                 memory-bound run is no faster, and some Intel parts lower their clock.
//   Cost:         avx512_f32 keeps 64 float chains of n/64 elements;
//                 avx512_kahan's error stays ~2 u32 sum|x|; avx512_f64 adds in double.
#include <cstdint>

namespace rb::cpu {

float avx512_f32(const float* data, std::int64_t n) noexcept;
double avx512_kahan(const float* data, std::int64_t n) noexcept;
double avx512_f64(const float* data, std::int64_t n) noexcept;

}  // namespace rb::cpu
