#pragma once
// cuda/onepass at small n: one thread-block cluster (sm_90) instead of a grid of independent
// blocks. Up to kMaxClusterBlocks blocks, scheduled together on one GPC, each sum their chunk;
// thread 0 of each writes its partial straight into block 0's shared memory (distributed shared
// memory), one cluster barrier (release/acquire) makes the writes visible, and block 0 adds them
// in rank order. The completion never leaves the GPC: no L2 round trip, no ticket, no scratch.
//
// Below kMaxClusterBlocks x tile floats that replaces the ticket completion (slots.cuh), which
// costs ~1 µs of L2 round trips however few blocks there are. Above it a single GPC's SMs are
// too few to read at full bandwidth, and the whole-GPU grid wins.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/error.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/residency.cuh"
#include "kernels/cuda/sum.hpp"

namespace rb::cuda {

// The largest cluster every sm_90 device accepts without the non-portable opt-in.
inline constexpr int kMaxClusterBlocks = 8;

namespace detail {

template <class Acc, class Shape>
__global__ __launch_bounds__(Shape::threads) void cluster_sum_kernel(Split x, EvenShare share, Acc* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  __shared__ BlockSumStorage<Acc, Shape::threads> storage;
  __shared__ Acc partials[kMaxClusterBlocks];
  const Acc block_total = block_chunk_sum<Acc, Shape::threads, Shape::unroll, Shape::hint>(x, share, storage);
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  if (threadIdx.x == 0) *cluster.map_shared_rank(&partials[rank], 0) = block_total;
  cluster.sync();  // every block's write to block 0 happens before block 0 reads below
  if (rank == 0 && threadIdx.x < kWarpSize) {
    const Acc v = threadIdx.x < cluster.num_blocks() ? partials[threadIdx.x] : Acc(0);
    const Acc total = warp_sum(v);  // a fixed order: the lane layout alone
    if (threadIdx.x == 0) *out = total;
  }
#else
  __trap();  // launched only where cluster_launch_supported() said yes
#endif
}

}  // namespace detail

// True when the current device launches clusters (compute capability 9.0 and later).
inline bool cluster_launch_supported() {
  static detail::PerDevice cache;
  return cache.get([](int device) {
           int v = 0;
           RB_CUDA_CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, device));
           return v ? 1 : 2;  // PerDevice caches positive values
         }) == 1;
}

template <class Acc, class Shape>
struct ClusterSum {
  static constexpr auto kKernel = &detail::cluster_sum_kernel<Acc, Shape>;
  static constexpr std::int64_t kMaxN = std::int64_t{kMaxClusterBlocks} * Shape::tile_floats;

  static int grid(std::int64_t n) { return work_sized_grid(n, Shape::tile_floats, kMaxClusterBlocks); }

  // One cluster of grid(n) blocks; n <= kMaxN.
  static void sum(const float* in, std::int64_t n, Acc* out, cudaStream_t stream) {
    const Split x = split_aligned(in, n);
    const int blocks = grid(n);
    cudaLaunchAttribute cluster{};
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = static_cast<unsigned>(blocks);
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(static_cast<unsigned>(blocks));
    config.blockDim = dim3(Shape::threads);
    config.stream = stream;
    config.attrs = &cluster;
    config.numAttrs = 1;
    RB_CUDA_CHECK(cudaLaunchKernelEx(&config, kKernel, x, EvenShare::make(x.body_n, Shape::threads, blocks), out));
  }

  static Geometry geometry(std::int64_t n) {
    return {grid(n), Shape::threads, std::int64_t{Shape::threads} * 4, Shape::tile_floats};
  }
};

}  // namespace rb::cuda
