// The serial baselines of typed.hpp: std::accumulate with one accumulator, each element widened.
#include <numeric>

#include "kernels/cpu/typed.hpp"

namespace rb::cpu {

double accumulate_f64in(const double* data, std::int64_t n) noexcept { return std::accumulate(data, data + n, 0.0); }

float accumulate_f16(const rb::f16* data, std::int64_t n) noexcept {
  return std::accumulate(data, data + n, 0.0f, [](float s, rb::f16 x) { return s + rb::to_float(x); });
}

float accumulate_bf16(const rb::bf16* data, std::int64_t n) noexcept {
  return std::accumulate(data, data + n, 0.0f, [](float s, rb::bf16 x) { return s + rb::to_float(x); });
}

// Integer addition is associative, so whatever order the compiler vectorizes this into, the
// int64 sum is the same exact value.
std::int64_t accumulate_i32(const std::int32_t* data, std::int64_t n) noexcept {
  return std::accumulate(data, data + n, std::int64_t{0});
}

}  // namespace rb::cpu
