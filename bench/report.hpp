#pragma once
// What every runner does after its timed loop, written once: bytes processed, counters, the two
// checks (bench/verify.hpp) and the outcome the exit status is computed from.
#include <benchmark/benchmark.h>

#include <exception>
#include <functional>
#include <optional>

#include "bench/determinism.hpp"
#include "bench/sampling.hpp"
#include "bench/session.hpp"
#include "bench/summation.hpp"

namespace rb::bench {

struct Measurement {
  double result = 0;           // the backend's sum, read back after timing
  double seconds = 0;          // sum of Google Benchmark's iteration times (Timing::seconds)
  double peak_bytes_per_s = 0; // theoretical bandwidth for pct_peak; 0 = not reported
  SampleStats stats;           // every sample of this run
  bool throttled = false;      // the SM clock fell during the samples (GPU only)
  // An earlier call's sum on the same data (the warm-up's), for the determinism check; empty
  // when the runner has none.
  std::optional<double> first_result = std::nullopt;
  Determinism promised = Determinism::not_guaranteed;
};

// Sets bytes processed (iterations x 4n), the sample statistics (bench/measure.hpp) and the
// counters n, rel_err, rel_tol (absent when no bound exists), exact (1 passed, 0 skipped),
// repeatable (1: first_result and result have the same bits; absent without first_result) and
// pct_peak; runs the exact check through
// `sum_exact_input` (once per backend and n: a new backend over the integer input, one call,
// untimed). A failed check becomes SkipWithError with expected and got values.
void finish_case(benchmark::State& state, Session& session, const Case& c, const Reference& ref,
                 const Structure& structure, const Measurement& m,
                 const std::function<double()>& sum_exact_input);

// Turns an exception from set-up or the timed loop into SkipWithError. Skip is a clean skip;
// anything else (a CUDA error, bad_alloc, ...) counts as a failure of this benchmark only.
void fail_case(benchmark::State& state, Session& session, const Case& c, const std::exception& e);

}  // namespace rb::bench
