// cuda/shfl: the textbook baseline (the ParallelReductions article's kernel, made 64-bit).
//   What: a grid-stride loop of scalar loads into one float per thread, a warp-shuffle tree, one
//         float per warp in shared memory, warp 0 sums those; block b writes partials[b]; a
//         second kernel, one block, sums the partials.
//   Why it is the baseline: no shared-memory tree, no bank conflicts, coalesced 4-byte loads.
//   What it costs: one 4-byte load in flight per thread (HBM needs many more bytes in flight),
//         4x the load instructions of float4, a fixed grid cap that ignores the SM count, and two
//         launches. The article indexed with `unsigned`, which wraps past 2^32 elements; here the
//         index is 64-bit.
#include "kernels/cuda/block_sum.cuh"
#include "common/cuda_check.hpp"
#include "kernels/cuda/final_pass.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"

namespace rb::cuda {
namespace {

constexpr int kThreads = kShflThreads;

__global__ __launch_bounds__(kThreads) void shfl_kernel(const float* __restrict__ x, std::int64_t n, float* partials) {
  __shared__ BlockSumStorage<float, kThreads> storage;
  float v = 0.0f;
  const std::int64_t stride = std::int64_t{gridDim.x} * kThreads;
  for (std::int64_t i = std::int64_t{blockIdx.x} * kThreads + threadIdx.x; i < n; i += stride) v += x[i];
  v = block_sum<kThreads>(v, storage);
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

int grid(std::int64_t n) { return work_sized_grid(n, kThreads, kShflMaxBlocks); }

std::size_t scratch_bytes(std::int64_t n) { return static_cast<std::size_t>(grid(n)) * sizeof(float); }

void prepare(void*, std::size_t, cudaStream_t) {}

void sum(const float* in, std::int64_t n, void* scratch, float* out, cudaStream_t stream) {
  if (n < 0) throw std::invalid_argument("negative element count");
  const int blocks = grid(n);
  auto* partials = static_cast<float*>(scratch);
  shfl_kernel<<<blocks, kThreads, 0, stream>>>(in, n, partials);
  RB_CUDA_CHECK_LAUNCH();
  launch_final_pass(partials, blocks, out, stream);
}

Geometry geometry(std::int64_t n) { return {grid(n), kThreads, kThreads, kThreads}; }

}  // namespace

const Variant<float> shfl{&scratch_bytes, &prepare, &sum, &geometry};

}  // namespace rb::cuda
