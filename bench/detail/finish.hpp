#pragma once
// What every runner does after its timed loop, written once: bytes processed, counters, the checks
// (bench/detail/verify.hpp, bench/detail/ceiling.hpp) and the outcome the exit status is computed from.
#include <benchmark/benchmark.h>

#include <exception>
#include <functional>
#include <optional>
#include <vector>

#include "bench/detail/ceiling.hpp"
#include "bench/detail/contention.hpp"
#include "bench/api/determinism.hpp"
#include "bench/detail/sampling.hpp"
#include "bench/detail/session.hpp"
#include "bench/api/summation.hpp"
#include "bench/detail/verify.hpp"

namespace rb::bench {

// Untimed calls on the input per run (the first also loads modules and starts threads): the
// accuracy and determinism checks (bench/detail/verify.hpp). At least kMinAccuracyCalls, more while those
// after the first take under kAccuracySeconds together: a CPU call at 2^28 takes up to 0.2 s.
inline constexpr int kAccuracyCalls = 8;
inline constexpr int kMinAccuracyCalls = 2;
inline constexpr double kAccuracySeconds = 0.05;

// Runs `call()` (one untimed call on the input; returns its sum) kMinAccuracyCalls to
// kAccuracyCalls times, as above.
std::vector<double> accuracy_calls(const std::function<double()>& call);

struct Measurement {
  double seconds = 0;          // sum of Google Benchmark's iteration times (Timing::seconds)
  double peak_bytes_per_s = 0; // theoretical bandwidth for pct_peak; 0 = not reported
  Ceiling ceiling;             // the row's regime's ceiling (bench/detail/ceiling.hpp); 0 = none
  SampleStats stats;           // every sample of this run
  bool throttled = false;      // the SM clock fell during the samples (GPU only)
  Contention contention;       // other processes' CPU load during the samples (bench/detail/contention.hpp)
  int gpu_others = -1;         // other processes on the GPU during them (GPU rows, NVML); -1: unknown
  double first_result = 0;     // the first call on the input: what later calls on it are compared with
  std::vector<double> input_calls;  // the other untimed calls on the input
  std::vector<double> calls;   // every timed call's sum (and the untimed calls beside them on the same data)
  TimedData timed_on = TimedData::input;  // what `calls` summed: the exact data set 0 or the input
  Determinism promised = Determinism::not_guaranteed;
  Reference reference;         // the input's fp64 reference at n, over the values as stored
  Structure structure;         // how the backend states it sums (bench/api/summation.hpp)
  ExactResult exact;           // the exact check's verdict for this backend and n (bench/detail/exact_check.hpp)
  // A shape's rows (Case::shape): the verdicts of the per-output checks, judged where the outputs
  // are (bench/detail/outputs_check.hpp), in place of `calls` and `reference`.
  struct OutputsVerdicts {
    CallsVerdict on_input;  // the untimed calls on the input: accuracy and repeatability
    CallsVerdict timed;     // every timed call's outputs against the exact data's integer sums
  };
  std::optional<OutputsVerdicts> outputs;
  // Keeps the calls on the input (accuracy_calls' sums): the first, and the others.
  void on_input(const std::vector<double>& sums) {
    first_result = sums.front();
    input_calls.assign(sums.begin() + 1, sums.end());
  }
};

// Sets bytes processed (iterations x the case's bytes), the sample statistics (bench/detail/measure.hpp) and the
// counters n, rel_err (the worst call's on the input), rel_tol (absent when no bound exists), exact
// (1: both exact data sets and, timed on the exact data, every timed call passed), checked_calls
// (every call whose sum was checked), wrong_calls, repeatable (1: every call on the input gave the
// first one's bits), timed_exact (1: the timed calls summed the exact data), pct_peak, and
// load_other, load_steal, gpu_others and contended where measured (bench/detail/contention.hpp); holds
// the median's bandwidth to m.ceiling; records the outcome. A failed check becomes SkipWithError
// with expected and got values.
void finish_case(benchmark::State& state, Session& session, const Case& c, const Measurement& m);

// Turns an exception from set-up or the timed loop into the benchmark's outcome: a Skip into a clean
// skip (SkipWithMessage), anything else (a CUDA error, bad_alloc, ...) into a failure of this
// benchmark only (SkipWithError).
void fail_case(benchmark::State& state, Session& session, const Case& c, const std::exception& e);

}  // namespace rb::bench
