// The CPU measurement loop. Wall time per call (steady_clock) reported as manual time, so CPU
// and GPU rows share units and columns. CPU backends are registered hot only: flushing a CPU's
// last-level cache (up to hundreds of MiB across chiplets) costs milliseconds per iteration, and
// past the LLC size hot and cold are the same measurement.
#include "bench/cpu/runner.hpp"

#include <bit>
#include <chrono>
#include <cstring>
#include <span>
#include <vector>

#include "bench/detail/contention.hpp"
#include "bench/detail/measure.hpp"
#include "bench/detail/finish.hpp"
#include "bench/detail/shaped_checks.hpp"

namespace rb::bench {
namespace {

// The resolution of the CPU rows' timer.
constexpr double kSteadyTickSeconds =
    static_cast<double>(std::chrono::steady_clock::period::num) / std::chrono::steady_clock::period::den;
// A call this long warms up as well as the warm-up would (its data is the same size).
constexpr double kWarmByCall = 0.02;

template <class T>
void finish_cpu_case(benchmark::State& state, Session& session, const Case& c, const BackendDef<T>& def,
                     const CpuBackend& backend, const Timing& timing, Measurement& m) {
  state.counters["threads"] = backend.threads();
  m.seconds = timing.seconds;
  m.ceiling = cpu_ceiling();
  m.stats = timing.stats;
  m.promised = def.determinism;
  finish_case(state, session, c, m);
}

template <class T>
void run_cpu_case(benchmark::State& state, Session& session, const BackendDef<T>& def, const Case& c) {
  try {
    ExactInPlace in_place(session.input());  // whatever happens below, the next row finds the input
    // The input before the reference: a size that cannot run is never scanned.
    const CpuProblemOf<T> problem{session.input().host_data_as<T>(c.n), c.n};
    Measurement m;
    m.reference = session.references().input(c.n, c.dtype);
    auto backend = def.make(problem);
    const auto timed_call = [&](double& seconds) {
      const auto t0 = std::chrono::steady_clock::now();
      double r = backend->run();
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      benchmark::DoNotOptimize(r);
      return r;
    };
    // Untimed calls on the input (the first starts the threads): accuracy, repeatability.
    double last_call = 0;
    m.on_input(accuracy_calls([&] { return timed_call(last_call); }));
    // The exact check (once per backend and n, bench/detail/verify.hpp) leaves exact data set 0 in place
    // for the timed calls (--time_on=exact), or the input comes back (--time_on=input).
    m.structure = backend->structure();
    const ExactData data = exact_data_for(m.structure);
    m.exact = session.exact().run(c, data, [&](int set) {
      in_place.fill(c.n, set, c.dtype, data);
      return timed_call(last_call);
    });
    m.timed_on = session.options().time_on;
    if (m.timed_on == TimedData::exact) in_place.fill(c.n, 0, c.dtype, data);
    else in_place.restore();
    // Every later call's sum, warm-up and timed, goes to the per-call check.
    const auto checked_call = [&] {
      double seconds = 0;
      m.calls.push_back(timed_call(seconds));
      return seconds;
    };
    if (last_call < kWarmByCall) warm_up(checked_call, session.options().rule.warmup_seconds);
    const LoadWatch load;  // other processes' CPU time over the samples alone
    const Timing timing = measure(state, sampling_for(session.options(), c, kSteadyTickSeconds), checked_call);
    m.contention = load.read();
    finish_cpu_case(state, session, c, def, *backend, timing, m);
    in_place.restore();  // here, where an error fails the row; the guard covers the other paths
  } catch (const std::exception& e) {
    fail_case(state, session, c, e);
  }
}

// A shape's row (Case::shape): the same steps, every check per output (ShapedChecks), each timed
// call's outputs compared with the integer sums after its clock stops.
template <class T>
void run_cpu_shaped_case(benchmark::State& state, Session& session, const BackendDef<T>& def, const Case& c) {
  try {
    ExactInPlace in_place(session.input());
    std::vector<float> out(static_cast<std::size_t>(c.outputs() + kOutputsGuard));
    const std::span<const float> outputs(out.data(), static_cast<std::size_t>(c.outputs()));
    Measurement m;
    auto backend = def.make(CpuProblemOf<T>{session.input().host_data_as<T>(c.n), c.n, *c.shape, out.data()});
    m.structure = backend->structure();
    ShapedChecks checks(session, c, m.structure, def.determinism);
    const auto timed_call = [&](double& seconds) {  // the outputs poisoned first, outside the clock
      std::memset(out.data(), 0xFF, out.size() * sizeof(float));
      const auto t0 = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(backend->run());
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    double last_call = 0;
    const auto untimed_call = [&] {
      timed_call(last_call);
      return std::vector<float>(outputs.begin(), outputs.end());
    };
    accuracy_calls([&] {
      checks.on_input(untimed_call());
      return 0.0;
    });
    m.exact = checks.exact([&](int set) {
      in_place.fill(c.n, set, c.dtype, ExactData::dense);
      return untimed_call();
    });
    m.timed_on = TimedData::exact;
    in_place.fill(c.n, 0, c.dtype, ExactData::dense);  // the exact check ran for an earlier mode, or left it
    const std::vector<float> want = checks.expected();
    std::vector<CallMismatch> calls;
    const auto checked_call = [&] {
      double seconds = 0;
      timed_call(seconds);
      calls.push_back(mismatches(out, want));
      return seconds;
    };
    if (last_call < kWarmByCall) warm_up(checked_call, session.options().rule.warmup_seconds);
    const LoadWatch load;
    const Timing timing = measure(state, sampling_for(session.options(), c, kSteadyTickSeconds), checked_call);
    m.contention = load.read();
    m.outputs = checks.verdicts(calls);
    finish_cpu_case(state, session, c, def, *backend, timing, m);
    in_place.restore();
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

template <class T>
BackendEntry bind_on_cpu(Session& session, BackendDef<T> def) {
  BackendEntry e;
  e.name = def.name + dtype_suffix(dtype_of<T>);
  e.dtype = dtype_of<T>;
  e.unavailable = !def.unavailable.empty() ? def.unavailable : def.probe ? def.probe() : std::string();
  e.modes = {Mode::hot};
  e.default_size = cpu_default_size;
  e.determinism = def.determinism;
  e.shaped = def.shaped;
  e.run = [&session, def = std::move(def)](benchmark::State& s, const Case& c) {
    if (c.shape) run_cpu_shaped_case(s, session, def, c);
    else run_cpu_case(s, session, def, c);
  };
  return e;
}

#define RB_BIND_ON_CPU(T) template BackendEntry bind_on_cpu(Session&, BackendDef<T>);
RB_FOR_EACH_ELEMENT_TYPE(RB_BIND_ON_CPU)

}  // namespace rb::bench
