#pragma once
// The one loop of the AVX2 and AVX-512 sum kernels (avx2.cpp, avx512.cpp), for every pair of
// input and accumulator type. A lane policy L says how its ISA holds that pair:
//   In, Acc, V         the element, the result, one accumulator vector
//   kWidth             elements per V
//   zero(V&)           V = 0
//   add(V&, p)         V += kWidth elements from p, each converted exactly to the lane type
//   add_tail(V&, p, r) the same for r < kWidth elements, the missing lanes 0, nothing read past p + r
//   total(V (&)[4])    (a0 + a1) + (a2 + a3), then a fixed tree over the lanes
// Four accumulators (avx2.hpp says why four); after the main loop up to 3 single-vector steps go
// to a0 and the partial vector to a1, so each lane is a chain of at most ceil(n / L) + 3 additions
// for L = 4 kWidth lanes, in an order fixed by n alone.
//
// The policy's functions carry their ISA's target attribute; this loop carries none and is
// inlined into a kernel that does. Vectors go to the policy by reference: a vector passed by value
// across a function without the ISA changes the ABI (Clang refuses it), a reference does not.
#include <cstdint>

#include "common/dtype.hpp"

namespace rb::cpu::detail {

// A lane policy's In, Acc and kWidth; its V it names itself (a vector type passed as a template
// argument loses its attributes).
template <class InT, class AccT, std::int64_t Width>
struct LaneTypes {
  using In = InT;
  using Acc = AccT;
  static constexpr std::int64_t kWidth = Width;
};

template <class L>
[[gnu::always_inline]] inline typename L::Acc sum4(const typename L::In* data, std::int64_t n) noexcept {
  constexpr std::int64_t w = L::kWidth;
  typename L::V a[4];
  for (auto& v : a) L::zero(v);
  std::int64_t i = 0;
  for (; i + 4 * w <= n; i += 4 * w) {
    L::add(a[0], data + i);
    L::add(a[1], data + i + w);
    L::add(a[2], data + i + 2 * w);
    L::add(a[3], data + i + 3 * w);
  }
  for (; i + w <= n; i += w) L::add(a[0], data + i);
  if (i < n) L::add_tail(a[1], data + i, n - i);
  return L::total(a);
}

}  // namespace rb::cpu::detail

// One ISA's kernels over its policies FloatLanes<T> (float lanes over T), DoubleLanes<T> and
// Int64Lanes, named ISA_f32 ... ISA_i32 (avx2.hpp, avx512.hpp); f16 takes its own target, which
// may add F16C.
#define RB_CPU_DEFINE_SUM4_KERNELS(isa, TARGET, TARGET_F16)                          \
  TARGET float isa##_f32(const float* data, std::int64_t n) noexcept {               \
    return detail::sum4<FloatLanes<float>>(data, n);                                 \
  }                                                                                  \
  TARGET double isa##_f64(const float* data, std::int64_t n) noexcept {              \
    return detail::sum4<DoubleLanes<float>>(data, n);                                \
  }                                                                                  \
  TARGET double isa##_f64in(const double* data, std::int64_t n) noexcept {           \
    return detail::sum4<DoubleLanes<double>>(data, n);                               \
  }                                                                                  \
  TARGET_F16 float isa##_f16(const rb::f16* data, std::int64_t n) noexcept {         \
    return detail::sum4<FloatLanes<rb::f16>>(data, n);                               \
  }                                                                                  \
  TARGET float isa##_bf16(const rb::bf16* data, std::int64_t n) noexcept {           \
    return detail::sum4<FloatLanes<rb::bf16>>(data, n);                              \
  }                                                                                  \
  TARGET std::int64_t isa##_i32(const std::int32_t* data, std::int64_t n) noexcept { \
    return detail::sum4<Int64Lanes>(data, n);                                        \
  }
