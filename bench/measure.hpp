#pragma once
// The timed loop of every runner, written once: the stopping rule (bench/sampling.hpp) inside one
// Google Benchmark iteration, or Google Benchmark's own rule when --benchmark_min_time is given.
#include <benchmark/benchmark.h>

#include <functional>

#include "bench/sampling.hpp"

namespace rb::bench {

// The --benchmark_min_time value main() passes when the user gives none: a time every iteration
// reaches (measure() reports at least kOneIteration seconds), so Google Benchmark runs exactly one
// iteration per repetition and never probes iteration counts. Not `1x`: 1.7 lacks it, and with it
// 1.8 also ignores a benchmark's own MinTime, which --compare_min_time's twins need.
inline constexpr double kOneIteration = 1e-9;
#if RB_MIN_TIME_HAS_UNIT
inline constexpr const char* kOneIterationFlag = "--benchmark_min_time=1e-9s";
#else
inline constexpr const char* kOneIterationFlag = "--benchmark_min_time=1e-9";
#endif

struct Timing {
  SampleStats stats;     // over every sample of this run
  double seconds = 0;    // what was given to SetIterationTime, summed (Google Benchmark's total)
};

// Called after each sample with its seconds and the wall time spent sampling so far, before the
// rule sees them: rows over several processes (bench/nccl/) replace both with their maximum over
// every rank, so that every rank's rule takes the same decisions and the collectives stay paired.
using Agree = std::function<void(double& sample_seconds, double& wall_seconds)>;

// `sample()` runs one timed call and returns its seconds. With `gb_rule` false the samples follow
// `rule` and each Google Benchmark iteration's time is their mean, so real_time stays a mean over
// every sample; with it true each iteration is one sample.
Timing measure(benchmark::State& state, const StopRule& rule, bool gb_rule, const std::function<double()>& sample,
               const Agree& agree = {});

// The per-benchmark statistics as counters: samples, median_us, p10_us, p90_us, min_us,
// precision (relative half-width of the median's 95% CI) and target_met (1 or 0).
void report_stats(benchmark::State& state, const SampleStats& stats);

}  // namespace rb::bench
