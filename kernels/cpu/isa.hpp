#pragma once
// Which vector ISA a kernel needs, and whether this CPU has it.
//
// The AVX2 and AVX-512 kernels are compiled with per-function target attributes instead of
// per-file -mavx2/-mavx512f: a per-file flag also applies to every inline function and template
// the file instantiates (std::min, std::accumulate, ...), and the linker keeps one arbitrary copy
// of each such COMDAT symbol, so an AVX-512 copy could end up called from baseline code on a CPU
// without it. With attributes only the kernel bodies use the wider ISA; the rest of the build
// stays baseline x86-64, and no -march=native leaks into it.
//
// Call a kernel only where its check below is true (the registration marks it unavailable, the
// tests skip it): on a CPU without the ISA it dies with SIGILL.
#define RB_TARGET_AVX2 __attribute__((target("avx2")))
// vcvtph2ps (F16C) with AVX2: the AVX2 f16 kernel alone, which has_f16c() guards.
#define RB_TARGET_AVX2_F16C __attribute__((target("avx2,f16c")))
#define RB_TARGET_AVX512 __attribute__((target("avx512f")))
// vdpbf16ps (AVX512_BF16) on 512-bit vectors: AVX512F's registers, AVX512_BF16's instruction.
#define RB_TARGET_AVX512_BF16 __attribute__((target("avx512f,avx512bf16")))

#include <cpuid.h>

namespace rb::cpu {

// __builtin_cpu_supports also checks that the OS saves the wider registers (XCR0), so a kernel
// is never offered where a context switch would corrupt it.
inline bool has_avx2() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

inline bool has_avx512f() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f");
}

// F16C (vcvtph2ps, the AVX2 fp16 kernels): Clang 14's __builtin_cpu_supports has no "f16c", so
// CPUID leaf 1 is read directly; its VEX encoding needs the AVX state, which the "avx" check covers.
inline bool has_f16c() noexcept {
  __builtin_cpu_init();
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) != 0 && (c & bit_F16C) != 0;
}

// AVX512_BF16 (vdpbf16ps, the avx512_bf16dp kernel): CPUID leaf 7 subleaf 1, EAX bit 5, read
// directly like F16C (not every compiler's __builtin_cpu_supports knows it); the zmm state is the
// "avx512f" check's.
inline bool has_avx512_bf16() noexcept {
  __builtin_cpu_init();
  unsigned a = 0, b = 0, c = 0, d = 0;
  constexpr unsigned kAvx512Bf16 = 1u << 5;
  return __builtin_cpu_supports("avx512f") && __get_cpuid_count(7, 1, &a, &b, &c, &d) != 0 && (a & kAvx512Bf16) != 0;
}

}  // namespace rb::cpu
