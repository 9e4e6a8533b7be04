#pragma once
// One updating line on stderr while a sweep runs, when stderr is a terminal: benchmarks done of
// the total, elapsed time, an estimate of the time left, and the benchmark now running. Nothing
// at all otherwise, so logs and pipes see only Google Benchmark's output.
#include <chrono>
#include <cstdint>
#include <set>
#include <string>

namespace rb::bench {

class Progress {
 public:
  static Progress& get();
  // `benchmarks` cases, each run `repetitions` times; `counted_runs` false when Google Benchmark
  // decides the runs (--benchmark_min_time: its probes are runs too), so progress counts names.
  void start(std::int64_t benchmarks, int repetitions, bool counted_runs);
  void begin(const std::string& name);  // draws the line
  void end();                           // erases it, so Google Benchmark's row starts a clean line
  void finish();                        // erases it for good

 private:
  bool on_ = false;
  bool counted_runs_ = true;
  std::int64_t benchmarks_ = 0, runs_total_ = 0, runs_done_ = 0;
  std::set<std::string> names_;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace rb::bench
