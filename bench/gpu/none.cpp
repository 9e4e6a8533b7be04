// Built instead of the GPU layer when nvcc was not found at configure time.
#include <benchmark/benchmark.h>

#include "bench/gpu/context.hpp"

namespace rb::bench {

void add_gpu_context() { benchmark::AddCustomContext("gpu", "none (CPU-only build)"); }

void release_gpu() {}

}  // namespace rb::bench
