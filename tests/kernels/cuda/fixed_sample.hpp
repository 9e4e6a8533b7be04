#pragma once
// What FinishFixed's tests share (test_finish_fixed.cu, test_finish_fixed_f64.cu): which elements
// warp 0 samples (kernels/cuda/fixed_grid.cuh: FixedGrid::sample), and exact sums of small integers.
#include <cstdint>
#include <span>
#include <vector>

namespace rb::test {

// The elements of the 16-byte vectors warp 0 samples for n elements of T at an aligned start.
template <class T>
std::vector<std::int64_t> sampled_elements(std::int64_t n) {
  constexpr std::int64_t kPerVec = 16 / sizeof(T);
  std::vector<std::int64_t> at;
  const std::int64_t vectors = n / kPerVec;
  for (std::int64_t lane = 0; lane < 32; ++lane)
    for (std::int64_t k = 0; k < kPerVec; ++k) at.push_back(lane * vectors / 32 * kPerVec + k);
  return at;
}

// Integers below 2^53 in total: exact in double, in any order.
template <class T>
double exact_sum(std::span<const T> x) {
  double s = 0;
  for (const T v : x) s += static_cast<double>(v);
  return s;
}

}  // namespace rb::test
