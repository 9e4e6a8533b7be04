#include "bench/verify.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace rb::bench {
namespace {

constexpr double kU32 = 0x1p-24;
constexpr double kU64 = 0x1p-53;

std::string format(const char* fmt, double a, double b, double c, double d) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b, c, d);
  return buf;
}

const char* kind(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return "finite";
}

}  // namespace

double tolerance(Accumulation acc, const Reference& ref) {
  const auto n = static_cast<double>(std::max<std::int64_t>(ref.n, 2));
  double depth = n - 1;
  double u = kU32;
  switch (acc) {
    case Accumulation::f32_tree: depth = std::ceil(std::log2(n)); break;
    case Accumulation::f32_sequential: break;
    case Accumulation::f64: u = kU64; break;
    case Accumulation::none: return std::numeric_limits<double>::infinity();
  }
  const double final_rounding = acc == Accumulation::f64 ? 0.0 : kU32 * std::fabs(ref.sum);
  return kToleranceFactor * u * depth * ref.sum_abs + final_rounding;
}

Verdict verify(double got, const Reference& ref, Accumulation acc) {
  Verdict v;
  if (acc == Accumulation::none) {  // no sum to check
    v.ok = true;
    return v;
  }
  const double want = ref.expected();
  const double inf = std::numeric_limits<double>::infinity();
  if (!ref.finite() || !std::isfinite(got)) {
    v.ok = std::isnan(want) ? std::isnan(got) : got == want;
    v.rel_err = v.ok ? 0.0 : inf;
    if (!v.ok) {
      v.message = std::string("verification failed: expected ") + kind(want) + " (" +
                  std::to_string(ref.nan) + " NaN, " + std::to_string(ref.pos_inf) + " +Inf, " +
                  std::to_string(ref.neg_inf) + " -Inf in the input), got " + kind(got) +
                  format(" %.17g", got, 0, 0, 0);
    }
    return v;
  }
  const double err = std::fabs(got - ref.sum);
  const double tol = tolerance(acc, ref);
  v.ok = err <= tol;
  v.rel_err = ref.sum_abs > 0 ? err / ref.sum_abs : (err == 0 ? 0.0 : inf);
  v.rel_tol = ref.sum_abs > 0 ? tol / ref.sum_abs : 0.0;
  if (!v.ok) {
    v.message = format("verification failed: expected %.17g, got %.17g (|error| %.3g > tolerance %.3g)",
                       ref.sum, got, err, tol);
  }
  return v;
}

}  // namespace rb::bench
