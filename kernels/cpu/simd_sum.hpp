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

namespace rb::cpu::detail {

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
