// The CPU measurement loop. Wall time per call (steady_clock) reported as manual time, so CPU
// and GPU rows share units and columns. CPU backends are registered hot only: flushing a CPU's
// last-level cache (up to hundreds of MiB across chiplets) costs milliseconds per iteration, and
// past the LLC size hot and cold are the same measurement.
#include "bench/cpu/runner.hpp"

#include <bit>
#include <chrono>
#include <optional>

#include "bench/measure.hpp"
#include "bench/report.hpp"

namespace rb::bench {
namespace {

// An exact check this long stands in for the warm-up call (its data is the same size).
constexpr std::chrono::milliseconds kWarmByExactCheck{20};

void run_cpu_case(benchmark::State& state, Session& session, const CpuBackendDef& def, const Case& c) {
  try {
    const CpuProblem problem{session.host_data(c.n), c.n};  // before the reference: see gpu/runner.cpp
    const Reference& ref = session.reference(c.n);
    std::chrono::steady_clock::duration exact_call{};
    const auto exact_input = [&] {
      auto exact = def.make({session.exact_host_data(c.n), c.n});
      const auto t0 = std::chrono::steady_clock::now();
      const double sum = exact->run();
      exact_call = std::chrono::steady_clock::now() - t0;
      return sum;
    };
    // The exact check first (once per backend and n): it starts the threads and runs the code
    // like a warm-up would. After a call that long, a warm-up on the data would cost as much as a
    // sample, and one cache-cold first sample moves no median.
    session.exact_check(c, exact_input);
    auto backend = def.make(problem);
    // The determinism check compares an earlier call's sum with the last one's: the warm-up's
    // first, or without a warm-up the first sample's.
    std::optional<double> first;
    if (exact_call < kWarmByExactCheck) {
      warm_up([&] {
        const auto t0 = std::chrono::steady_clock::now();
        const double r = backend->run();
        if (!first) first = r;
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      }, session.options().rule.warmup_seconds);
    }
    double result = 0;
    bool sampled = false;
    const Timing timing = measure(state, sampling_for(session.options(), c), [&] {
      const auto t0 = std::chrono::steady_clock::now();
      const double r = backend->run();
      const auto t1 = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(r);
      if (!first && sampled) first = result;
      result = r;
      sampled = true;
      return std::chrono::duration<double>(t1 - t0).count();
    });
    state.counters["threads"] = backend->threads();
    const Structure structure = backend->structure();
    backend.reset();
    finish_case(state, session, c, ref, structure, {result, timing.seconds, 0.0, timing.stats, false, first, def.determinism},
                exact_input);
  } catch (const std::exception& e) {
    fail_case(state, session, c, e);
  }
}

}  // namespace

bool cpu_default_size(std::int64_t n) noexcept {
  if (n <= kCpuDenseMaxN) return true;
  const bool even_power = (n & (n - 1)) == 0 && std::countr_zero(static_cast<std::uint64_t>(n)) % 2 == 0;
  return even_power && n <= kCpuDefaultMaxN;
}

std::vector<BackendEntry> bind_cpu_backends(Session& session, std::vector<CpuBackendDef> defs) {
  std::vector<BackendEntry> out;
  for (auto& def : defs) {
    BackendEntry e;
    e.name = def.name;
    e.unavailable = def.unavailable;
    e.modes = {Mode::hot};
    e.default_size = cpu_default_size;
    e.determinism = def.determinism;
    e.run = [&session, def](benchmark::State& s, const Case& c) { run_cpu_case(s, session, def, c); };
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace rb::bench
