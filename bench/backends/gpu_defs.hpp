#pragma once
// One function per GPU adapter file, each returning its backend definition(s).
#include <vector>

#include "bench/gpu/backend.hpp"

namespace rb::bench::gpu {

GpuBackendDef cub_sum();                  // backends/cub.cu
GpuBackendDef thrust_reduce();            // backends/thrust.cu
GpuBackendDef thrust_reduce_cached();     // backends/thrust.cu
GpuBackendDef thrust_transform_reduce();  // backends/thrust.cu

}  // namespace rb::bench::gpu
