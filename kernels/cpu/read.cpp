#include "kernels/cpu/read.hpp"

#include <bit>
#include <type_traits>

#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/read_typed.hpp"

namespace rb::cpu {
namespace {

// Each element as its lane adds it, exactly.
[[gnu::always_inline]] inline float widen_lane(float x) noexcept { return x; }
[[gnu::always_inline]] inline double widen_lane(double x) noexcept { return x; }
[[gnu::always_inline]] inline std::int64_t widen_lane(std::int32_t x) noexcept { return x; }
[[gnu::always_inline]] inline float widen_lane(rb::bf16 x) noexcept {
  return std::bit_cast<float>(std::uint32_t{x.bits} << 16);
}
// rb::to_float's branches keep the compiler from vectorizing; this is the same value without them.
// Exponent and mantissa land in a float's low exponent bits and are scaled by 2^112 (exact: a
// normal f16 becomes a normal float, a subnormal one a subnormal float times a power of two);
// exponent 31 (inf, NaN) takes a float's all-ones exponent instead, its mantissa bits kept.
[[gnu::always_inline]] inline float widen_lane(rb::f16 x) noexcept {
  const std::uint32_t magnitude = std::uint32_t{x.bits & 0x7FFFu} << 13;
  const std::uint32_t scaled = std::bit_cast<std::uint32_t>(std::bit_cast<float>(magnitude) * 0x1p112f);
  const std::uint32_t bits = magnitude >= (0x7C00u << 13) ? (magnitude | 0x7F800000u) : scaled;
  return std::bit_cast<float>(bits | (std::uint32_t{x.bits & 0x8000u} << 16));
}

// The loop every version shares, inlined into each (a default-target body may be inlined into a
// wider-target caller, and is then vectorized for the caller's ISA). Acc: the lane's type.
template <class Acc, class T>
[[gnu::always_inline]] inline Acc plain_sum(const T* data, std::int64_t n) noexcept {
  constexpr int kLanes = 64;
  Acc acc[kLanes] = {};
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int j = 0; j < kLanes; ++j) acc[j] += widen_lane(data[i + j]);
  }
  for (int j = 0; i < n; ++i, ++j) acc[j] += widen_lane(data[i]);
  for (int width = kLanes / 2; width > 0; width /= 2) {
    for (int j = 0; j < width; ++j) acc[j] += acc[j + width];
  }
  return acc[0];
}

template <class Acc, class T>
RB_TARGET_AVX512 Acc read_avx512(const T* data, std::int64_t n) noexcept {
  return plain_sum<Acc>(data, n);
}
template <class Acc, class T>
RB_TARGET_AVX2 Acc read_avx2(const T* data, std::int64_t n) noexcept {
  return plain_sum<Acc>(data, n);
}
template <class Acc, class T>
Acc read_baseline(const T* data, std::int64_t n) noexcept {
  return plain_sum<Acc>(data, n);
}

template <class Acc, class T>
using ReadFn = Acc (*)(const T*, std::int64_t) noexcept;

template <class Acc, class T>
ReadFn<Acc, T> pick() noexcept {
  // The other types' vector versions spell this loop with intrinsics (read_typed.cpp).
  if constexpr (std::is_same_v<T, double>) {
    if (has_avx512f()) return detail::read_f64_avx512;
    if (has_avx2()) return detail::read_f64_avx2;
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    if (has_avx512f()) return detail::read_i32_avx512;
    if (has_avx2()) return detail::read_i32_avx2;
  } else if constexpr (std::is_same_v<T, rb::f16>) {
    if (has_avx512f()) return detail::read_f16_avx512;
    if (has_avx2() && has_f16c()) return detail::read_f16_avx2;
  } else if constexpr (std::is_same_v<T, rb::bf16>) {
    if (has_avx512f()) return detail::read_bf16_avx512;
    if (has_avx2()) return detail::read_bf16_avx2;
  }
  if (has_avx512f()) return read_avx512<Acc, T>;
  if (has_avx2()) return read_avx2<Acc, T>;
  return read_baseline<Acc, T>;
}

// Chosen on the first call, not with target_clones: GCC's ifunc resolvers run during dynamic
// relocation, before a sanitizer runtime is initialised, and crash -fsanitize=thread builds.
template <class Acc, class T>
Acc read(const T* data, std::int64_t n) noexcept {
  static const ReadFn<Acc, T> impl = pick<Acc, T>();
  return impl(data, n);
}

}  // namespace

double detail::read_f64_baseline(const double* data, std::int64_t n) noexcept {
  return read_baseline<double>(data, n);
}
std::int64_t detail::read_i32_baseline(const std::int32_t* data, std::int64_t n) noexcept {
  return read_baseline<std::int64_t>(data, n);
}
float detail::read_f16_baseline(const rb::f16* data, std::int64_t n) noexcept {
  return read_baseline<float>(data, n);
}
float detail::read_bf16_baseline(const rb::bf16* data, std::int64_t n) noexcept {
  return read_baseline<float>(data, n);
}

float read_f32(const float* data, std::int64_t n) noexcept { return read<float>(data, n); }
double read_f64in(const double* data, std::int64_t n) noexcept { return read<double>(data, n); }
float read_f16(const rb::f16* data, std::int64_t n) noexcept { return read<float>(data, n); }
float read_bf16(const rb::bf16* data, std::int64_t n) noexcept { return read<float>(data, n); }
std::int64_t read_i32(const std::int32_t* data, std::int64_t n) noexcept { return read<std::int64_t>(data, n); }

}  // namespace rb::cpu
