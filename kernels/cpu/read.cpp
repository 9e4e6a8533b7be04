#include "kernels/cpu/read.hpp"

namespace rb::cpu {

__attribute__((target_clones("avx512f", "avx2", "default")))
float read_f32(const float* data, std::int64_t n) noexcept {
  constexpr int kLanes = 64;
  float acc[kLanes] = {};
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int j = 0; j < kLanes; ++j) acc[j] += data[i + j];
  }
  for (int j = 0; i < n; ++i, ++j) acc[j] += data[i];
  for (int width = kLanes / 2; width > 0; width /= 2) {
    for (int j = 0; j < width; ++j) acc[j] += acc[j + width];
  }
  return acc[0];
}

}  // namespace rb::cpu
