// avx512_bf16dp (avx512.hpp): bf16 summed by vdpbf16ps against a vector of bf16 ones. One
// instruction per 32 elements, where avx512_bf16 needs a widen, a shift and an add per 16.
//
// What vdpbf16ps does (its instruction-set reference; tests/kernels/cpu check it): lane j of the
// float accumulator takes the two bf16 at 2j and 2j+1 of the source, each times the other
// operand's bf16 (here 1.0, so the product is the element itself, exactly), as two FMAs in sequence
// (element 2j+1 first), each rounded to nearest even; MXCSR is ignored, denormal inputs are read
// as zero and denormal results flushed to zero. So a lane is a float chain of two additions per
// instruction, and a bf16 below 2^-126 in magnitude counts as 0.
//
// 8 accumulators, not the 4 of the other kernels: at 2^14 elements (in L1) they sum 204 GB/s
// against 163 with 4 on the 2-core EPYC guest, the instruction's latency being the limit there.
#include "kernels/cpu/avx512_tail.hpp"  // first: it includes <immintrin.h>

#include <cstddef>
#include <cstring>

#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/avx512.hpp"

namespace rb::cpu {
namespace {

constexpr int kAcc = 8;  // vector accumulators
constexpr int kPerVector = 32;

// The same 512 bits seen as 32 bf16. Not std::bit_cast: a template outside the target attribute
// that passes a zmm by value (isa.hpp says why such copies are avoided).
RB_TARGET_AVX512_BF16 inline __m512bh as_bf16x32(__m512i v) noexcept { return __builtin_bit_cast(__m512bh, v); }

RB_TARGET_AVX512_BF16 inline __m512bh load_bf16x32(const void* p) noexcept { return as_bf16x32(_mm512_loadu_si512(p)); }

// The last r < 32 elements, zero-padded (+0.0 adds nothing): a 16-bit masked load is AVX512BW,
// which this kernel does not require.
RB_TARGET_AVX512_BF16 inline __m512bh load_tail(const void* p, std::int64_t r) noexcept {
  alignas(64) std::uint16_t buf[kPerVector] = {};
  std::memcpy(buf, p, static_cast<std::size_t>(r) * sizeof(std::uint16_t));
  return as_bf16x32(_mm512_load_si512(buf));
}

}  // namespace

RB_TARGET_AVX512_BF16 float avx512_bf16dp(const rb::bf16* data, std::int64_t n) noexcept {
  const __m512bh ones = as_bf16x32(_mm512_set1_epi16(0x3F80));  // bf16 1.0
  __m512 a[kAcc];
  for (auto& v : a) v = _mm512_setzero_ps();
  std::int64_t i = 0;
  for (; i + kAcc * kPerVector <= n; i += kAcc * kPerVector) {
    for (int k = 0; k < kAcc; ++k) a[k] = _mm512_dpbf16_ps(a[k], load_bf16x32(data + i + k * kPerVector), ones);
  }
  for (; i + kPerVector <= n; i += kPerVector) a[0] = _mm512_dpbf16_ps(a[0], load_bf16x32(data + i), ones);
  if (i < n) a[1] = _mm512_dpbf16_ps(a[1], load_tail(data + i, n - i), ones);
  // ((a0 + a4) + (a2 + a6)) + ((a1 + a5) + (a3 + a7)): a fixed tree of 3 levels, then 4 in the lanes.
  for (int width = kAcc / 2; width > 0; width /= 2) {
    for (int k = 0; k < width; ++k) a[k] = _mm512_add_ps(a[k], a[k + width]);
  }
  return _mm512_reduce_add_ps(a[0]);
}

}  // namespace rb::cpu
