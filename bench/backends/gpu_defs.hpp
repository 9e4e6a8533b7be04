#pragma once
// One function per GPU backend definition, grouped by adapter file.
#include <vector>

#include "bench/gpu/backend.hpp"

namespace rb::bench::gpu {

// CUB's DeviceReduce (and Thrust's reduce, which runs it), as stated for its bound: blocks of 256
// threads, each thread adding its items in sequence, at least one block per SM (its even-share
// grid is SMs x occupancy x 5 at large n: the chain stated here is an upper bound, not its
// length), then the block tree (8 levels) and a second pass over at most SMs x 40 partials by
// one block of 256 (a chain of <= 21 on an H200, plus 8 levels). 64 covers both with room.
inline Structure cub_reduce_structure(std::int64_t n, int sm_count) {
  return blocked(Accumulator::f32, n, std::int64_t{sm_count} * 256, 1, 64);
}

GpuBackendDef cub_sum();                  // backends/cub.cu
GpuBackendDef thrust_reduce();            // backends/thrust.cu
GpuBackendDef thrust_reduce_cached();     // backends/thrust.cu

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

// tune/*: with -DRB_TUNING_BACKENDS=ON, backends/tuning_list.cpp joins the CUDA grid
// (cuda_tuning.cu) and the Triton grid (triton.cpp); otherwise cuda_tuning_none.cpp: empty.
std::vector<GpuBackendDef> tuning_backends();
std::vector<GpuBackendDef> cuda_tuning_backends();
std::vector<GpuBackendDef> triton_tuning_backends();

}  // namespace rb::bench::gpu
