#pragma once
// Repetitions: one run's interval holds for its own process state, and a row's runs in one process
// (Google Benchmark repetitions, interleaved with the other rows) draw states of their own. Each
// repetition row's precision is widened by the scatter between the repetitions of its benchmark,
// so that it covers what another repetition, or another process, would measure.
#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rb::bench {

// One repetition: its median and its own (within-run) relative precision.
struct RunInterval {
  double median = 0;
  double precision = 0;
};

// The between-repetition term, a relative half-width: t(R-1) times tau, the standard deviation of
// the repetitions' log medians beyond what their own intervals explain (DerSimonian and Laird:
// tau^2 = max(0, (Q - (R - 1)) / (sum w - sum w^2 / sum w)), w = 1 / se^2, se = precision / 1.96,
// Q = sum w (y - weighted mean)^2). 0 below 2 repetitions or when Q is within its expectation.
double between_repetitions(const std::vector<RunInterval>& runs);

// A repetition's precision with the between term: sqrt(precision^2 + between^2).
double widened(double precision, double between);

// Passes every call to `inner` (not owned), with each repetition row's counters rewritten when
// the benchmark has 2 or more: precision widened, precision_run (its own), between, and target_met
// 0 where the widened precision misses the target.
// `widen`, when given, hears each benchmark's name and between term once (the run's summary).
using OnWiden = std::function<void(const std::string& name, double between)>;
std::unique_ptr<benchmark::BenchmarkReporter> widening_reporter(benchmark::BenchmarkReporter* inner, double target,
                                                                OnWiden widen = {});

}  // namespace rb::bench
