#pragma once
// Why a CPU row cannot run here, as its registration's `unavailable` reason: empty where it can.
// The kernels die with SIGILL on a CPU without their ISA (kernels/cpu/isa.hpp), so every row over
// one names its requirement through these.
#include <string>

#include "kernels/cpu/isa.hpp"

namespace rb::bench {

inline std::string no_avx2(bool f16 = false) {
  if (!rb::cpu::has_avx2()) return "CPU lacks AVX2";
  return f16 && !rb::cpu::has_f16c() ? "CPU lacks F16C" : "";
}
inline std::string no_avx512() { return rb::cpu::has_avx512f() ? "" : "CPU lacks AVX-512F"; }
inline std::string no_avx512_bf16() {
  if (!rb::cpu::has_avx512f()) return "CPU lacks AVX-512F";
  return rb::cpu::has_avx512_bf16() ? "" : "CPU lacks AVX512_BF16 (vdpbf16ps)";
}
// The first non-empty reason, or empty when every requirement is met.
inline std::string unless(const std::string& a, const std::string& b) { return a.empty() ? b : a; }

}  // namespace rb::bench
