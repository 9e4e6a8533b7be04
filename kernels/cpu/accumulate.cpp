#include "kernels/cpu/accumulate.hpp"

#include <numeric>

namespace rb::cpu {

float accumulate_f32(const float* data, std::int64_t n) noexcept {
  return std::accumulate(data, data + n, 0.0f);
}

double accumulate_f64(const float* data, std::int64_t n) noexcept {
  return std::accumulate(data, data + n, 0.0);
}

}  // namespace rb::cpu
