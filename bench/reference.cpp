#include "bench/reference.hpp"

#include <algorithm>
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
  max_abs = std::max(max_abs, o.max_abs);
  nan += o.nan;
  pos_inf += o.pos_inf;
  neg_inf += o.neg_inf;
}

ReferenceScan::Partial ReferenceScan::sum_chunk(const float* x, std::int64_t count) {
  Partial p;
  for (std::int64_t i = 0; i < count; ++i) {
    const double v = x[i];
    if (!std::isfinite(v)) {
      if (std::isnan(v)) ++p.nan;
      else if (v > 0) ++p.pos_inf;
      else ++p.neg_inf;
      continue;
    }
    auto [s, e] = two_sum(p.hi, v);
    p.hi = s;
    p.lo += e;
    p.abs += std::fabs(v);
    p.max_abs = std::max(p.max_abs, std::fabs(v));
  }
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
    out.push_back({n, total_.hi + total_.lo, total_.abs, total_.max_abs, total_.nan, total_.pos_inf, total_.neg_inf});
  }
  if (!sizes.empty()) pos_ = sizes.back();
  return out;
}

std::vector<Reference> compute_references(std::span<const std::int64_t> sizes, const ChunkSource& source) {
  return ReferenceScan(source).extend(sizes);
}

}  // namespace rb::bench
