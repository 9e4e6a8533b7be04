// The GPU measurement loop: the only code that knows the order of operations around the timer.
//
//   per benchmark run (untimed):  input prefix, backend constructor (scratch), 2-8 calls on the
//                                 input (accuracy; the first loads modules); the exact check in
//                                 place (the same backend over integer data written into the same
//                                 buffer, once per backend and n; one call through a captured
//                                 graph: stream_check.hpp); the timed data in place (exact data
//                                 set 0, or the input: --time_on) and one call on it
//   per sample (bench/detail/measure.hpp decides how many):  [cold: the cold flush, cold_flush.hpp] -> poison result
//                    slot (keeping the previous call's sum, call_log.hpp) -> spin kernel -> start
//                    event -> backend.enqueue() -> stop event -> wait for stop [-> result(), for
//                    a backend whose sum is not in the slot]
//   after the loop (untimed):     every call's sum checked (bench/detail/finish.hpp), the input restored
//
// Everything before the start event is queued behind the spin kernel, so the flush and the
// host's launch latency never reach the events. A blocking backend (Thrust) instead waits for
// the GPU to go idle before its start event: queued work would let its host-side work (allocation,
// launch, part of its sync) run early and escape the events, and cold would then come out
// faster than hot. Its host wall time per call is reported beside (host_us).
#include <cuda/version>  // CCCL_VERSION: the CCCL cmake/Cccl.cmake chose
#ifndef RB_CCCL_SOURCE
#define RB_CCCL_SOURCE "unknown"
#endif
#ifdef RB_CCCL_VERSION_CODE
static_assert(CCCL_VERSION == RB_CCCL_VERSION_CODE,
              "the CCCL on the include path is not the one cmake/Cccl.cmake chose");
#endif

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "bench/detail/ceiling.hpp"
#include "bench/detail/contention.hpp"
#include "bench/gpu/call_log.hpp"
#include "bench/gpu/clock_watch.hpp"
#include "bench/gpu/cold_flush.hpp"
#include "bench/gpu/others_watch.hpp"
#include "bench/gpu/outputs_log.hpp"
#include "bench/gpu/context.hpp"
#include "bench/gpu/session.hpp"
#include "bench/gpu/stream_check.hpp"
#include "bench/detail/measure.hpp"
#include "bench/detail/finish.hpp"
#include "bench/detail/run_context.hpp"
#include "bench/detail/shaped_checks.hpp"

namespace rb::bench {
namespace {

using gpu::GpuSession;

// One device and one GpuSession per process, created on the first GPU benchmark.
struct GpuRuntime {
  Session* session = nullptr;
  gpu::DeviceInfo info;
  std::unique_ptr<GpuSession> gpu;

  GpuSession& get() {
    if (!gpu) gpu = std::make_unique<GpuSession>(*session, info);
    return *gpu;
  }
};

GpuRuntime& runtime() {
  static GpuRuntime r;
  return r;
}

// The bound rows across GPUs (AcrossGpus, bench/api/definition.hpp): a single-GPU row frees their device
// memory before it runs, and they free the single-GPU session's (an input buffer per device can
// fill the card: 2^35 floats over two GPUs need 64 GiB on each).
// By row name: binding again (tests bind many times) replaces a row's, never adds a second.
std::map<std::string, std::function<void()>>& loop_releases() {
  static std::map<std::string, std::function<void()>> r;
  return r;
}

void release_loops() {
  for (const auto& [name, release] : loop_releases()) release();
}

Ceiling ceiling_of(const gpu::DeviceInfo& d, const Case& c) {
  const double sm_load = d.sm_count * kSmLoadBytesPerClock * d.sm_clock_khz * 1e3;
  return gpu_ceiling(d.peak_bytes_per_s, static_cast<double>(d.l2_bytes), sm_load, static_cast<double>(c.bytes()),
                     c.mode == Mode::cold);
}

// The sum of one untimed call, its result slot poisoned first.
template <class Backend>
double one_call(GpuSession& g, Backend& backend) {
  g.slot().poison();
  backend.enqueue(g.stream());
  RB_CUDA_CHECK(cudaStreamSynchronize(g.stream()));
  RB_CUDA_CHECK(cudaGetLastError());
  return backend.result();
}

// The samples, each behind the spin kernel (and the flush, cold), with every call's result logged
// (`log`: a CallLog, or a shape's OutputsLog) and the clocks, other processes and host time
// watched over them alone.
template <class Backend, class Log>
Timing timed_loop(benchmark::State& state, Session& session, const Case& c, Backend& backend, Measurement& m,
                  Log& log) {
  GpuSession& g = runtime().get();
  const bool blocking = backend.blocking();
  double host_seconds = 0;
  std::int64_t calls = 0;
  gpu::ClockWatch clock(g.info().pci_bus_id, g.info().sm_clock_khz);
  gpu::OthersWatch others(g.info().pci_bus_id);
  const LoadWatch load;  // other processes' CPU time over the samples alone
  const Timing timing = measure(state, sampling_for(session.options(), c, kEventTickSeconds), [&] {
    log.before_call();  // poisons the result (keeping the previous call's sum), before the flush
    if (c.mode == Mode::cold) g.enqueue_flush();
    if (blocking) RB_CUDA_CHECK(cudaStreamSynchronize(g.stream()));
    else g.enqueue_spin(c.mode == Mode::cold);
    g.record_start();
    const auto t0 = std::chrono::steady_clock::now();
    backend.enqueue(g.stream());
    host_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++calls;
    g.record_stop();
    const double dt = g.elapsed_seconds();
    log.after_call();
    clock.poll();
    others.poll();
    return dt;
  });
  m.contention = load.read();
  m.gpu_others = others.most();
  m.throttled = clock.throttled();
  if (clock.lowest_mhz() > 0) state.counters["sm_mhz"] = clock.lowest_mhz();
  state.counters["throttled"] = clock.throttled() ? 1.0 : 0.0;
  state.counters["stream_check"] = blocking ? 0.0 : 1.0;
  if (blocking && calls > 0) state.counters["host_us"] = 1e6 * host_seconds / static_cast<double>(calls);
  RB_CUDA_CHECK(cudaStreamSynchronize(g.stream()));
  RB_CUDA_CHECK(cudaGetLastError());
  return timing;
}

template <class T>
void finish_gpu_case(benchmark::State& state, Session& session, const Case& c, const BackendDef<T>& def,
                     const Timing& timing, Measurement& m) {
  const GpuSession& g = runtime().get();
  m.seconds = timing.seconds;
  m.peak_bytes_per_s = g.info().peak_bytes_per_s;
  m.ceiling = ceiling_of(g.info(), c);
  m.stats = timing.stats;
  m.promised = def.determinism;
  finish_case(state, session, c, m);
}

template <class T>
void run_gpu_case(benchmark::State& state, Session& session, const BackendDef<T>& def, const Case& c) {
  try {
    GpuSession& g = runtime().get();
    ExactInPlace in_place(g);  // whatever happens below, the next row finds the input
    const T* input = g.input_as<T>(c.n);  // before the reference: a size that cannot run is never scanned
    Measurement m;
    m.reference = session.references().input(c.n, c.dtype);
    auto backend = def.make(gpu::GpuProblemOf<T>{input, c.n, g.stream(), g.scratch(), g.slot(), g.info().sm_count});
    // Untimed calls on the input (the first loads each kernel's module: lazy loading is the default
    // since CUDA 12, and libraries query the device on their first call): accuracy, repeatability.
    m.on_input(accuracy_calls([&] { return one_call(g, *backend); }));
    m.structure = backend->structure();
    const ExactData data = exact_data_for(m.structure);
    // The exact check (once per backend and n): set 1 through a captured graph, the stream rule
    // (bench/gpu/stream_check.hpp), then set 0, left in place for the timed calls.
    m.exact = session.exact().run(c, data, [&](int set) {
      in_place.fill(c.n, set, c.dtype, data);
      return set == 1 && !backend->blocking() ? gpu::call_through_graph(g, *backend) : one_call(g, *backend);
    });
    m.timed_on = session.options().time_on;
    if (m.timed_on == TimedData::exact) {
      in_place.fill(c.n, 0, c.dtype, data);
      m.calls.push_back(one_call(g, *backend));  // a hot row's data in L2, as its timed calls find it
    } else {
      in_place.restore();
    }
    gpu::CallLog sums(g, *backend);
    const Timing timing = timed_loop(state, session, c, *backend, m, sums);
    for (const double sum : sums.take()) m.calls.push_back(sum);
    finish_gpu_case(state, session, c, def, timing, m);
    backend.reset();
    in_place.restore();  // here, where an error fails the row; the guard covers the other paths
  } catch (const std::exception& e) {
    fail_case(state, session, c, e);
  }
}

// A shape's row (Case::shape): the same order of operations, every check per output
// (ShapedChecks), each timed call compared with the integer sums on the device (OutputsLog).
template <class T>
void run_gpu_shaped_case(benchmark::State& state, Session& session, const BackendDef<T>& def, const Case& c) {
  try {
    GpuSession& g = runtime().get();
    ExactInPlace in_place(g);
    const T* input = g.input_as<T>(c.n);
    gpu::OutputsLog outputs(g, c.outputs());
    Measurement m;
    auto backend = def.make(gpu::GpuProblemOf<T>{input, c.n, g.stream(), g.scratch(), g.slot(), g.info().sm_count,
                                                 *c.shape, outputs.data()});
    m.structure = backend->structure();
    const auto call = [&] {
      outputs.poison();
      backend->enqueue(g.stream());
      RB_CUDA_CHECK(cudaStreamSynchronize(g.stream()));
      RB_CUDA_CHECK(cudaGetLastError());
      return outputs.read();
    };
    // A floor that sums nothing (ref/segmented) is timed on the input, unchecked.
    std::optional<ShapedChecks> checks;
    if (m.structure.acc != Accumulator::none) checks.emplace(session, c, m.structure, def.determinism);
    accuracy_calls([&] {
      if (checks) checks->on_input(call());
      else call();
      return 0.0;
    });
    if (checks) {
      m.exact = checks->exact([&](int set) {
        in_place.fill(c.n, set, c.dtype, ExactData::dense);
        if (set != 1) return call();
        outputs.poison();  // set 1 through a captured graph: the stream rule
        gpu::call_through_graph(g, *backend, [&] { return outputs.poisoned(); });
        return outputs.read();
      });
      in_place.fill(c.n, 0, c.dtype, ExactData::dense);  // the exact check ran for an earlier mode, or left it
      outputs.expect(checks->expected());
    }
    m.timed_on = TimedData::exact;
    outputs.before_call();  // one call on it: a hot row's data in L2, as its timed calls find it
    backend->enqueue(g.stream());
    outputs.after_call();
    const Timing timing = timed_loop(state, session, c, *backend, m, outputs);
    if (checks) m.outputs = checks->verdicts(outputs.take());
    finish_gpu_case(state, session, c, def, timing, m);
    backend.reset();
    in_place.restore();
  } catch (const std::exception& e) {
    fail_case(state, session, c, e);
  }
}

// The unavailable reason of a one-GPU row: its own (or its probe's), after the device's when the
// machine has no usable GPU.
template <class T>
std::string unavailable_on_gpu(const BackendDef<T>& def, bool have_device, const std::string& why_not) {
  const std::string own = !def.unavailable.empty() ? def.unavailable : def.probe ? def.probe() : std::string();
  return have_device ? own : why_not + (own.empty() ? "" : "; also " + own);
}

}  // namespace

template <class T>
std::vector<BackendEntry> bind_gpu_rows(Session& session, std::vector<BackendDef<T>> defs, std::string& why_not) {
  auto& rt = runtime();
  rt.gpu.reset();  // a GpuSession serves the session it was made for (its input, its offset)
  rt.session = &session;
  const auto info = gpu::probe_device(why_not);
  if (info) rt.info = *info;
  std::vector<BackendEntry> out;
  for (auto& def : defs) {
    BackendEntry e;
    e.name = def.name + dtype_suffix(dtype_of<T>);
    e.dtype = dtype_of<T>;
    e.modes = {Mode::cold, Mode::hot};
    e.determinism = def.determinism;
    e.shaped = def.shaped;
    if (const auto* across = std::get_if<AcrossGpus>(&def.measure)) {
      const std::string own = !def.unavailable.empty() ? def.unavailable
                              : info && across->probe  ? across->probe(session.options())
                                                       : std::string();
      e.unavailable = info ? own : why_not;
      e.collective = true;
      e.run = [&session, run = across->run](benchmark::State& s, const Case& c) {
        runtime().gpu.reset();
        run(s, session, c);
      };
      if (across->release) loop_releases()[e.name] = across->release;
    } else {
      e.unavailable = unavailable_on_gpu(def, info.has_value(), why_not);
      e.run = [&session, def](benchmark::State& s, const Case& c) {
        release_loops();
        if (c.shape) run_gpu_shaped_case(s, session, def, c);
        else run_gpu_case(s, session, def, c);
      };
    }
    out.push_back(std::move(e));
  }
  return out;
}

#define RB_BIND_GPU_ROWS(T) \
  template std::vector<BackendEntry> bind_gpu_rows(Session&, std::vector<BackendDef<T>>, std::string&);
RB_FOR_EACH_ELEMENT_TYPE(RB_BIND_GPU_ROWS)

void add_gpu_context() {
  const auto& rt = runtime();
  const auto& d = rt.info;
  auto add = [](const char* k, const std::string& v) { set_context(k, v); };
  auto version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
  add("cccl_version", std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
                          std::to_string(CCCL_PATCH_VERSION));
  add("cccl", std::string("CCCL ") + std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) +
                  "." + std::to_string(CCCL_PATCH_VERSION) + " from " + RB_CCCL_SOURCE +
                  ": what every CUDA C++ row of this build compiled with");
  add("cuda_toolkit", version(CUDART_VERSION));
  if (d.name.empty()) {
    add("gpu", "none");
    return;
  }
  const auto clocks = gpu::current_clocks(d.pci_bus_id);
  add("gpu", d.name);
  add("gpu_compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor));
  add("gpu_sm_count", std::to_string(d.sm_count));
  add("gpu_l2_bytes", std::to_string(d.l2_bytes));
  add("gpu_memory_bytes", std::to_string(d.total_bytes));
  add("gpu_peak_bandwidth_GBps", std::to_string(d.peak_bytes_per_s / 1e9));
  add("gpu_sm_clock_mhz_max", std::to_string(d.sm_clock_khz / 1000));
  add("gpu_mem_clock_mhz_max", std::to_string(d.mem_clock_khz / 1000));
  add("gpu_sm_clock_mhz_start", std::to_string(clocks.sm_mhz));
  add("gpu_mem_clock_mhz_start", std::to_string(clocks.mem_mhz));
  add("cuda_driver", version(d.driver_version));
  add("cuda_runtime", version(d.runtime_version));
  const Options& options = rt.session->options();
  add("l2_flush", gpu::describe_cold_flush(d.l2_bytes, gpu::cold_flush_plan(options)));
  add("gpu_ceilings", describe_gpu_ceilings(d.peak_bytes_per_s, static_cast<double>(d.l2_bytes),
                                            d.sm_count * kSmLoadBytesPerClock * d.sm_clock_khz * 1e3));
  const auto us = [](std::uint64_t ns) {
    return std::to_string(ns / 1000) + "-" + std::to_string((ns + gpu::kSpinDitherNs) / 1000);
  };
  add("launch_latency_hiding", "a clock64 spin kernel queued before the start event: " + us(gpu::spin_ns(options)) +
                                   " us hot, " + us(gpu::spin_ns(options, true)) + " us cold (behind the flush)");
}

void release_gpu() {
  runtime().gpu.reset();
  release_loops();
}

}  // namespace rb::bench
