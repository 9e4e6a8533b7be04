#pragma once
// One function per GPU backend definition, grouped by adapter file.
#include <vector>

#include "bench/gpu/backend.hpp"

namespace rb::bench::gpu {

GpuBackendDef cub_sum();                  // backends/cub.cu
GpuBackendDef thrust_reduce();            // backends/thrust.cu
GpuBackendDef thrust_reduce_cached();     // backends/thrust.cu
GpuBackendDef thrust_transform_reduce();  // backends/thrust.cu

GpuBackendDef cuda_shfl();         // backends/cuda_kernels.cpp
GpuBackendDef cuda_vec4();         //
GpuBackendDef cuda_vec4_ilp4();    //
GpuBackendDef cuda_auto();         //
GpuBackendDef cuda_onepass();      //
GpuBackendDef cuda_onepass_f64();  //

GpuBackendDef torch_sum();  // backends/torch_sum.cpp, or torch_unavailable.cpp without libtorch

// triton/two_pass, triton/onepass: backends/triton.cpp, or triton_unavailable.cpp without
// pybind11/Python; triton_backends() lists the defaults.
std::vector<GpuBackendDef> triton_backends();

GpuBackendDef ref_launch();  // backends/cuda_ref.cpp
GpuBackendDef ref_read();    //

// tune/onepass/*: backends/cuda_tuning.cu with -DRB_TUNING_BACKENDS=ON, else empty
// (backends/cuda_tuning_none.cpp).
std::vector<GpuBackendDef> tuning_backends();

}  // namespace rb::bench::gpu
