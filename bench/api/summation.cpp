#include "bench/api/summation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace rb::bench {
namespace {

// gamma(d) = d u / (1 - d u), or nothing once d u >= 1.
std::optional<double> gamma(double d, double u) {
  const double du = d * u;
  if (du >= 1.0) return std::nullopt;
  return du / (1.0 - du);
}

}  // namespace

double unit_roundoff(Accumulator acc) {
  switch (acc) {
    case Accumulator::f32:
    case Accumulator::f32_compensated: return kU32;
    case Accumulator::f64: return kU64;
    case Accumulator::f16: return 0x1p-11;
    case Accumulator::bf16: return 0x1p-8;
    default: return 0;
  }
}

double largest_finite(Accumulator acc) {
  if (acc == Accumulator::f16) return 65504.0;
  if (acc == Accumulator::bf16) return 0x1.FEp127;
  return std::numeric_limits<double>::infinity();
}

double largest_result(const Structure& s) {
  if (s.result_u == 0x1p-11) return largest_finite(Accumulator::f16);
  if (s.result_u == 0x1p-8) return largest_finite(Accumulator::bf16);
  return largest_finite(s.acc);
}

int tree_depth(std::int64_t k) {
  int d = 0;
  while ((std::int64_t{1} << d) < k) ++d;
  return d;
}

std::optional<double> accuracy_bound(const Structure& s, double ref_sum, double ref_sum_abs, double n_max_abs) {
  if (s.acc == Accumulator::none) return std::nullopt;
  if (s.acc == Accumulator::binned) {
    if (n_max_abs <= 0 && ref_sum_abs > 0) return std::nullopt;
    const double abs = n_max_abs * s.binned_loss + 7.0 * kU32 * std::fabs(ref_sum) + 2.0 * kU64 * ref_sum_abs;
    if (abs > kMaxRelativeBound * ref_sum_abs && ref_sum_abs > 0) return std::nullopt;
    return abs;
  }
  // Exact additions: only the reference's rounding and the result's conversion to double remain.
  if (s.acc == Accumulator::i64) return kU64 * std::fabs(ref_sum) + 2.0 * kU64 * ref_sum_abs;
  const double u = unit_roundoff(s.acc);
  std::optional<double> rel;
  if (s.acc == Accumulator::f32_compensated) {
    const double chain_u = static_cast<double>(s.chain) * u;
    if (chain_u < 1.0) rel = (2.0 + static_cast<double>(s.tree) + 4.0 * chain_u) * u;
  } else {
    rel = gamma(static_cast<double>(s.chain + s.tree), u);
  }
  const auto combine = gamma(static_cast<double>(s.f64_adds), kU64);
  if (!rel || !combine) return std::nullopt;
  const double total = *rel + 2.0 * *combine + 2.0 * kU64;
  // A bound of sum|x| or more is met by any result no larger than the data, 0.0 among them; one
  // of a few percent passes a wrong second digit: neither is a check.
  if (total > kMaxRelativeBound) return std::nullopt;
  double abs = total * ref_sum_abs;
  if (s.float_result) abs += kU32 * (std::fabs(ref_sum) + abs);
  if (s.result_u > 0) abs += s.result_u * (std::fabs(ref_sum) + abs);
  return abs;
}

std::string describe(const Structure& s) {
  const char* acc = s.acc == Accumulator::f32               ? "f32"
                    : s.acc == Accumulator::f32_compensated ? "f32 Kahan"
                    : s.acc == Accumulator::f64             ? "f64"
                    : s.acc == Accumulator::binned          ? "binned"
                    : s.acc == Accumulator::i64             ? "i64"
                    : s.acc == Accumulator::f16             ? "f16"
                    : s.acc == Accumulator::bf16            ? "bf16"
                                                            : "none";
  if (s.acc == Accumulator::binned) {
    char loss[64];
    std::snprintf(loss, sizeof loss, "binned, loss %g n max|x|", s.binned_loss);
    return std::string(loss) + (s.float_result ? ", float result" : "");
  }
  std::string out = std::string(acc) + ", chain " + std::to_string(s.chain) + " + tree " + std::to_string(s.tree);
  if (s.f64_adds > 0) out += " + " + std::to_string(s.f64_adds) + " in f64";
  if (s.float_result) out += ", float result";
  if (s.result_u == 0x1p-8) out += ", bf16 result";
  else if (s.result_u == 0x1p-11) out += ", f16 result";
  return out;
}

Summation lanes(Accumulator acc, int lanes, int tail) {
  return [acc, lanes, tail](std::int64_t n) {
    return Structure{acc, (n + lanes - 1) / lanes + tail, tree_depth(lanes), 0, true};
  };
}

Summation over_chunks(Summation inner, std::function<int(std::int64_t)> parts, std::int64_t chunk_align) {
  return [inner = std::move(inner), parts = std::move(parts), chunk_align](std::int64_t n) {
    const std::int64_t p = std::max(1, parts(n));
    const std::int64_t per = (n + p - 1) / p;
    Structure s = inner((per + chunk_align - 1) / chunk_align * chunk_align);
    s.f64_adds += p;
    return s;
  };
}

Structure blocked(Accumulator acc, std::int64_t n, std::int64_t threads, int per_add, std::int64_t tree,
                  bool float_result) {
  const std::int64_t per_thread = threads > 0 ? (n + threads * per_add - 1) / (threads * per_add) : n;
  // A float4 is added as ((x + y) + (z + w)) before it meets the accumulator: two more levels.
  return {acc, per_thread + 1, tree + (per_add > 1 ? tree_depth(per_add) : 0), 0, float_result};
}

}  // namespace rb::bench
