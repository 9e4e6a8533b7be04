#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

#include "bench/detail/input.hpp"
#include "tools/reduce_gen/values.hpp"

namespace {

using rb::gen::fill;
using rb::gen::GenDist;

std::vector<float> gen(GenDist d, std::uint64_t seed, std::int64_t begin, std::int64_t end) {
  std::vector<float> v(static_cast<std::size_t>(end - begin));
  fill(d, seed, v.data(), begin, end);
  return v;
}

std::vector<float> bench_input(rb::bench::Dist d, std::uint64_t seed, std::int64_t begin, std::int64_t end) {
  std::vector<float> v(static_cast<std::size_t>(end - begin));
  rb::bench::generate(d, seed, v.data(), begin, end);
  return v;
}

// Bitwise, not ==: -0.0f == 0.0f would hide a sign difference.
void expect_bitwise_equal(const std::vector<float>& a, const std::vector<float>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(std::bit_cast<std::uint32_t>(a[i]), std::bit_cast<std::uint32_t>(b[i])) << "at " << i;
  }
}

TEST(ReduceGenValues, UniformIsTheBenchInput) {
  for (const std::uint64_t seed : {0ull, 1ull, 42ull, 0xFFFFFFFFFFFFFFFFull}) {
    expect_bitwise_equal(gen(GenDist::uniform, seed, 0, 4099), bench_input(rb::bench::Dist::uniform, seed, 0, 4099));
    // Far into the index range and off a power of two: the hash uses the 64-bit index.
    const std::int64_t far = (std::int64_t{1} << 33) + 7;
    expect_bitwise_equal(gen(GenDist::uniform, seed, far, far + 33),
                         bench_input(rb::bench::Dist::uniform, seed, far, far + 33));
  }
}

TEST(ReduceGenValues, HarmonicIsTheBenchInput) {
  expect_bitwise_equal(gen(GenDist::harmonic, 5, 0, 10'001), bench_input(rb::bench::Dist::harmonic, 5, 0, 10'001));
  // harmonic ignores the seed.
  expect_bitwise_equal(gen(GenDist::harmonic, 5, 100, 200), gen(GenDist::harmonic, 6, 100, 200));
}

TEST(ReduceGenValues, UniformRange) {
  const auto v = gen(GenDist::uniform, 9, 0, 100'000);
  double lo = 1, hi = -1;
  for (const float x : v) {
    lo = std::min<double>(lo, x);
    hi = std::max<double>(hi, x);
  }
  EXPECT_GE(lo, -1.0);
  EXPECT_LT(hi, 1.0);
  EXPECT_LT(lo, -0.99);  // signed, spread over the whole interval
  EXPECT_GT(hi, 0.99);
}

TEST(ReduceGenValues, NormalIsDeterministicAndSeeded) {
  expect_bitwise_equal(gen(GenDist::normal, 42, 0, 1000), gen(GenDist::normal, 42, 0, 1000));
  // Chunk boundaries do not matter: [0, 1000) equals [0, 500) + [500, 1000).
  auto a = gen(GenDist::normal, 42, 0, 500);
  const auto b = gen(GenDist::normal, 42, 500, 1000);
  a.insert(a.end(), b.begin(), b.end());
  expect_bitwise_equal(a, gen(GenDist::normal, 42, 0, 1000));
  const auto c = gen(GenDist::normal, 43, 0, 1000);
  int same = 0;
  for (std::size_t i = 0; i < c.size(); ++i) same += c[i] == a[i];
  EXPECT_LT(same, 5);
}

TEST(ReduceGenValues, NormalIsTheBenchInput) {
  expect_bitwise_equal(gen(GenDist::normal, 42, 0, 4099), bench_input(rb::bench::Dist::normal, 42, 0, 4099));
  const std::int64_t far = (std::int64_t{1} << 33) + 7;
  expect_bitwise_equal(gen(GenDist::normal, 3, far, far + 33), bench_input(rb::bench::Dist::normal, 3, far, far + 33));
}

TEST(ReduceGenValues, NormalMoments) {
  // Irwin-Hall of four uniforms, centred and scaled: mean 0, variance 1, bounded by 2 sqrt(3).
  constexpr std::int64_t n = 1'000'000;
  const auto v = gen(GenDist::normal, 42, 0, n);
  double sum = 0, sum2 = 0, max_abs = 0;
  for (const float x : v) {
    ASSERT_TRUE(std::isfinite(x));
    sum += x;
    sum2 += double(x) * x;
    max_abs = std::max(max_abs, std::fabs(double(x)));
  }
  const double mean = sum / n, var = sum2 / n - mean * mean;
  // Bounds of about 5 standard errors: a real bug (wrong scale, half the range) is far outside.
  EXPECT_NEAR(mean, 0.0, 5.0 / std::sqrt(double(n)));
  EXPECT_NEAR(var, 1.0, 5.0 * std::sqrt(2.0 / n));
  EXPECT_GT(max_abs, 3.0);
  EXPECT_LE(max_abs, 3.4642);
}

TEST(ReduceGenValues, NormalIsNotUniformsStream) {
  // Same seed, same index: the two distributions' hashes must not be related.
  const auto u = gen(GenDist::uniform, 42, 0, 100'000);
  const auto z = gen(GenDist::normal, 42, 0, 100'000);
  double cov = 0;
  for (std::size_t i = 0; i < u.size(); ++i) cov += double(u[i]) * z[i];
  EXPECT_LT(std::fabs(cov / double(u.size())), 0.01);
}

TEST(ReduceGenValues, Names) {
  for (const auto d : {GenDist::uniform, GenDist::normal, GenDist::harmonic}) {
    EXPECT_EQ(rb::gen::dist_from_name(rb::gen::dist_name(d)), d);
  }
  EXPECT_FALSE(rb::gen::dist_from_name("gaussian").has_value());
}

}  // namespace
