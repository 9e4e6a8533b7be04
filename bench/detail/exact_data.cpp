#include "bench/detail/exact_data.hpp"

#include <algorithm>

#include "common/synth.hpp"

namespace rb::bench {

SparseSet sparse_set(std::uint64_t seed, std::int64_t n) {
  std::vector<std::int64_t> at;
  const std::int64_t ends = std::min<std::int64_t>(16, n);
  for (std::int64_t i = 0; i < ends; ++i) {
    at.push_back(i);
    at.push_back(n - 1 - i);
  }
  for (std::uint64_t k = 0; k < 16 && n > 0; ++k) {
    at.push_back(static_cast<std::int64_t>(rb::synth::mix(seed + 0x2545F4914F6CDD1DULL * (k + 1)) %
                                           static_cast<std::uint64_t>(n)));
  }
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  SparseSet s;
  for (const std::int64_t i : at) {
    // |x| in {1, 3} at even i, {2, 4} at odd i, a hashed sign: nonzero, and neighbours never cancel.
    const std::uint64_t bits = rb::synth::mix(seed ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(i + 1)));
    const auto magnitude = static_cast<float>(2 * ((bits >> 32) & 1u) + 1 + static_cast<std::uint64_t>(i & 1));
    s.index.push_back(i);
    s.value.push_back((bits >> 63) != 0 ? -magnitude : magnitude);
  }
  return s;
}

}  // namespace rb::bench
