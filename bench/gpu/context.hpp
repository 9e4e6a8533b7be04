#pragma once
// The GPU side's process-wide hooks, without CUDA types (a CPU-only build links bench/gpu/none.cpp).
#include <string>
#include <vector>

#include "bench/detail/registry.hpp"

namespace rb::bench {

// The step of cudaEventElapsedTime on the GPUs measured: the GPU rows' timer resolution
// (StopRule::tick_seconds).
inline constexpr double kEventTickSeconds = 32e-9;

// Binds the definitions measured on GPUs (OnGpu: the loop of bench/gpu/runner.cpp; AcrossGpus:
// the definition's own), in their order, probing the device once. Without a usable device, or
// without CUDA in this build, every entry is unavailable and `why_not` says why.
// Instantiated for every element type of bench/element.hpp.
template <class T>
std::vector<BackendEntry> bind_gpu_rows(Session& session, std::vector<BackendDef<T>> defs, std::string& why_not);

// GPU, driver, clocks at start, flush method and library versions into the JSON context.
void add_gpu_context();
// Frees device memory before static destruction (the CUDA runtime may be gone by then).
void release_gpu();

}  // namespace rb::bench
