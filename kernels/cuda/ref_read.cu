// ref/read: onepass's read phase alone (tuning.cuh: ReadShape = onepass's large shape, same grid rule):
// every block streams its chunk with the same loads in flight, reduces it, and writes
// partials[block]. No completion, no second kernel: the caller adds the partials after timing.
// So it is the fastest a one-launch sum of this shape can be at each n, and cuda/onepass minus
// ref/read is what onepass's completion costs. It is still checked: the partials must add up to
// the reference, which proves every element was read exactly once.
#include "kernels/cuda/chunk_sum.cuh"
#include "common/cuda_check.hpp"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/ref.hpp"
#include "kernels/cuda/residency.cuh"
#include "kernels/cuda/tuning.cuh"

namespace rb::cuda::ref {
namespace {

using Shape = ReadShape;

__global__ __launch_bounds__(Shape::threads, Shape::blocks_per_sm) void read_kernel(Split x, EvenShare share,
                                                                                    float* partials) {
  __shared__ BlockSumStorage<float, Shape::threads> storage;
  const float s = block_chunk_sum<float, Shape>(x, share, storage);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

}  // namespace

int read_blocks(std::int64_t n) {
  const int fit = resident_blocks_per_sm<&read_kernel, Shape::threads>();
  return work_sized_grid(n, Shape::tile_floats, sm_count() * std::min(Shape::blocks_per_sm, fit));
}

void read(const float* in, std::int64_t n, float* partials, cudaStream_t stream) {
  const Split x = split_aligned(in, n);
  const int blocks = read_blocks(n);
  read_kernel<<<blocks, Shape::threads, 0, stream>>>(x, EvenShare::make(x.body_n, Shape::threads, blocks), partials);
  RB_CUDA_CHECK_LAUNCH();
}

}  // namespace rb::cuda::ref
