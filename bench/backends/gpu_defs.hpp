#pragma once
// One function per GPU adapter file, each returning its backend definition(s).
#include <vector>

#include "bench/gpu/backend.hpp"

namespace rb::bench::gpu {

GpuBackendDef cub_sum();  // backends/cub.cu

}  // namespace rb::bench::gpu
