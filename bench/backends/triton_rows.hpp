#pragma once
// The float Triton rows of one launch shape each (triton.cpp): the shipped rows and the tuning grid
// (triton_tuning.cpp) build theirs through these; every Triton row probes with triton_probe().
#include <string>

#include "bench/api/gpu_backend.hpp"
#include "kernels/triton/tuning.hpp"

namespace rb::bench::gpu {

// Empty when `import triton` works here, else why not (a definition's probe).
std::string triton_probe();

BackendDef<float> triton_two_pass(std::string name, rb::triton::TwoPassShape shape);
BackendDef<float> triton_onepass(std::string name, rb::triton::OnepassShape shape);

}  // namespace rb::bench::gpu
