// common/dtype.hpp's conversions against references written from the formats' definitions in
// double arithmetic (ldexp/frexp/nearbyint), not from bit tricks like the ones under test.
#include <gtest/gtest.h>
#include <immintrin.h>

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "common/dtype.hpp"
#include "kernels/cpu/isa.hpp"

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Sign, `e_bits` exponent bits (bias 2^(e_bits - 1) - 1), `f_bits` fraction bits; exponent 0:
// subnormal m 2^(1 - bias - f_bits). f16: 5 and 10 (subnormal m 2^-24); bf16: 8 and 7 (m 2^-133).
double decode(std::uint16_t h, int e_bits, int f_bits) {
  const int e_max = (1 << e_bits) - 1, bias = e_max / 2;
  const int e = (h >> f_bits) & e_max, m = h & ((1 << f_bits) - 1);
  double v = 0;
  if (e == e_max) {
    v = m == 0 ? kInf : std::numeric_limits<double>::quiet_NaN();
  } else {
    v = e == 0 ? std::ldexp(m, 1 - bias - f_bits) : std::ldexp((1 << f_bits) + m, e - bias - f_bits);
  }
  return (h & 0x8000) ? -v : v;
}
double decode_f16(std::uint16_t h) { return decode(h, 5, 10); }
double decode_bf16(std::uint16_t h) { return decode(h, 8, 7); }

// The value nearest to finite v with `digits` significant bits and exponent >= emin (below it the
// quantum stays 2^(emin - digits + 1)), ties to even; beyond `max` + half an ulp, infinity.
double nearest(float v, int digits, int emin, double max) {
  const double a = std::fabs(static_cast<double>(v));
  int e = 0;
  std::frexp(a, &e);  // a in [2^(e-1), 2^e)
  const int q = std::max(e - 1, emin) - (digits - 1);
  const double r = std::ldexp(std::nearbyint(std::ldexp(a, -q)), q);  // exact: a power-of-two scaling
  return std::copysign(r > max ? kInf : r, static_cast<double>(v));
}

double nearest_f16(float v) { return nearest(v, 11, -14, 65504.0); }
double nearest_bf16(float v) { return nearest(v, 8, -126, std::ldexp(255.0, 120)); }

// Same value and same sign (so -0 is not +0), or NaN for NaN.
::testing::AssertionResult same(double got, double want) {
  if (std::isnan(want) ? std::isnan(got) : (got == want && std::signbit(got) == std::signbit(want)))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << got << ", want " << want;
}

float from_bits(std::uint32_t u) { return std::bit_cast<float>(u); }

// Random floats of every kind, and every tie between neighbours of the 16-bit format with the
// floats just beside it: `decode` and `last` give that format's finite positive values. Exponents
// emin_f..emax_f cover the format's range and beyond; -127 stands for float's own subnormals.
template <class Decode>
std::vector<float> test_floats(Decode decode, std::uint16_t last, int emin_f, int emax_f) {
  std::vector<float> v;
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<std::uint32_t> any;
  std::uniform_int_distribution<int> exp(emin_f, emax_f);
  for (int i = 0; i < 1'000'000; ++i) v.push_back(from_bits(any(rng)));  // NaNs, huge, tiny, ...
  for (int i = 0; i < 1'000'000; ++i) {
    const std::uint32_t mant = any(rng) & 0x7FFFFFu, sign = any(rng) & 0x80000000u;
    v.push_back(from_bits(sign | (static_cast<std::uint32_t>(exp(rng) + 127) << 23) | mant));  // -127: 0
  }
  for (std::uint16_t k = 0; k < last; ++k) {
    const auto mid = static_cast<float>((decode(k) + decode(static_cast<std::uint16_t>(k + 1))) / 2);
    for (const float t : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e30f)}) {
      v.push_back(t);
      v.push_back(-t);
    }
  }
  const float inf = std::numeric_limits<float>::infinity();
  for (const float s : {0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
                        std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min(),
                        std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
                        from_bits(0x7F800001u), from_bits(0xFF800001u), from_bits(0x7FA00000u), 65504.0f,
                        65519.996f, 65520.0f, 65520.004f, -65520.0f, std::ldexp(255.5f, 120), -std::ldexp(255.5f, 120),
                        std::nextafter(std::ldexp(255.5f, 120), 0.0f)})
    v.push_back(s);
  return v;
}

TEST(Dtype, F16ToFloatEveryBitPattern) {
  for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
    const auto bits = static_cast<std::uint16_t>(h);
    ASSERT_TRUE(same(rb::to_float(rb::f16{bits}), decode_f16(bits))) << "f16 bits 0x" << std::hex << h;
    ASSERT_TRUE(same(rb::widen(rb::f16{bits}), decode_f16(bits))) << "widen, f16 bits 0x" << std::hex << h;
  }
}

TEST(Dtype, Bf16ToFloatEveryBitPattern) {
  for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
    const auto bits = static_cast<std::uint16_t>(h);
    ASSERT_TRUE(same(rb::to_float(rb::bf16{bits}), decode_bf16(bits))) << "bf16 bits 0x" << std::hex << h;
    ASSERT_TRUE(same(rb::widen(rb::bf16{bits}), decode_bf16(bits))) << "widen, bf16 bits 0x" << std::hex << h;
  }
}

TEST(Dtype, F16RoundTripsEveryValue) {
  for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
    const auto bits = static_cast<std::uint16_t>(h);
    if (std::isnan(decode_f16(bits))) continue;
    ASSERT_EQ(rb::to_f16(rb::to_float(rb::f16{bits})).bits, bits) << "f16 bits 0x" << std::hex << h;
    ASSERT_EQ(rb::to_bf16(rb::to_float(rb::bf16{bits})).bits, bits) << "bf16 bits 0x" << std::hex << h;
  }
}

TEST(Dtype, FloatToF16RoundsToNearestEven) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);  // what nearbyint in the reference relies on
  const auto floats = test_floats(decode_f16, 0x7BFF, -27, 17);
  for (const float v : floats) {
    const double want = std::isnan(v) ? v : nearest_f16(v);
    ASSERT_TRUE(same(rb::to_float(rb::to_f16(v)), want))
        << "float bits 0x" << std::hex << std::bit_cast<std::uint32_t>(v);
  }
  // Spot checks of the reference itself: the ties at the ends of the range.
  EXPECT_EQ(nearest_f16(0x1p-25f), 0.0);             // half the smallest subnormal: to even (0)
  EXPECT_EQ(nearest_f16(0x1.8p-24f), 0x1p-23);       // 1.5 quanta: to even (2)
  EXPECT_EQ(nearest_f16(65519.0f), 65504.0);
  EXPECT_EQ(nearest_f16(65520.0f), kInf);            // the tie above 65504 (odd): up, past the range
}

TEST(Dtype, FloatToBf16RoundsToNearestEven) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  const auto floats = test_floats(decode_bf16, 0x7F7F, -127, 127);
  for (const float v : floats) {
    const double want = std::isnan(v) ? v : nearest_bf16(v);
    ASSERT_TRUE(same(rb::to_float(rb::to_bf16(v)), want))
        << "float bits 0x" << std::hex << std::bit_cast<std::uint32_t>(v);
  }
  EXPECT_EQ(nearest_bf16(std::numeric_limits<float>::max()), kInf);
  EXPECT_EQ(nearest_bf16(1.0f + 0x1p-8f), 1.0);      // tie: to even
  EXPECT_EQ(nearest_bf16(1.0f + 0x1.8p-7f), 1.0 + 0x1p-6);
}

TEST(Dtype, NaNStaysNaN) {
  // A NaN whose payload lies only in the bits a conversion drops must not become infinity.
  for (const std::uint32_t u : {0x7F800001u, 0xFF800001u, 0x7FC00000u, 0x7F801FFFu, 0x7FFFFFFFu}) {
    EXPECT_TRUE(std::isnan(rb::to_float(rb::to_f16(from_bits(u))))) << std::hex << u;
    EXPECT_TRUE(std::isnan(rb::to_float(rb::to_bf16(from_bits(u))))) << std::hex << u;
    EXPECT_EQ(std::signbit(rb::to_float(rb::to_bf16(from_bits(u)))), (u >> 31) != 0) << std::hex << u;
  }
}

// vcvtps2ph/vcvtph2ps: the hardware's conversions, a second reference where the CPU has them.
__attribute__((target("f16c"))) std::uint16_t f16c_round(float v) {
  const __m128i h = _mm_cvtps_ph(_mm_set_ss(v), _MM_FROUND_TO_NEAREST_INT);  // not _cvtss_sh: a C99 literal in Clang
  return static_cast<std::uint16_t>(_mm_cvtsi128_si32(h) & 0xFFFF);
}
__attribute__((target("f16c"))) float f16c_widen(std::uint16_t h) { return _cvtsh_ss(h); }

TEST(Dtype, F16MatchesF16cHardware) {
  if (!rb::cpu::has_f16c()) GTEST_SKIP() << "CPU lacks F16C";
  for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
    const auto bits = static_cast<std::uint16_t>(h);
    ASSERT_TRUE(same(rb::to_float(rb::f16{bits}), f16c_widen(bits))) << "f16 bits 0x" << std::hex << h;
  }
  for (const float v : test_floats(decode_f16, 0x7BFF, -27, 17)) {
    const std::uint16_t hw = f16c_round(v), sw = rb::to_f16(v).bits;
    if (std::isnan(v)) {
      ASSERT_TRUE(std::isnan(decode_f16(sw))) << std::hex << std::bit_cast<std::uint32_t>(v);
    } else {
      ASSERT_EQ(sw, hw) << "float bits 0x" << std::hex << std::bit_cast<std::uint32_t>(v);
    }
  }
}

TEST(Dtype, NamesAndSizes) {
  for (const rb::Dtype d : {rb::Dtype::f32, rb::Dtype::f64, rb::Dtype::f16, rb::Dtype::bf16, rb::Dtype::i32})
    EXPECT_EQ(rb::parse_dtype(rb::dtype_name(d)), d);
  EXPECT_FALSE(rb::parse_dtype("f8").has_value());
  EXPECT_EQ(rb::dtype_bytes(rb::Dtype::f64), 8);
  EXPECT_EQ(rb::dtype_bytes(rb::Dtype::f16), static_cast<int>(sizeof(rb::f16)));
  EXPECT_EQ(rb::dtype_bytes(rb::Dtype::bf16), static_cast<int>(sizeof(rb::bf16)));
  EXPECT_EQ(rb::dtype_bytes(rb::Dtype::i32), 4);
}

}  // namespace
