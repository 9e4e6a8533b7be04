#pragma once
// The tolerance rule, written once for every backend.
//
//   |got - ref| <= k * u * d(n) * sum|x|  (+ u32 * |ref| when the result is returned as float)
//
// u is the unit roundoff of the accumulator (2^-24 for float, 2^-53 for double), k = 8 (four
// machine epsilons), and d(n) the depth of the summation: log2(n) for tree and blocked
// reductions (the field rule for GPU kernels, CUB and threaded CPU code), n - 1 for one
// sequential float accumulator (the classical worst-case bound, which stops meaning anything
// past n ~ 2^21; such backends' rel_err counter shows how wrong they really are), and n - 1
// for double accumulators in any order (rigorous, and still ~1e-7 at n = 2^31).
// Scaling by sum|x| rather than |ref| keeps signed data whose sum cancels to ~0 from failing
// spuriously; non-finite references must be matched in kind (NaN, +Inf, -Inf).
// Accumulation::none passes without a check: it exists for reference rows that compute no sum.
#include <cstdint>
#include <string>

#include "bench/reference.hpp"

namespace rb::bench {

enum class Accumulation {
  f32_sequential,  // one float accumulator, element after element
  f32_tree,        // float partial sums combined in a tree (GPU kernels, CUB, SIMD lanes + threads)
  f64,             // double (or compensated) accumulators; result returned as double
  none,            // computes no sum (ref/launch, the empty-kernel floor): timed, never verified;
                   // the report gives it no rel_err, rel_tol or bytes/s
};

inline constexpr double kToleranceFactor = 8.0;

// The absolute tolerance for a backend of this kind at ref.n.
double tolerance(Accumulation acc, const Reference& ref);

struct Verdict {
  bool ok = false;
  double rel_err = 0;  // |got - ref| / sum|x|  (0/0 -> 0, x/0 -> inf)
  double rel_tol = 0;  // tolerance / sum|x|, in the same units
  std::string message; // why it failed, with expected and got values; empty when ok
};

Verdict verify(double got, const Reference& ref, Accumulation acc);

}  // namespace rb::bench
