#include "kernels/cpu/unrolled.hpp"

namespace rb::cpu {
namespace {

// T is the accumulator type. The tail (n % 8 elements) goes to accumulators 0..6, so no element
// is summed twice or skipped whatever n is; unaligned starts need nothing special.
template <class T>
T unrolled8(const float* data, std::int64_t n) noexcept {
  T acc[8] = {};
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int j = 0; j < 8; ++j) acc[j] += static_cast<T>(data[i + j]);
  }
  for (int j = 0; i < n; ++i, ++j) acc[j] += static_cast<T>(data[i]);
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

}  // namespace

float unrolled8_f32(const float* data, std::int64_t n) noexcept { return unrolled8<float>(data, n); }

double unrolled8_f64(const float* data, std::int64_t n) noexcept { return unrolled8<double>(data, n); }

}  // namespace rb::cpu
