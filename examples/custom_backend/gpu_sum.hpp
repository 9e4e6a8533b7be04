#pragma once
// A user's CUDA sum, as plain host functions: gpu_sum.cu has the kernels, gpu_adapter.cpp hands
// them to reduce_bench's harness.
#include <cuda_runtime.h>

#include <cstdint>

namespace my {

inline constexpr int kThreads = 256;     // per block, in both launches
inline constexpr int kMaxBlocks = 1024;  // partials the first launch writes at most

// Blocks of the first launch for n floats: one per kThreads floats, at most kMaxBlocks.
int gpu_sum_blocks(std::int64_t n);

// Enqueues the two launches on `stream`: partial sums of x[0, n) into `partials`
// (gpu_sum_blocks(n) floats), then their sum into *out. Throws on a launch error.
void gpu_sum(const float* x, std::int64_t n, float* partials, float* out, cudaStream_t stream);

}  // namespace my
