#pragma once
// One sweep run in several processes (--processes), pooled into one JSON document: each row's runs
// from every process become its repetitions, and each one's precision is widened by the scatter
// between all of them (bench/detail/repetitions.hpp), which now includes what a process draws once
// (where its buffers landed, its core, its GPU context) and no single process can see.
#include <string>
#include <vector>

#include "bench/detail/json.hpp"

namespace rb::bench {

// One row's runs across the processes.
struct PooledRow {
  std::string name;      // run_name without Google Benchmark's /manual_time
  int runs = 0;          // its repetitions, over every process
  int processes = 0;     // processes that measured it
  double median_us = 0;  // the median of its runs' medians
  double between = 0;    // the between term over all of them (0 with fewer than 2)
  int target_met = 0;    // runs that still meet the target
};

// `docs`: the processes' --benchmark_out documents, in order. The result has the first one's
// context with "processes" added, and every row's iteration runs (aggregates are per process and
// dropped), each with "process" (its index), repetition_index and repetitions renumbered over the
// pool, and where it was sampled precision_run (its own), between, precision widened and target_met
// 0 beyond `target`. `rows`, when given, receives one PooledRow per row in the document's order.
Json pool_processes(const std::vector<Json>& docs, double target, std::vector<PooledRow>* rows = nullptr);

}  // namespace rb::bench
