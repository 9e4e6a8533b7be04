#include "bench/detail/verify.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

namespace rb::bench {
namespace {

std::string format(const char* fmt, double a, double b, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b, c, d);
  return buf;
}

const char* kind(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return "finite";
}

double relative(double err, double scale) {
  return scale > 0 ? err / scale : (err == 0 ? 0.0 : std::numeric_limits<double>::infinity());
}

}  // namespace

Verdict check_accuracy(double got, const Reference& ref, const Structure& s) {
  Verdict v;
  if (s.acc == Accumulator::none) {  // no sum to check
    v.ok = true;
    return v;
  }
  // A 16-bit accumulator whose partial sums may pass its largest value, or a 16-bit result whose
  // sum does (within the largest bound that counts): infinity is what that type gives, reported
  // as an infinite error without a bound, not a broken row.
  const bool partials_overflow = is_16bit(s.acc) && ref.sum_abs > largest_finite(s.acc);
  const bool result_overflows = std::fabs(ref.sum) > largest_result(s) * (1 - kMaxRelativeBound);
  if (ref.finite() && std::isinf(got) && (partials_overflow || result_overflows)) {
    v.ok = true;
    v.rel_err = std::numeric_limits<double>::infinity();
    return v;
  }
  if (!ref.finite() || !std::isfinite(got)) {
    const double want = ref.expected();
    v.ok = std::isnan(want) ? std::isnan(got) : got == want;
    v.rel_err = v.ok ? 0.0 : std::numeric_limits<double>::infinity();
    if (v.ok) v.rel_tol = 0.0;  // matched in kind: checked, and nothing less would pass
    if (!v.ok) {
      v.message = std::string("accuracy check failed: expected ") + kind(want) + " (" + std::to_string(ref.nan) +
                  " NaN, " + std::to_string(ref.pos_inf) + " +Inf, " + std::to_string(ref.neg_inf) +
                  " -Inf in the input), got " + kind(got) + format(" %.17g", got, 0);
    }
    return v;
  }
  const double err = std::fabs(got - ref.sum);
  v.rel_err = relative(err, ref.sum_abs);
  const auto tol = accuracy_bound(s, ref.sum, ref.sum_abs, static_cast<double>(ref.n) * ref.max_abs);
  if (!tol) {  // no bound that can fail: the exact check alone judges this row
    v.ok = true;
    return v;
  }
  v.rel_tol = relative(*tol, ref.sum_abs);
  v.ok = err <= *tol;
  if (!v.ok) {
    v.message = format("accuracy check failed: expected %.17g, got %.17g (|error| %.3g > stated bound %.3g", ref.sum,
                       got, err, *tol) +
                ": " + describe(s) + ")";
  }
  return v;
}

Verdict check_exact(double got, const Reference& exact) {
  Verdict v;
  v.ok = got == exact.sum;
  v.rel_err = relative(std::fabs(got - exact.sum), exact.sum_abs);
  v.rel_tol = 0.0;
  if (!v.ok) {
    v.message =
        format("exact check failed: its integer data sums to %.17g, got %.17g", exact.sum, got);
  }
  return v;
}

Repeat check_repeatable(double first, double last, Determinism promised) {
  Repeat r;
  r.repeatable = (std::isnan(first) && std::isnan(last)) ||
                 std::bit_cast<std::uint64_t>(first) == std::bit_cast<std::uint64_t>(last);
  r.ok = r.repeatable || promised == Determinism::not_guaranteed;
  if (!r.ok) {
    char buf[256];
    std::snprintf(
        buf, sizeof buf,
        "determinism check failed: the backend promises %s, but two calls on the same input gave %.17g and %.17g",
        std::string(determinism_name(promised)).c_str(), first, last);
    r.message = buf;
  }
  return r;
}

CallsVerdict check_calls(double first, std::span<const double> calls, const Reference& ref, const Structure& s,
                         Determinism promised) {
  CallsVerdict out;
  out.worst = check_accuracy(first, ref, s);
  std::int64_t index = 0;
  for (const double got : calls) {
    ++index;
    const bool same = check_repeatable(first, got, Determinism::run_to_run).repeatable;
    const Verdict v = same ? Verdict{} : check_accuracy(got, ref, s);
    const bool broke_promise = !same && promised != Determinism::not_guaranteed;
    out.differed += !same;
    if (!same && (v.rel_err > out.worst.rel_err || (!v.ok && out.worst.ok))) out.worst = v;
    if ((same || v.ok) && !broke_promise) continue;
    if (out.wrong++ == 0) {
      char buf[320];
      std::snprintf(buf, sizeof buf, "timed call %lld of %zu returned %.17g, the warm-up call %.17g (%s)",
                    static_cast<long long>(index), calls.size(), got, first,
                    !v.ok ? "outside the stated bound"
                          : ("the backend promises " + std::string(determinism_name(promised))).c_str());
      out.message = buf;
    }
  }
  out.checked = static_cast<std::int64_t>(calls.size());
  out.repeatable = out.differed == 0;
  out.ok = out.wrong == 0 && out.worst.ok;
  if (out.wrong > 0) {
    out.message = "per-call check failed: " + std::to_string(out.wrong) + " of " + std::to_string(out.checked) +
                  " timed calls wrong; " + out.message;
  } else if (!out.worst.ok) {
    out.message = out.worst.message;
  }
  return out;
}

CallsVerdict check_calls_exact(std::span<const double> calls, const Reference& exact) {
  CallsVerdict out;
  out.worst = check_exact(calls.empty() ? exact.sum : calls.front(), exact);
  std::int64_t index = 0;
  for (const double got : calls) {
    ++index;
    const Verdict v = check_exact(got, exact);
    if (v.ok) continue;
    if (out.wrong++ == 0) {
      out.worst = v;
      char buf[200];
      std::snprintf(buf, sizeof buf, "timed call %lld of %zu returned %.17g; its integer data sums to %.17g",
                    static_cast<long long>(index), calls.size(), got, exact.sum);
      out.message = buf;
    } else if (v.rel_err > out.worst.rel_err) {
      out.worst = v;
    }
  }
  out.checked = static_cast<std::int64_t>(calls.size());
  out.differed = out.wrong;
  out.repeatable = out.wrong == 0;
  out.ok = out.wrong == 0;
  if (!out.ok) {
    out.message = "per-call check failed: " + std::to_string(out.wrong) + " of " + std::to_string(out.checked) +
                  " timed calls not exact; " + out.message;
  }
  return out;
}

}  // namespace rb::bench
