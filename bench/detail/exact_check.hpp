#pragma once
// The exact check (bench/detail/verify.hpp): a backend summing integer data its stated accumulator sums
// exactly, once per (backend, n or shape) whatever the mode and however often Google Benchmark calls the
// benchmark; its verdict fails the benchmark where it failed or could not run.
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "bench/detail/case.hpp"
#include "bench/detail/exact_data.hpp"
#include "bench/detail/outcome_log.hpp"
#include "bench/detail/reference_cache.hpp"

namespace rb::bench {

struct ExactResult {
  Outcome::Check check = Outcome::Check::none;
  std::string message;  // why it failed or was skipped
};

class ExactChecks {
 public:
  ExactChecks(const InputStore& input, ReferenceCache& references) : input_(input), references_(references) {}
  // Runs `sum_exact(set)` for every set once per (backend, n), set 0 last, and compares each
  // result with the set's reference; later calls return the first verdict. A Skip from it is a
  // check that could not run, a CheckFailed one that failed. Its wall time is counted.
  const ExactResult& run(const Case& c, ExactData data, const std::function<double(int set)>& sum_exact);
  // The same for a call that judges its own result (a shape's outputs, bench/detail/outputs_check.hpp):
  // `check(set)` returns why set `set` failed ("exact check failed: ..."), or empty.
  const ExactResult& run_judged(const Case& c, ExactData data, const std::function<std::string(int set)>& check);
  double seconds() const noexcept { return seconds_; }

 private:
  const InputStore& input_;
  ReferenceCache& references_;
  std::map<std::string, ExactResult> done_;  // by Case::key()
  double seconds_ = 0;
};

}  // namespace rb::bench
