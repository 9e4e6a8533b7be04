#pragma once
// The two-pass design, for any number of loads in flight: vec4.cu instantiates it with
// Unroll = 1 and vec4_ilp4.cu with Unroll = 4.
//   pass 1: grid = SMs x resident blocks per SM (occupancy API), fixed for every n; block b sums
//           a contiguous chunk of the float4 body (EvenShare) and writes partials[b];
//   pass 2: one block sums the partials (final_pass.cuh).
// Scratch: one float per block of pass 1.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "kernels/cuda/chunk_sum.cuh"
#include "common/cuda_check.hpp"
#include "kernels/cuda/final_pass.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/residency.cuh"
#include "kernels/cuda/sum.hpp"

namespace rb::cuda {
namespace detail {

template <int Threads, int Unroll>
__global__ __launch_bounds__(Threads) void chunk_partials_kernel(Split x, EvenShare share, float* partials) {
  __shared__ BlockSumStorage<float, Threads> storage;
  const float s = block_chunk_sum<float, LaunchShape<Threads, Unroll, 1>>(x, share, storage);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

}  // namespace detail

template <int Threads, int Unroll>
struct TwoPass {
  static constexpr auto kKernel = &detail::chunk_partials_kernel<Threads, Unroll>;

  static int grid() { return sm_count() * resident_blocks_per_sm<kKernel, Threads>(); }

  static std::size_t scratch_bytes(std::int64_t) { return static_cast<std::size_t>(grid()) * sizeof(float); }

  static void prepare(void*, std::size_t, cudaStream_t) {}

  static void sum(const float* in, std::int64_t n, void* scratch, float* out, cudaStream_t stream) {
    const Split x = split_aligned(in, n);
    const int blocks = grid();
    auto* partials = static_cast<float*>(scratch);
    kKernel<<<blocks, Threads, 0, stream>>>(x, EvenShare::make(x.body_n, Threads, blocks), partials);
    RB_CUDA_CHECK_LAUNCH();
    launch_final_pass(partials, blocks, out, stream);
  }

  static Geometry geometry(std::int64_t) {
    return {grid(), Threads, std::int64_t{Threads} * 4, std::int64_t{Threads} * Unroll * 4};
  }

  static constexpr Variant<float> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }
};

}  // namespace rb::cuda
