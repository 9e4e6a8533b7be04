#pragma once
// The checks of one row of a sum along a dimension (Case::shape), the steps both runners share
// (bench/cpu/runner.cpp, bench/gpu/runner.cpp): each untimed call's outputs on the input against
// the per-output references, the exact check once per backend and shape, and the integer sums the
// timed calls are compared with (bench/detail/outputs_check.hpp). The runners keep what differs:
// where the outputs live, how a call is made, and where each timed call is compared.
#include <functional>
#include <span>
#include <vector>

#include "bench/detail/finish.hpp"
#include "bench/detail/outputs_check.hpp"

namespace rb::bench {

class ShapedChecks {
 public:
  // Throws Skip where these rows cannot be checked: timed on the input (--time_on=input), or
  // stated in a 16-bit accumulator or result (no exact data per output for them).
  ShapedChecks(Session& session, const Case& c, const Structure& s, Determinism promised);
  // One untimed call on the input.
  void on_input(std::span<const float> outputs) { on_input_.add(outputs); }
  // The exact check (once per backend and shape): `sum(set)` writes set `set` in place and
  // returns its call's outputs; set 0 is left in place for the timed calls.
  ExactResult exact(const std::function<std::vector<float>(int set)>& sum);
  // What every timed call must return: exact data set 0's integer sums.
  std::vector<float> expected() const;
  // The verdicts for finish_case, from every timed call's record.
  Measurement::OutputsVerdicts verdicts(std::span<const CallMismatch> calls) const;

 private:
  Session& session_;
  const Case& case_;
  OutputsAccuracy on_input_;
};

}  // namespace rb::bench
