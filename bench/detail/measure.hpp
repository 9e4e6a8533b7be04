#pragma once
// The timed loop of every runner, written once: the stopping rule (bench/detail/sampling.hpp) inside one
// Google Benchmark iteration, or Google Benchmark's own rule when --benchmark_min_time is given.
#include <benchmark/benchmark.h>

#include <functional>
#include <string>

#include "bench/detail/sampling.hpp"
#include "bench/detail/session.hpp"

namespace rb::bench {

// The --benchmark_min_time value main() passes when the user gives none: a time every iteration
// reaches (measure() reports at least kOneIteration seconds), so Google Benchmark runs exactly one
// iteration per repetition and never probes iteration counts. Not `1x`: with it Google Benchmark
// ignores a benchmark's own MinTime, which --compare_min_time's twins need.
inline constexpr double kOneIteration = 1e-9;
inline constexpr const char* kOneIterationFlag = "--benchmark_min_time=1e-9s";

struct Timing {
  SampleStats stats;     // over every sample of this run
  double seconds = 0;    // what was given to SetIterationTime, summed (Google Benchmark's total)
};

// Called after each sample with its seconds and the wall time spent sampling so far, before the
// rule sees them: rows over several processes (bench/nccl/) replace both with their maximum over
// every rank, so that every rank's rule takes the same decisions and the collectives stay paired.
using Agree = std::function<void(double& sample_seconds, double& wall_seconds)>;

// How one benchmark is sampled.
struct Sampling {
  StopRule rule;
  bool gb_rule = false;  // --benchmark_min_time given, or a --compare_min_time twin
  std::string name;      // the case's, for --samples_csv
  std::string samples_csv;  // --samples_csv: empty, none recorded
};
// `tick_seconds`: the resolution of the clock that times the samples (StopRule::tick_seconds).
Sampling sampling_for(const Options& options, const Case& c, double tick_seconds);

// `sample()` runs one timed call and returns its seconds. Without gb_rule the samples follow the
// rule and each Google Benchmark iteration's time is their median, so real_time is the median the
// rule's precision is about (one 10x outlier in 100 samples would move a mean by 9%); with it each
// iteration is one sample, and real_time is Google Benchmark's mean over the iterations.
//
// --samples_csv=FILE (a diagnostic) appends every sample as "name,run,index,ns,at_ns": at_ns is when
// it ended, from the start of its run, and `run` counts the runs of that name in this process
// (Google Benchmark's probes, then repetitions), so a mode that flips between runs or a slow
// start can be looked at.
Timing measure(benchmark::State& state, const Sampling& how, const std::function<double()>& sample,
               const Agree& agree = {});

// The CPU rows' warm-up: `call()` makes one call of the backend and returns its seconds.
// Calls go in blocks of at least kWarmBlock of wall time and two calls; the warm-up ends at the
// first block whose median is no more than kWarmTolerance below the fastest earlier block's (the
// calls have stopped getting faster), or after max_seconds, or after one call when a call takes
// max_seconds or more. Returns the calls made. Why: a CPU row's first 10-100 ms run up to 2x slower
// (6x on 16 threads) than what follows, caches filling and cores clocking up, and one warm-up call
// leaves that inside the samples (results/h200/checks/stopping_rule/README.md, "The CPU rows' first
// milliseconds").
inline constexpr double kWarmBlock = 0.005;
inline constexpr double kWarmTolerance = 0.01;
std::int64_t warm_up(const std::function<double()>& call, double max_seconds);

// The per-benchmark statistics as counters: samples, mean_us, median_us, p10_us, p90_us, min_us,
// precision (relative half-width of the median's 95% CI), target_met (1 or 0), lag1 (the samples'
// lag-1 rank autocorrelation), correlated and drift (1 or 0); bench/detail/sampling.hpp: SampleStats.
void report_stats(benchmark::State& state, const SampleStats& stats);

}  // namespace rb::bench
