#include "bench/detail/stored_input.hpp"

#include <cmath>

namespace rb::bench {

bool may_be_altered(Dtype d, const Reference& stored) {
  return d != Dtype::f32 && d != Dtype::f64 &&
         (!stored.finite() || stored.zeros > 0 || (d == Dtype::i32 && stored.max_abs >= kI32Max));
}

StoredInput stored_input(Dtype d, const Reference& input, const Reference& stored) {
  StoredInput s;
  s.nan = input.nan;
  s.inf = input.pos_inf + input.neg_inf;
  if (d == Dtype::f32 || d == Dtype::f64) return s;  // the float values themselves
  if (d == Dtype::i32) {
    s.nan_zeroed = input.nan;
    // Past +-(2^24 - 1) after rounding, or infinite: every value at the limit then counts, the
    // few that rounded to it exactly too.
    const bool clamps = s.inf > 0 || std::nearbyint(input.max_abs * kI32Scale) > kI32Max;
    if (clamps && stored.max_abs == kI32Max) s.saturated = stored.at_max;
  } else {
    s.overflowed = stored.pos_inf + stored.neg_inf - s.inf;
  }
  s.flushed = stored.zeros - input.zeros - s.nan_zeroed;
  return s;
}

std::string describe(const StoredInput& s) {
  std::string out;
  for (const StoredCount& c : kStoredCounts) {
    if (const std::int64_t v = s.*c.field; v > 0) out += (out.empty() ? "" : ", ") + std::to_string(v) + " " + c.phrase;
  }
  return out;
}

}  // namespace rb::bench
