#include "bench/detail/reference.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/parallel.hpp"

namespace rb::bench {
namespace {

constexpr std::int64_t kChunk = std::int64_t{1} << 20;

// Knuth's TwoSum: s + e == a + b exactly.
inline std::pair<double, double> two_sum(double a, double b) {
  const double s = a + b;
  const double bp = s - a;
  const double e = (a - (s - bp)) + (b - bp);
  return {s, e};
}

}  // namespace

double Reference::expected() const noexcept {
  if (nan > 0 || (pos_inf > 0 && neg_inf > 0)) return std::numeric_limits<double>::quiet_NaN();
  if (pos_inf > 0) return std::numeric_limits<double>::infinity();
  if (neg_inf > 0) return -std::numeric_limits<double>::infinity();
  return sum;
}

void ReferenceScan::Partial::add(const Partial& o) {
  auto [s, e] = two_sum(hi, o.hi);
  hi = s;
  lo += e + o.lo;
  abs += o.abs;
  zeros += o.zeros;
  if (o.max_abs > max_abs) at_max = o.at_max;
  else if (o.max_abs == max_abs) at_max += o.at_max;
  max_abs = std::max(max_abs, o.max_abs);
  nan += o.nan;
  pos_inf += o.pos_inf;
  neg_inf += o.neg_inf;
}

// kLanes interleaved compensated sums, combined in lane order at the end: one TwoSum chain waits
// on each addition's latency, four keep the core busy. The order depends on the chunk alone, so
// the result still does not depend on the thread count. The zeros and the ties at the largest
// magnitude so far are counted block by block, while the block is in L1, in a loop on the bits of
// |x| that vectorizes (in the loop above, or in a second pass over the chunk, they cost the scan a
// fifth of its speed; here about a tenth).
ReferenceScan::Partial ReferenceScan::sum_chunk(const float* x, std::int64_t count) {
  constexpr int kLanes = 4;
  constexpr std::int64_t kBlock = 2048;  // a multiple of kLanes: the lanes see the same elements
  constexpr std::int32_t kMagnitude = 0x7fffffff;
  double hi[kLanes] = {}, lo[kLanes] = {}, abs[kLanes] = {}, max_abs[kLanes] = {};
  Partial p;
  const auto add_finite = [&](int l, double v) {
    auto [s, e] = two_sum(hi[l], v);
    hi[l] = s;
    lo[l] += e;
    abs[l] += std::fabs(v);
    max_abs[l] = std::max(max_abs[l], std::fabs(v));
  };
  const auto add = [&](int l, double v) {
    if (std::isfinite(v)) add_finite(l, v);
    else if (std::isnan(v)) ++p.nan;
    else if (v > 0) ++p.pos_inf;
    else ++p.neg_inf;
  };
  double top = 0;  // the largest finite magnitude so far
  std::int64_t zeros = 0, at_max = 0;
  std::int64_t i = 0;
  for (std::int64_t block = 0; block < count; block += kBlock) {
    const std::int64_t end = std::min(count, block + kBlock);
    for (; i + kLanes <= end; i += kLanes) {
      bool finite = true;
      for (int l = 0; l < kLanes; ++l) finite &= std::isfinite(x[i + l]);
      if (finite) {
        for (int l = 0; l < kLanes; ++l) add_finite(l, x[i + l]);
      } else {
        for (int l = 0; l < kLanes; ++l) add(l, x[i + l]);
      }
    }
    if (end == count) {
      for (; i < count; ++i) add(0, x[i]);
    }
    // A new largest magnitude has no tie before this block; an old one keeps its count.
    const double now = *std::max_element(max_abs, max_abs + kLanes);
    if (now > top) top = now, at_max = 0;
    const std::int32_t bits = std::bit_cast<std::int32_t>(static_cast<float>(top));
    std::int32_t block_zeros = 0, ties = 0;
    for (std::int64_t k = block; k < end; ++k) {
      const std::int32_t a = std::bit_cast<std::int32_t>(x[k]) & kMagnitude;
      block_zeros += a == 0;
      ties += a == bits;
    }
    zeros += block_zeros;
    at_max += ties;
  }
  for (int l = 0; l < kLanes; ++l) p.add(Partial{hi[l], lo[l], abs[l], max_abs[l]});
  p.zeros = zeros;
  p.at_max = at_max;
  return p;
}

std::vector<Reference> ReferenceScan::extend(std::span<const std::int64_t> sizes) {
  if (!sizes.empty() && sizes.front() < pos_) {
    throw std::logic_error("ReferenceScan::extend: size " + std::to_string(sizes.front()) +
                           " is below the " + std::to_string(pos_) + " already scanned");
  }
  // Chunks never straddle a requested size, so every size is a prefix of whole chunks.
  std::vector<std::pair<std::int64_t, std::int64_t>> chunks;
  std::int64_t begin = pos_;
  for (const std::int64_t n : sizes) {
    for (; begin < n; begin = std::min(n, begin + kChunk)) chunks.emplace_back(begin, std::min(n, begin + kChunk));
  }
  std::vector<Partial> partials(chunks.size());
  parallel_for(static_cast<std::int64_t>(chunks.size()), [&](std::int64_t c) {
    thread_local std::unique_ptr<float[]> scratch;
    if (!scratch) scratch = std::make_unique<float[]>(kChunk);
    const auto [b, e] = chunks[c];
    partials[c] = sum_chunk(source_(b, e, scratch.get()), e - b);
  });

  std::vector<Reference> out;
  out.reserve(sizes.size());
  std::size_t c = 0;
  for (const std::int64_t n : sizes) {
    for (; c < chunks.size() && chunks[c].second <= n; ++c) total_.add(partials[c]);
    out.push_back({n, total_.hi + total_.lo, total_.abs, total_.max_abs, total_.zeros, total_.at_max, total_.nan,
                   total_.pos_inf, total_.neg_inf});
  }
  if (!sizes.empty()) pos_ = sizes.back();
  return out;
}

std::vector<Reference> compute_references(std::span<const std::int64_t> sizes, const ChunkSource& source) {
  return ReferenceScan(source).extend(sizes);
}

}  // namespace rb::bench
