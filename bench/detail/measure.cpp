#include "bench/detail/measure.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <vector>

#include "bench/detail/interrupt.hpp"

namespace rb::bench {
namespace {

// One per process: the file named by the first benchmark's --samples_csv (every benchmark has the
// same), opened for appending.
class SampleLog {
 public:
  static SampleLog& get(const std::string& path) {
    static SampleLog log(path);
    return log;
  }
  bool on() const { return out_.is_open(); }
  void write(const std::string& name, const std::vector<double>& seconds, const std::vector<double>& at) {
    const int run = runs_[name]++;
    for (std::size_t i = 0; i < seconds.size(); ++i) {
      out_ << name << ',' << run << ',' << i << ',' << static_cast<long long>(seconds[i] * 1e9 + 0.5) << ','
           << static_cast<long long>(at[i] * 1e9 + 0.5) << '\n';
    }
    out_.flush();
  }

 private:
  explicit SampleLog(const std::string& path) {
    if (path.empty()) return;
    out_.open(path, std::ios::app);
    if (!out_) std::cerr << "reduce_bench: --samples_csv: cannot write " << path << "; no samples recorded\n";
  }
  std::ofstream out_;
  std::map<std::string, int> runs_;
};

}  // namespace

Sampling sampling_for(const Options& options, const Case& c, double tick_seconds) {
  StopRule rule = options.rule;
  rule.tick_seconds = tick_seconds;
  return {rule, options.user_min_time || c.min_time > 0, c.name(), options.samples_csv};
}

Timing measure(benchmark::State& state, const Sampling& how, const std::function<double()>& sample,
               const Agree& agree) {
  Sampler all(how.rule);
  Timing t;
  SampleLog& log = SampleLog::get(how.samples_csv);
  std::vector<double> logged, at;
  const auto t0 = std::chrono::steady_clock::now();
  const auto since = [](std::chrono::steady_clock::time_point from) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count();
  };
  const auto keep = [&](double dt) {
    all.add(dt);
    if (!log.on()) return;
    logged.push_back(dt);
    at.push_back(since(t0));
  };
  for (auto _ : state) {
    if (how.gb_rule) {
      double dt = sample();
      if (agree) {
        double wall = 0;
        agree(dt, wall);
      }
      keep(dt);
      state.SetIterationTime(dt);
      t.seconds += dt;
      continue;
    }
    Sampler run(how.rule);
    const auto start = std::chrono::steady_clock::now();
    double wall = 0;
    do {
      double dt = sample();
      wall = since(start);
      if (agree) agree(dt, wall);
      run.add(dt);
      keep(dt);
    } while (!run.done(wall) && !interrupted());  // a signal ends this benchmark's sampling (interrupt.hpp)
    const double median = std::max(kOneIteration, run.median());
    state.SetIterationTime(median);
    t.seconds += median;
  }
  t.stats = all.stats();
  if (log.on()) log.write(how.name, logged, at);
  return t;
}

std::int64_t warm_up(const std::function<double()>& call, double max_seconds) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto since_start = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::int64_t calls = 0;
  double best = 0;
  std::vector<double> block;
  for (;;) {
    block.clear();
    const double block_start = since_start();
    while (block.size() < 2 || since_start() - block_start < kWarmBlock) {
      block.push_back(call());
      ++calls;
      if (since_start() >= max_seconds) return calls;
    }
    const double median = quantile(block, 0.5);
    if (best > 0 && median >= best * (1 - kWarmTolerance)) return calls;
    best = best > 0 ? std::min(best, median) : median;
  }
}

void report_stats(benchmark::State& state, const SampleStats& s) {
  state.counters["samples"] = static_cast<double>(s.count);
  state.counters["mean_us"] = s.mean * 1e6;
  state.counters["median_us"] = s.median * 1e6;
  state.counters["p10_us"] = s.p10 * 1e6;
  state.counters["p90_us"] = s.p90 * 1e6;
  state.counters["min_us"] = s.min * 1e6;
  // No interval (fewer than 6 effective samples): no precision counter rather than Infinity, a token
  // JSON parsers such as JavaScript's refuse (github-action-benchmark reads this file).
  if (std::isfinite(s.precision)) state.counters["precision"] = s.precision;
  state.counters["target_met"] = s.target_met ? 1.0 : 0.0;
  state.counters["lag1"] = s.lag1;
  state.counters["correlated"] = s.correlated ? 1.0 : 0.0;
  state.counters["drift"] = s.drift ? 1.0 : 0.0;
}

}  // namespace rb::bench
