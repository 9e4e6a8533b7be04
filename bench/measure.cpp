#include "bench/measure.hpp"

#include <algorithm>
#include <chrono>

namespace rb::bench {

Timing measure(benchmark::State& state, const StopRule& rule, bool gb_rule, const std::function<double()>& sample,
               const Agree& agree) {
  Sampler all(rule);
  Timing t;
  for (auto _ : state) {
    if (gb_rule) {
      double dt = sample();
      if (agree) {
        double wall = 0;
        agree(dt, wall);
      }
      all.add(dt);
      state.SetIterationTime(dt);
      t.seconds += dt;
      continue;
    }
    Sampler run(rule);
    const auto t0 = std::chrono::steady_clock::now();
    double wall = 0;
    do {
      double dt = sample();
      wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (agree) agree(dt, wall);
      run.add(dt);
      all.add(dt);
    } while (!run.done(wall));
    const double mean = std::max(kOneIteration, run.sum() / static_cast<double>(run.count()));
    state.SetIterationTime(mean);
    t.seconds += mean;
  }
  t.stats = all.stats();
  return t;
}

void report_stats(benchmark::State& state, const SampleStats& s) {
  state.counters["samples"] = static_cast<double>(s.count);
  state.counters["median_us"] = s.median * 1e6;
  state.counters["p10_us"] = s.p10 * 1e6;
  state.counters["p90_us"] = s.p90 * 1e6;
  state.counters["min_us"] = s.min * 1e6;
  state.counters["precision"] = s.precision;
  state.counters["target_met"] = s.target_met ? 1.0 : 0.0;
}

}  // namespace rb::bench
