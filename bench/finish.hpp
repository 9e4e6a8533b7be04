#pragma once
// What every runner does after its timed loop, written once: bytes processed, counters, the checks
// (bench/verify.hpp, bench/ceiling.hpp) and the outcome the exit status is computed from.
#include <benchmark/benchmark.h>

#include <exception>
#include <functional>
#include <optional>
#include <vector>

#include "bench/ceiling.hpp"
#include "bench/determinism.hpp"
#include "bench/sampling.hpp"
#include "bench/session.hpp"
#include "bench/summation.hpp"

namespace rb::bench {

struct Measurement {
  double seconds = 0;          // sum of Google Benchmark's iteration times (Timing::seconds)
  double peak_bytes_per_s = 0; // theoretical bandwidth for pct_peak; 0 = not reported
  Ceiling ceiling;             // the row's regime's ceiling (bench/ceiling.hpp); 0 = none
  SampleStats stats;           // every sample of this run
  bool throttled = false;      // the SM clock fell during the samples (GPU only)
  double first_result = 0;     // the first warm-up call's sum: what every later call is compared with
  std::vector<double> calls;   // every later call's sum (the timed ones, the CPU's other warm-up calls)
  Determinism promised = Determinism::not_guaranteed;
};

// Sets bytes processed (iterations x the case's bytes), the sample statistics (bench/measure.hpp) and the
// counters n, rel_err (the worst call's), rel_tol (absent when no bound exists), exact (1 passed),
// checked_calls (timed, warm-up and exact calls whose sums were checked), wrong_calls,
// repeatable (1: every timed call gave the warm-up's bits) and pct_peak; holds the median's
// bandwidth to m.ceiling; runs the exact check through `sum_exact(set)` (once per backend and n,
// bench/session.hpp). A failed check becomes SkipWithError with expected and got values.
void finish_case(benchmark::State& state, Session& session, const Case& c, const Reference& ref,
                 const Structure& structure, const Measurement& m,
                 const std::function<double(int set)>& sum_exact);

// Turns an exception from set-up or the timed loop into the benchmark's outcome: a Skip into a clean
// skip (SkipWithMessage), anything else (a CUDA error, bad_alloc, ...) into a failure of this
// benchmark only (SkipWithError).
void fail_case(benchmark::State& state, Session& session, const Case& c, const std::exception& e);

}  // namespace rb::bench
