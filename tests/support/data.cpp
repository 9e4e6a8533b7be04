#include "tests/support/data.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace rb::test {

std::vector<float> random_signed(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> mant(1.0f, 2.0f);
  std::uniform_int_distribution<int> exp(-8, 8);
  std::bernoulli_distribution neg(0.5);
  std::vector<float> x(static_cast<std::size_t>(n));
  for (auto& v : x) v = (neg(rng) ? -1.0f : 1.0f) * std::ldexp(mant(rng), exp(rng));
  return x;
}

std::vector<float> ill_conditioned(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> small(0.0f, 1.0f);
  std::vector<float> x(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < x.size(); ++i) {
    // Pairs +B, -B of huge magnitude around runs of small positive values.
    x[i] = (i % 16 == 0) ? 1e8f : (i % 16 == 8) ? -1e8f : small(rng);
  }
  return x;
}

bench::Reference reference_of(std::span<const float> x) {
  const std::int64_t n = static_cast<std::int64_t>(x.size());
  const std::int64_t sizes[] = {n};
  return bench::compute_references(sizes, [&](std::int64_t b, std::int64_t, float*) { return x.data() + b; })
      .front();
}

bench::Structure structure(Acc acc, std::int64_t n) {
  const std::int64_t m = std::max<std::int64_t>(n, 2);
  switch (acc) {
    case Acc::f32_tree: return {bench::Accumulator::f32, 0, 8 * bench::tree_depth(m), 0, true};
    case Acc::f32_sequential: return {bench::Accumulator::f32, 8 * (m - 1), 0, 0, true};
    case Acc::f64: return {bench::Accumulator::f64, 8 * (m - 1), 0, 0, false};
  }
  return {};
}

}  // namespace rb::test
