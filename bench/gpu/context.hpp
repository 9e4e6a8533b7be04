#pragma once
// The GPU side's process-wide hooks, without CUDA types (a CPU-only build links bench/gpu/none.cpp).
#include <string>
#include <vector>

#include "bench/registry.hpp"

namespace rb::bench {

// A GPU benchmark is flagged `throttled` when the lowest SM clock read during its samples is below
// this fraction of the device's maximum (gpu/clock_watch.hpp).
inline constexpr double kThrottleFraction = 0.9;

// The registered GPU backends bound to the session (bench/gpu/runner.hpp), in sweep order. Without
// a usable device they are unavailable, and without CUDA in this build absent; `why_not` says why.
std::vector<BackendEntry> bind_registered_gpu_backends(Session& session, std::string& why_not);

// GPU, driver, clocks at start, flush method and library versions into the JSON context.
void add_gpu_context();
// Frees device memory before static destruction (the CUDA runtime may be gone by then).
void release_gpu();

}  // namespace rb::bench
