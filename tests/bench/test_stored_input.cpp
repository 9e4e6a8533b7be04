// What storing the input as a type does to it (bench/detail/stored_input.hpp), counted from the two
// references, against a count element by element; and the reference's zeros and ties at its
// largest magnitude across the scan's 2^20-element chunks.
#include "bench/detail/stored_input.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "tests/support/data.hpp"

namespace {

using namespace rb::bench;

// Past two of the scan's chunks, and odd.
constexpr std::int64_t kN = (std::int64_t{1} << 21) + 4099;
const std::vector<std::int64_t> kPrefixes = {0, 1, 1001, (std::int64_t{1} << 20) + 3, kN};

std::vector<Reference> references(const std::vector<float>& x) {
  return compute_references(kPrefixes, [&x](std::int64_t b, std::int64_t, float*) { return x.data() + b; });
}

std::vector<float> stored(Dtype d, std::vector<float> x) {
  quantize(d, x.data(), static_cast<std::int64_t>(x.size()));
  return x;
}

// Random signed values of every magnitude from 2^-8 to 2^9 (i32 saturates past 16), with NaN,
// infinities, values past f16's range and below its and i32's smallest step planted at random
// places, some of them in each chunk.
std::vector<float> planted(std::uint64_t seed) {
  auto x = rb::test::random_signed(kN, seed);
  std::mt19937_64 rng(seed + 1);
  std::uniform_int_distribution<std::int64_t> at(0, kN - 1);
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(), 70000.0f, -1e6f, 3e9f, 1e-9f, -2e-8f,
                            0x1p-26f, 0.0f, 1e-7f};
  for (int k = 0; k < 300; ++k) x[static_cast<std::size_t>(at(rng))] = specials[k % std::size(specials)];
  return x;
}

// The counts, element by element, from the definitions in bench/stored_input.hpp.
StoredInput counted(Dtype d, const std::vector<float>& x, std::int64_t n) {
  StoredInput s;
  for (std::int64_t i = 0; i < n; ++i) {
    const float v = x[static_cast<std::size_t>(i)];
    float y = v;
    quantize(d, &y, 1);
    s.nan += std::isnan(v);
    s.inf += std::isinf(v);
    if (d == Dtype::f32 || d == Dtype::f64) continue;
    s.overflowed += std::isfinite(v) && std::isinf(y);
    s.flushed += std::isfinite(v) && v != 0 && y == 0;
    if (d == Dtype::i32) {
      s.nan_zeroed += std::isnan(v);
      s.saturated += std::isinf(v) || (std::isfinite(v) && std::nearbyint(std::fabs(double{v}) * kI32Scale) > kI32Max);
    }
  }
  return s;
}

TEST(StoredInput, CountsMatchElementByElementForEveryType) {
  const auto x = planted(11);
  const auto in = references(x);
  for (const Dtype d : {Dtype::f32, Dtype::f64, Dtype::f16, Dtype::bf16, Dtype::i32}) {
    const auto st = references(stored(d, x));
    for (std::size_t k = 0; k < kPrefixes.size(); ++k) {
      const std::int64_t n = kPrefixes[k];
      const StoredInput got = stored_input(d, in[k], st[k]);
      const StoredInput want = counted(d, x, n);
      SCOPED_TRACE(std::string(dtype_name(d)) + " n = " + std::to_string(n));
      EXPECT_EQ(got.nan, want.nan);
      EXPECT_EQ(got.inf, want.inf);
      EXPECT_EQ(got.overflowed, want.overflowed);
      EXPECT_EQ(got.flushed, want.flushed);
      EXPECT_EQ(got.saturated, want.saturated);
      EXPECT_EQ(got.nan_zeroed, want.nan_zeroed);
      if (n == kN) {  // the planted values are there: the data must show them
        EXPECT_TRUE(got.any());
        if (d == Dtype::f16 || d == Dtype::i32) {
          EXPECT_TRUE(got.altered());
        }
        EXPECT_EQ(may_be_altered(d, st[k]), d != Dtype::f32 && d != Dtype::f64);
      }
    }
  }
}

TEST(StoredInput, CleanDataNeedsNoSecondScan) {
  // Magnitudes in [2^-8, 2^4): every type holds them (i32 as x * 2^20 up to 2^24 - 2^20).
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<float> mag(0.0f, 12.0f);
  std::vector<float> x(100'003);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = (i % 3 ? 1.0f : -1.0f) * std::exp2(mag(rng) - 8.0f);
  using rb::test::reference_of;
  for (const Dtype d : {Dtype::f16, Dtype::bf16, Dtype::i32}) {
    const Reference st = reference_of(stored(d, x));
    EXPECT_FALSE(may_be_altered(d, st)) << dtype_name(d);
    EXPECT_FALSE(stored_input(d, reference_of(x), st).any()) << dtype_name(d);
  }
  x[77'777] = 20.0f;  // past i32's +-16: one saturates
  const Reference st = reference_of(stored(Dtype::i32, x));
  EXPECT_TRUE(may_be_altered(Dtype::i32, st));
  EXPECT_EQ(stored_input(Dtype::i32, reference_of(x), st).saturated, 1);
}

TEST(Reference, CountsZerosAndTiesAtTheLargestMagnitudeAcrossChunks) {
  auto x = rb::test::random_signed(kN, 3);  // |x| < 2^9
  const std::int64_t ties[] = {5, (std::int64_t{1} << 20) - 1, std::int64_t{1} << 20, kN - 1};
  for (const auto i : ties) x[static_cast<std::size_t>(i)] = (i % 2 ? -1024.0f : 1024.0f);
  for (std::int64_t i = 17; i < kN; i += 65'537) x[static_cast<std::size_t>(i)] = 0.0f;
  x[12] = std::numeric_limits<float>::quiet_NaN();  // not finite: neither a zero nor a magnitude
  const auto refs = references(x);
  for (std::size_t k = 0; k < kPrefixes.size(); ++k) {
    const std::int64_t n = kPrefixes[k];
    std::int64_t zeros = 0, at_max = 0;
    double max_abs = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const float v = x[static_cast<std::size_t>(i)];
      if (!std::isfinite(v)) continue;
      zeros += v == 0;
      const double a = std::fabs(double{v});
      if (a > max_abs) max_abs = a, at_max = 0;
      at_max += a == max_abs;
    }
    SCOPED_TRACE("n = " + std::to_string(n));
    EXPECT_EQ(refs[k].zeros, zeros);
    EXPECT_EQ(refs[k].at_max, at_max);
    EXPECT_EQ(refs[k].max_abs, max_abs);
  }
  EXPECT_EQ(refs.back().at_max, 4);
}

TEST(StoredInput, Describe) {
  EXPECT_EQ(describe(StoredInput{}), "");
  StoredInput s;
  s.nan = 1;
  s.overflowed = 5;
  s.flushed = 2;
  EXPECT_EQ(describe(s), "1 NaN in the input, 5 overflowed to Inf, 2 rounded to 0");
  StoredInput i;
  i.inf = 2;
  i.saturated = 3;
  i.nan_zeroed = 1;
  EXPECT_EQ(describe(i), "2 Inf in the input, 3 saturated at +-(2^24 - 1), 1 NaN stored as 0");
}

}  // namespace
