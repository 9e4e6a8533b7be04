#pragma once
// The checks every timed (backend, n) gets, written once. Each can fail at every n.
//
// Exact: untimed calls on random nonzero integers in [-8, 8] whose neighbours differ in parity
//   (common/synth.hpp), written in place over the timed input (the same buffer, the same backend
//   object: a backend that memoizes its sum on its pointer, n or itself returns the wrong one),
//   with kPadFloats poison values of 2^20 past n (an over-read changes the sum). Every partial sum
//   any fixed summation order forms is an integer far below 2^24, so float and double
//   accumulators, compensated or not, in any order, return the sum exactly, and it is compared
//   with zero tolerance. A dropped, doubled or neighbour-read element changes the integer at every
//   n. Two data sets of independent seeds: a dropped group of k elements goes unseen only when it
//   sums to zero in both (never for k = 2: two neighbours sum to an odd number; about 4% per set
//   for k = 16, so about 0.15% for both). A row adding in a 16-bit float gets sparse integer data
//   instead, exact in its accumulator (bench/detail/exact_data.hpp).
// Per call: the timed calls sum the first exact data set (--time_on=exact, the default), so every
//   timed call's sum (bench/gpu/runner.cpp and bench/cpu/runner.cpp keep them all) must equal its
//   integer sum bit for bit. Timed on the input instead (--time_on=input), each is held to the
//   row's stated bound and, where the row promises run_to_run or more, to the first call's bits.
// Accuracy: untimed calls on the input (bench/detail/finish.hpp: kAccuracyCalls), against the stated bound
//   (bench/api/summation.hpp) and, where promised, bit for bit against each other. Non-finite
//   references must be matched in kind (NaN, +Inf, -Inf).
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "bench/api/determinism.hpp"
#include "bench/detail/reference.hpp"
#include "bench/api/summation.hpp"

namespace rb::bench {

struct Verdict {
  bool ok = false;
  double rel_err = 0;              // |got - ref| / sum|x|  (0/0 -> 0, x/0 -> inf)
  std::optional<double> rel_tol;   // the stated bound / sum|x|; empty: no bound (summation.hpp)
  std::string message;             // why it failed, with expected and got values; empty when ok
};

// Accuracy on the benchmark's data. With no bound (Accumulator::none, or a float chain too long
// for one) only non-finite results are judged; rel_tol then stays empty. An infinite result of a
// 16-bit accumulator is accepted, as its overflow, where sum|x| passes that type's largest value,
// and of a 16-bit result where |sum| (nearly) does.
Verdict check_accuracy(double got, const Reference& ref, const Structure& s);

// The exact check: got must equal the integer sum of `exact` bit for bit.
Verdict check_exact(double got, const Reference& exact);

// Repeatability: two calls on the same data gave the same bits (any two NaNs count as the same).
// Fails only when the backend promised run_to_run or more; `repeatable` says what was seen either
// way.
struct Repeat {
  bool repeatable = false;
  bool ok = false;
  std::string message;  // why it failed, with both values; empty when ok
};
Repeat check_repeatable(double first, double last, Determinism promised);

// The per-call check over every timed call's sum, `first` being the warm-up call's.
struct CallsVerdict {
  std::int64_t checked = 0;   // calls looked at (the timed ones)
  std::int64_t differed = 0;  // calls whose bits differ from the warm-up's
  std::int64_t wrong = 0;     // calls outside the bound, or differing where the row promised
  Verdict worst;              // the accuracy verdict of the worst call (rel_tol as stated)
  bool repeatable = true;     // differed == 0
  bool ok = true;
  std::string message;        // the first wrong call: its index, the expected and the got value
};
CallsVerdict check_calls(double first, std::span<const double> calls, const Reference& ref, const Structure& s,
                         Determinism promised);

// The per-call check of calls timed on the exact data: every sum equals the integer sum of
// `exact` bit for bit (worst.rel_tol 0). A call that drops, doubles or misreads any element, on any
// call, at any n, differs from it.
CallsVerdict check_calls_exact(std::span<const double> calls, const Reference& exact);

}  // namespace rb::bench
