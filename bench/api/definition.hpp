#pragma once
// One backend definition, whatever measures it: a name, what it promises, why it cannot run here,
// and how it is measured, the way nvbench's exec tags pick a measurement. The alternative held in
// `measure` is the strategy, and the harness runs the loop written for it:
//   OnCpu<T>     the CPU loop (bench/cpu/runner.cpp): wall time per call, hot only
//   OnGpu<T>     the GPU loop (bench/gpu/runner.cpp): CUDA events around one launch, cold and hot
//   AcrossGpus   a collective row's own loop over several GPUs (bench/nccl/ registers these):
//                its sample spans every rank, so under a launcher only these rows run
// T is the element type summed. Adapters build definitions with cpu_backend / cpu_function
// (bench/api/cpu_backend.hpp) or gpu_backend (bench/api/gpu_backend.hpp) and register them with
// RB_REGISTER_BACKEND (bench/api/registration.hpp). No CUDA type is needed here: the GPU problem
// and adapter are declared only.
#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "bench/api/determinism.hpp"

namespace rb::bench {

class CpuBackend;
template <class T>
struct CpuProblemOf;
struct Case;
struct Options;
class Session;

namespace gpu {
class GpuBackend;
template <class T>
struct GpuProblemOf;
}  // namespace gpu

template <class T>
struct OnCpu {
  std::function<std::unique_ptr<CpuBackend>(const CpuProblemOf<T>&)> make;
};

template <class T>
struct OnGpu {
  std::function<std::unique_ptr<gpu::GpuBackend>(const gpu::GpuProblemOf<T>&)> make;
};

struct AcrossGpus {
  std::function<void(benchmark::State&, Session&, const Case&)> run;
  // At bind time: why this machine cannot run it with these options (--gpus), or empty.
  std::function<std::string(const Options&)> probe = {};
  // Frees its device memory; called before a single-GPU row runs and at the end.
  std::function<void()> release = {};
};

template <class T>
struct BackendDef {
  using Element = T;
  std::string name;
  std::variant<OnCpu<T>, OnGpu<T>, AcrossGpus> measure;
  std::string unavailable = {};  // why this build or machine cannot run it; empty when it can
  // A run-time check for what only the running machine can tell (is `triton` importable?): empty
  // when fine, else why not. Called once when the backends are bound.
  std::function<std::string()> probe = {};
  Determinism determinism = Determinism::run_to_run;  // what its sums promise (bench/api/determinism.hpp)
  // Sums along a dimension: runs the --shapes cases (B x N, common/shape.hpp), writing every
  // output, and never the one-dimensional sizes.
  bool shaped = false;

  bool on_cpu() const noexcept { return std::holds_alternative<OnCpu<T>>(measure); }
  bool on_gpu() const noexcept { return std::holds_alternative<OnGpu<T>>(measure); }
  // Its sample spans the GPUs of every rank (BackendEntry::collective).
  bool collective() const noexcept { return std::holds_alternative<AcrossGpus>(measure); }
  // The adapter for one problem; throws std::bad_variant_access for a definition of another strategy.
  std::unique_ptr<CpuBackend> make(const CpuProblemOf<T>& p) const { return std::get<OnCpu<T>>(measure).make(p); }
  std::unique_ptr<gpu::GpuBackend> make(const gpu::GpuProblemOf<T>& p) const {
    return std::get<OnGpu<T>>(measure).make(p);
  }
};

// RB_REGISTER_BACKEND's argument: one definition or several of one file, in their order.
template <class T>
std::vector<BackendDef<T>> backend_list(BackendDef<T> def) {
  std::vector<BackendDef<T>> out;
  out.push_back(std::move(def));
  return out;
}
template <class T>
std::vector<BackendDef<T>> backend_list(std::vector<BackendDef<T>> defs) {
  return defs;
}

}  // namespace rb::bench
