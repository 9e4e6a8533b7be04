// The CPU measurement loop. Wall time per call (steady_clock) reported as manual time, so CPU
// and GPU rows share units and columns. CPU backends are registered hot only: flushing a CPU's
// last-level cache (up to hundreds of MiB across chiplets) costs milliseconds per iteration, and
// past the LLC size hot and cold are the same measurement.
#include "bench/cpu/runner.hpp"

#include <chrono>

#include "bench/report.hpp"

namespace rb::bench {
namespace {

void run_cpu_case(benchmark::State& state, Session& session, const CpuBackendDef& def, const Case& c) {
  try {
    const CpuProblem problem{session.host_data(c.n), c.n};  // before the reference: see gpu/runner.cpp
    const Reference& ref = session.reference(c.n);
    auto backend = def.make(problem);
    double result = backend->run();  // warm-up: first touch, thread start-up, page faults
    double seconds = 0;
    for (auto _ : state) {
      const auto t0 = std::chrono::steady_clock::now();
      result = backend->run();
      const auto t1 = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(result);
      const double dt = std::chrono::duration<double>(t1 - t0).count();
      state.SetIterationTime(dt);
      seconds += dt;
    }
    state.counters["threads"] = backend->threads();
    const Structure structure = backend->structure();
    backend.reset();  // the exact check's instance may need the same threads
    finish_case(state, session, c, ref, structure, {result, seconds, 0.0}, [&] {
      return def.make({session.exact_host_data(c.n), c.n})->run();
    });
  } catch (const std::exception& e) {
    fail_case(state, session, c, e);
  }
}

}  // namespace

std::vector<BackendEntry> bind_cpu_backends(Session& session, std::vector<CpuBackendDef> defs) {
  std::vector<BackendEntry> out;
  for (auto& def : defs) {
    BackendEntry e;
    e.name = def.name;
    e.unavailable = def.unavailable;
    e.modes = {Mode::hot};
    e.run = [&session, def](benchmark::State& s, const Case& c) { run_cpu_case(s, session, def, c); };
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace rb::bench
