#pragma once
// What every runner does after its timed loop, written once: bytes processed, counters,
// verification against the reference, and the outcome the exit status is computed from.
#include <benchmark/benchmark.h>

#include <exception>

#include "bench/session.hpp"
#include "bench/verify.hpp"

namespace rb::bench {

struct Measurement {
  double result = 0;           // the backend's sum, read back after timing
  double seconds = 0;          // sum of the timed iterations
  double peak_bytes_per_s = 0; // theoretical bandwidth for pct_peak; 0 = not reported
};

// Sets bytes processed (iterations x 4n) and the counters n, rel_err, rel_tol (and pct_peak);
// a failed verification becomes SkipWithError with expected and got values.
void finish_case(benchmark::State& state, Session& session, const Case& c, const Reference& ref,
                 Accumulation acc, const Measurement& m);

// Turns an exception from set-up or the timed loop into SkipWithError. Skip is a clean skip;
// anything else (a CUDA error, bad_alloc, ...) counts as a failure of this benchmark only.
void fail_case(benchmark::State& state, Session& session, const Case& c, const std::exception& e);

}  // namespace rb::bench
