// A user's CUDA kernel: each block's threads add a grid-stride slice of x (one float accumulator
// per thread), a shared-memory tree adds the block's threads, and one block adds the partials.
#include <algorithm>

#include "common/cuda_check.hpp"
#include "gpu_sum.hpp"

namespace my {
namespace {

__device__ float block_sum(float v) {
  __shared__ float s[kThreads];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int w = kThreads / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  return s[0];
}

__global__ void __launch_bounds__(kThreads) partial_sums(const float* x, std::int64_t n, float* partials) {
  float acc = 0;
  const std::int64_t stride = std::int64_t{gridDim.x} * kThreads;
  for (std::int64_t i = std::int64_t{blockIdx.x} * kThreads + threadIdx.x; i < n; i += stride) acc += x[i];
  const float total = block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

__global__ void __launch_bounds__(kThreads) final_sum(const float* partials, int count, float* out) {
  float acc = 0;
  for (int i = threadIdx.x; i < count; i += kThreads) acc += partials[i];
  const float total = block_sum(acc);
  if (threadIdx.x == 0) *out = total;
}

}  // namespace

int gpu_sum_blocks(std::int64_t n) {
  return static_cast<int>(std::clamp<std::int64_t>((n + kThreads - 1) / kThreads, 1, kMaxBlocks));
}

void gpu_sum(const float* x, std::int64_t n, float* partials, float* out, cudaStream_t stream) {
  const int blocks = gpu_sum_blocks(n);
  partial_sums<<<blocks, kThreads, 0, stream>>>(x, n, partials);
  RB_CUDA_CHECK_LAUNCH();
  final_sum<<<1, kThreads, 0, stream>>>(partials, blocks, out);
  RB_CUDA_CHECK_LAUNCH();
}

}  // namespace my
