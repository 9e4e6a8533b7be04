// The CPU measurement loop. Wall time per call (steady_clock) reported as manual time, so CPU
// and GPU rows share units and columns. CPU backends are registered hot only: flushing a CPU's
// last-level cache (up to hundreds of MiB across chiplets) costs milliseconds per iteration, and
// past the LLC size hot and cold are the same measurement.
#include "bench/cpu/runner.hpp"

#include <bit>
#include <chrono>
#include <vector>

#include "bench/measure.hpp"
#include "bench/finish.hpp"

namespace rb::bench {
namespace {

// An exact check this long stands in for the warm-up call (its data is the same size).
constexpr std::chrono::milliseconds kWarmByExactCheck{20};

template <class T>
void run_cpu_case(benchmark::State& state, Session& session, const BackendDef<T>& def, const Case& c) {
  try {
    const CpuProblemOf<T> problem{session.host_data_as<T>(c.n), c.n};  // before the reference: see gpu/runner.cpp
    const Reference& ref = session.reference(c.n, c.dtype);
    auto backend = def.make(problem);
    // The exact check first (once per backend and n), on this backend over this buffer
    // (bench/verify.hpp): it starts the threads and runs the code like a warm-up would. After a
    // call that long, a warm-up on the data would cost as much as a sample, and one cache-cold
    // first sample moves no median.
    std::chrono::steady_clock::duration exact_call{};
    const ExactData data = exact_data_for(backend->structure());
    const auto sum_exact = [&](int set) {
      session.fill_exact_host(c.n, set, c.dtype, data);
      const auto t0 = std::chrono::steady_clock::now();
      const double sum = backend->run();
      exact_call = std::chrono::steady_clock::now() - t0;
      return sum;
    };
    session.exact_check(c, data, sum_exact);
    session.restore_host();
    // The per-call check compares every later call's sum (the warm-up's and the timed ones) with
    // the warm-up's first, or without a warm-up the first sample's.
    std::vector<double> calls;
    if (exact_call < kWarmByExactCheck) {
      warm_up([&] {
        const auto t0 = std::chrono::steady_clock::now();
        const double r = backend->run();
        const auto t1 = std::chrono::steady_clock::now();
        calls.push_back(r);
        return std::chrono::duration<double>(t1 - t0).count();
      }, session.options().rule.warmup_seconds);
    }
    const Timing timing = measure(state, sampling_for(session.options(), c), [&] {
      const auto t0 = std::chrono::steady_clock::now();
      double r = backend->run();
      const auto t1 = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(r);
      calls.push_back(r);
      return std::chrono::duration<double>(t1 - t0).count();
    });
    state.counters["threads"] = backend->threads();
    Measurement m;
    m.seconds = timing.seconds;
    m.ceiling = cpu_ceiling();
    m.stats = timing.stats;
    m.first_result = calls.front();  // measure() takes one sample at least
    m.calls.assign(calls.begin() + 1, calls.end());
    m.promised = def.determinism;
    // The exact check ran above: finish_case finds its verdict.
    finish_case(state, session, c, ref, backend->structure(), m, sum_exact);
    session.restore_host();
  } catch (const std::exception& e) {
    session.restore_host();
    fail_case(state, session, c, e);
  }
}

}  // namespace

bool cpu_default_size(std::int64_t n) noexcept {
  if (n <= kCpuDenseMaxN) return true;
  const bool even_power = (n & (n - 1)) == 0 && std::countr_zero(static_cast<std::uint64_t>(n)) % 2 == 0;
  return even_power && n <= kCpuDefaultMaxN;
}

template <class T>
BackendEntry bind_on_cpu(Session& session, BackendDef<T> def) {
  BackendEntry e;
  e.name = def.name + dtype_suffix(dtype_of<T>);
  e.dtype = dtype_of<T>;
  e.unavailable = !def.unavailable.empty() ? def.unavailable : def.probe ? def.probe() : std::string();
  e.modes = {Mode::hot};
  e.default_size = cpu_default_size;
  e.determinism = def.determinism;
  e.run = [&session, def = std::move(def)](benchmark::State& s, const Case& c) { run_cpu_case(s, session, def, c); };
  return e;
}

template BackendEntry bind_on_cpu(Session&, BackendDef<float>);
template BackendEntry bind_on_cpu(Session&, BackendDef<double>);
template BackendEntry bind_on_cpu(Session&, BackendDef<f16>);
template BackendEntry bind_on_cpu(Session&, BackendDef<bf16>);
template BackendEntry bind_on_cpu(Session&, BackendDef<std::int32_t>);

}  // namespace rb::bench
