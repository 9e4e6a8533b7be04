#include "kernels/cpu/accumulate.hpp"

#include <numeric>
#include <type_traits>

namespace rb::cpu {
namespace {

// x in the accumulator's type, exactly: a 16-bit float through float, the rest directly.
template <class A, class T>
A exactly(T x) noexcept {
  if constexpr (std::is_same_v<T, rb::f16> || std::is_same_v<T, rb::bf16>) return rb::to_float(x);
  else return static_cast<A>(x);
}

// One accumulator of type A. Integer addition is associative, so however the compiler vectorizes
// the int64 loop, the sum is the same value.
template <class A, class T>
A accumulate(const T* data, std::int64_t n) noexcept {
  return std::accumulate(data, data + n, A{0}, [](A s, T x) { return s + exactly<A>(x); });
}

}  // namespace

float accumulate_f32(const float* data, std::int64_t n) noexcept { return accumulate<float>(data, n); }
double accumulate_f64(const float* data, std::int64_t n) noexcept { return accumulate<double>(data, n); }
double accumulate_f64in(const double* data, std::int64_t n) noexcept { return accumulate<double>(data, n); }
float accumulate_f16(const rb::f16* data, std::int64_t n) noexcept { return accumulate<float>(data, n); }
float accumulate_bf16(const rb::bf16* data, std::int64_t n) noexcept { return accumulate<float>(data, n); }
std::int64_t accumulate_i32(const std::int32_t* data, std::int64_t n) noexcept {
  return accumulate<std::int64_t>(data, n);
}

}  // namespace rb::cpu
