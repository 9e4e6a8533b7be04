// ref/launch: an empty kernel, one block of one thread. The floor under every row: what a launch
// costs between two events when the launch is already queued (its rows in results/h200/summary.md).
// It computes no sum, so the harness times it and does not verify it (its adapter states
// Accumulator::none).
#include "common/cuda_check.hpp"
#include "kernels/cuda/ref.hpp"

namespace rb::cuda::ref {
namespace {

__global__ void empty_kernel() {}

}  // namespace

void launch_empty(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  RB_CUDA_CHECK_LAUNCH();
}

}  // namespace rb::cuda::ref
