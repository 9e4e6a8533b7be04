#pragma once
// How n elements are split over G GPUs: as evenly as possible, the first n % G shards one longer,
// in rank order, so that shard r of the whole array is x[begin, end) and a GPU can generate it on
// its own from the counter-based generator.
#include <cstdint>

namespace rb::bench {

struct Shard {
  std::int64_t begin = 0, end = 0;
  std::int64_t size() const noexcept { return end - begin; }
};

inline Shard shard_of(std::int64_t n, int parts, int index) {
  const std::int64_t base = n / parts, extra = n % parts;
  const std::int64_t begin = index * base + (index < extra ? index : extra);
  return {begin, begin + base + (index < extra ? 1 : 0)};
}

}  // namespace rb::bench
