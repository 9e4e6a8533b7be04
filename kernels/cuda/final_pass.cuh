#pragma once
// The second pass of the two-pass variants (shfl, vec4, vec4_ilp4): one block sums the first
// pass's partials in a fixed order and writes the result. A second launch costs about what
// ref/launch measures (2.7 µs, results/h200/baseline.json.gz) at small n; onepass removes it.
#include <cuda_runtime.h>

#include "kernels/cuda/block_sum.cuh"
#include "common/cuda_check.hpp"
#include "kernels/cuda/tuning.cuh"

namespace rb::cuda {
namespace detail {

template <int Threads>
__global__ __launch_bounds__(Threads) void final_pass_kernel(const float* partials, int count, float* out) {
  __shared__ BlockSumStorage<float, Threads> storage;
  const float s = block_sum_in_order<Threads>(partials, count, storage);
  if (threadIdx.x == 0) *out = s;
}

}  // namespace detail

inline void launch_final_pass(const float* partials, int count, float* out, cudaStream_t stream) {
  detail::final_pass_kernel<kFinalPassThreads><<<1, kFinalPassThreads, 0, stream>>>(partials, count, out);
  RB_CUDA_CHECK_LAUNCH();
}

}  // namespace rb::cuda
