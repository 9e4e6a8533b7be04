#pragma once
// The element types a sum reads, on the host. f16 and bf16 are storage only (16 bits, the layout
// of CUDA's __half and __nv_bfloat16, so a device buffer of them is read as those): converting to
// float is exact, converting from float rounds to nearest even, as the hardware's cvt does.
#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>

namespace rb {

enum class Dtype { f32, f64, f16, bf16, i32 };

struct f16 {
  std::uint16_t bits = 0;
};
struct bf16 {
  std::uint16_t bits = 0;
};

constexpr std::string_view dtype_name(Dtype d) noexcept {
  switch (d) {
    case Dtype::f32: return "f32";
    case Dtype::f64: return "f64";
    case Dtype::f16: return "f16";
    case Dtype::bf16: return "bf16";
    case Dtype::i32: return "i32";
  }
  return "?";
}

constexpr std::optional<Dtype> parse_dtype(std::string_view s) noexcept {
  for (const Dtype d : {Dtype::f32, Dtype::f64, Dtype::f16, Dtype::bf16, Dtype::i32}) {
    if (s == dtype_name(d)) return d;
  }
  return std::nullopt;
}

constexpr int dtype_bytes(Dtype d) noexcept {
  switch (d) {
    case Dtype::f64: return 8;
    case Dtype::f16:
    case Dtype::bf16: return 2;
    default: return 4;
  }
}

template <class T>
inline constexpr Dtype dtype_of = Dtype::f32;
template <>
inline constexpr Dtype dtype_of<double> = Dtype::f64;
template <>
inline constexpr Dtype dtype_of<f16> = Dtype::f16;
template <>
inline constexpr Dtype dtype_of<bf16> = Dtype::bf16;
template <>
inline constexpr Dtype dtype_of<std::int32_t> = Dtype::i32;

// Exact: every f16 and bf16 value is a float.
constexpr float to_float(bf16 x) noexcept { return std::bit_cast<float>(std::uint32_t{x.bits} << 16); }

constexpr float to_float(f16 x) noexcept {
  const std::uint32_t sign = std::uint32_t{x.bits & 0x8000u} << 16;
  const std::uint32_t exp = (x.bits >> 10) & 0x1Fu, mant = x.bits & 0x3FFu;
  if (exp == 0x1F) return std::bit_cast<float>(sign | 0x7F800000u | (mant << 13));  // inf, NaN
  if (exp != 0) return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
  // Zero or subnormal: mant * 2^-24, exact in float.
  const float v = static_cast<float>(mant) * 0x1p-24f;
  return sign ? -v : v;
}

// Round to nearest even; NaN stays NaN, overflow goes to infinity.
constexpr bf16 to_bf16(float v) noexcept {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(v);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return {static_cast<std::uint16_t>((u >> 16) | 0x40u)};
  return {static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16)};
}

constexpr f16 to_f16(float v) noexcept {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(v);
  const auto sign = static_cast<std::uint16_t>((u >> 16) & 0x8000u);
  const std::uint32_t a = u & 0x7FFFFFFFu;
  if (a > 0x7F800000u) return {static_cast<std::uint16_t>(sign | 0x7E00u)};  // NaN
  if (a >= 0x477FF000u) return {static_cast<std::uint16_t>(sign | 0x7C00u)};  // rounds past 65504
  if (a < 0x38800000u) {
    // Below the smallest normal (2^-14): a multiple of 2^-24, rounded to nearest even.
    const float m = std::bit_cast<float>(a) * 0x1p24f;  // exact: a power-of-two scaling
    auto q = static_cast<std::uint32_t>(m);
    const float rest = m - static_cast<float>(q);
    if (rest > 0.5f || (rest == 0.5f && (q & 1u))) ++q;
    return {static_cast<std::uint16_t>(sign | q)};
  }
  const std::uint32_t r = a + 0xFFFu + ((a >> 13) & 1u);  // round the 13 dropped bits
  return {static_cast<std::uint16_t>(sign | (((r >> 23) - 112) << 10) | ((r >> 13) & 0x3FFu))};
}

// The value as stored, widened: what a reference sums.
constexpr double widen(float v) noexcept { return v; }
constexpr double widen(double v) noexcept { return v; }
constexpr double widen(std::int32_t v) noexcept { return v; }
constexpr double widen(f16 v) noexcept { return to_float(v); }
constexpr double widen(bf16 v) noexcept { return to_float(v); }

}  // namespace rb
