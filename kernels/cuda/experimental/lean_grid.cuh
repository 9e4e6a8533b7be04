// Experiment, not shipped: onepass's Mid grid with the lean single block's body (tune/lean/*).
#pragma once
// Every block sums exactly one tile (the last one less), as SingleBlock does: 32-bit indices, no
// loop, all of a thread's loads issued at once; then FinishEarly's completion. For n up to
// max_grid tiles only.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "common/cuda_check.hpp"
#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/finish_early.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/residency.cuh"
#include "kernels/cuda/slots.cuh"
#include "kernels/cuda/sum.hpp"

namespace rb::cuda::experimental {
namespace detail {

template <class Acc, class Shape>
__global__ __launch_bounds__(Shape::threads, Shape::blocks_per_sm) void lean_grid_kernel(
    Split x, rb::cuda::detail::Slot<Acc>* slots, Acc* out) {
  __shared__ BlockSumStorage<Acc, Shape::threads> storage;
  constexpr int kThreads = Shape::threads, kLoads = Shape::unroll;
  const int body_n = static_cast<int>(x.body_n);
  const int base = static_cast<int>(blockIdx.x) * kThreads * kLoads + static_cast<int>(threadIdx.x);
  float4 v[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    const int i = base + k * kThreads;
    v[k] = i < body_n ? __ldg(x.body + i) : Element<float>::zero();
  }
  Acc acc[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) acc[k] = Element<float>::template vector_sum<Acc>(v[k]);
  Acc mine = pairwise_sum(acc);
  if (blockIdx.x == 0) mine += static_cast<Acc>(x.edge(static_cast<int>(threadIdx.x)));
  FinishEarly::complete<Shape>(mine, slots, out, storage);
}

}  // namespace detail

template <class Acc, class Shape>
struct LeanGrid {
  static constexpr auto kKernel = &detail::lean_grid_kernel<Acc, Shape>;
  static int max_grid() {
    return sm_count() * std::min(Shape::blocks_per_sm, resident_blocks_per_sm<kKernel, Shape::threads>());
  }
  static int grid(std::int64_t n) { return static_cast<int>(std::max<std::int64_t>(1, ceil_div(n, Shape::tile_floats))); }
  static std::size_t scratch_bytes(std::int64_t n) {
    (void)max_grid();
    return static_cast<std::size_t>(grid(n)) * sizeof(rb::cuda::detail::Slot<Acc>);
  }
  static void prepare(void* scratch, std::size_t bytes, cudaStream_t stream) {
    RB_CUDA_CHECK(cudaMemsetAsync(scratch, 0, bytes, stream));
  }
  static void sum(const float* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream) {
    const Split x = split_aligned(in, n);
    const int blocks = static_cast<int>(std::max<std::int64_t>(1, ceil_div(x.body_n, Shape::threads * Shape::unroll)));
    if (blocks > max_grid()) throw std::invalid_argument("LeanGrid: n beyond one tile per resident block");
    kKernel<<<blocks, Shape::threads, 0, stream>>>(x, static_cast<rb::cuda::detail::Slot<Acc>*>(scratch), out);
    RB_CUDA_CHECK_LAUNCH();
  }
  static Geometry geometry(std::int64_t n) { return {grid(n), Shape::threads, Shape::threads * 4, Shape::tile_floats}; }
  static constexpr Variant<Acc> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }
};

}  // namespace rb::cuda::experimental
