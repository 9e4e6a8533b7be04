#pragma once
// The GPU side's process-wide hooks, without CUDA types (a CPU-only build links bench/gpu/none.cpp).
namespace rb::bench {

// GPU, driver, clocks at start, flush method and library versions into the JSON context.
void add_gpu_context();
// Frees device memory before static destruction (the CUDA runtime may be gone by then).
void release_gpu();

}  // namespace rb::bench
