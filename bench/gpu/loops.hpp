#pragma once
// GPU rows that bring their own measurement loop: the rows over several GPUs (bench/nccl/), whose
// sample spans G devices, G streams and a collective. They register like any backend,
//   RB_REGISTER_BACKEND(std::vector<GpuLoopDef>{...});
// and are bound after the single-GPU backends (bench/gpu/runner.cpp), in the same sweep.
#include <benchmark/benchmark.h>

#include <functional>
#include <string>
#include <vector>

#include "bench/registration.hpp"
#include "bench/session.hpp"

namespace rb::bench::gpu {

struct GpuLoopDef {
  std::string name;
  std::function<void(benchmark::State&, Session&, const Case&)> run;
  std::string unavailable;                 // empty when it can run
  // At bind time: why this machine cannot run it with these options (--gpus), or empty.
  std::function<std::string(const Options&)> probe = {};
  // Frees the loop's device memory; called before a single-GPU row runs and at the end.
  std::function<void()> release = {};
};

bool register_backends(std::function<std::vector<GpuLoopDef>()> make, const char* where);
inline std::vector<GpuLoopDef> backend_list(std::vector<GpuLoopDef> defs) { return defs; }
std::vector<GpuLoopDef> registered_gpu_loops();

}  // namespace rb::bench::gpu
