#pragma once
// The two checks every timed (backend, n) gets, written once. Both can fail at every n.
//
// Exact: one more call, outside the timed region, on random nonzero integers in [-8, 8]
//   (--dist=integers). Every partial sum any fixed summation order forms is an integer far below
//   2^24, so float and double accumulators, compensated or not, in any order, return the sum
//   exactly, and it is compared with zero tolerance. A dropped, doubled or misplaced element, an
//   off-by-one tail, a wrong n or stride changes the integer.
// Accuracy: the result on the benchmark's own data against the bound its adapter states
//   (bench/summation.hpp). rel_err above it is a failure: the kernel or its stated structure is
//   wrong. Non-finite references must be matched in kind (NaN, +Inf, -Inf).
#include <optional>
#include <string>

#include "bench/determinism.hpp"
#include "bench/reference.hpp"
#include "bench/summation.hpp"

namespace rb::bench {

struct Verdict {
  bool ok = false;
  double rel_err = 0;              // |got - ref| / sum|x|  (0/0 -> 0, x/0 -> inf)
  std::optional<double> rel_tol;   // the stated bound / sum|x|; empty: no bound (summation.hpp)
  std::string message;             // why it failed, with expected and got values; empty when ok
};

// Accuracy on the benchmark's data. With no bound (Accumulator::none, or a float chain too long
// for one) only non-finite results are judged; rel_tol then stays empty.
Verdict check_accuracy(double got, const Reference& ref, const Structure& s);

// The exact check: got must equal the integer sum of `exact` bit for bit.
Verdict check_exact(double got, const Reference& exact);

// Repeatability: two calls on the same data (the warm-up's and the last sample's) gave the same
// bits (any two NaNs count as the same). Fails only when the backend promised run_to_run or more;
// `repeatable` says what was seen either way.
struct Repeat {
  bool repeatable = false;
  bool ok = false;
  std::string message;  // why it failed, with both values; empty when ok
};
Repeat check_repeatable(double first, double last, Determinism promised);

}  // namespace rb::bench
