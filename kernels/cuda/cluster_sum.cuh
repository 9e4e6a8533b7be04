#pragma once
// ClusterSum: n summed by one thread-block cluster (sm_90 and later). Every block sums its chunk
// (chunk_sum.cuh, as a grid's block does), then block 0 reads the other blocks' partials out of
// their shared memory (distributed shared memory) and writes the sum. No scratch, no slot stored
// to and polled from L2: the completion is two cluster barriers and one DSMEM load per block.
//
// A cluster lives on one GPC, so it suits the sizes where a grid's completion, not bandwidth,
// is the cost (tuning.cuh: OnepassSm90Tuning::cluster_max_n). Deterministic: the cluster's size
// depends only on n and the device, each block's chunk only on the input, n and that size, and
// block 0 adds the partials in a fixed tree (warp_sum over cluster ranks).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "common/cuda_check.hpp"
#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/elements.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/residency.cuh"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"
#include "kernels/cuda/typed.hpp"
#include "kernels/cuda/warp_sum.cuh"

namespace rb::cuda {

// Clusters beyond 8 blocks are "non-portable": sm_90 allows 16 when the kernel opts in.
inline constexpr int kMaxPortableCluster = 8;
inline constexpr int kMaxCluster = 16;

namespace detail {

template <class T, class Acc, class Shape>
__global__ __launch_bounds__(Shape::threads) void cluster_sum_kernel(SplitOf<T> x, EvenShare share, Acc* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  __shared__ BlockSumStorage<Acc, Shape::threads> storage;
  __shared__ Acc partial;
  const Acc total = block_chunk_sum<Acc, Shape, T>(x, share, storage);  // one cluster: rank = blockIdx.x
  if (threadIdx.x == 0) partial = total;
  const cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();  // release every partial to the cluster
  if (blockIdx.x == 0 && threadIdx.x < kWarpSize) {
    const unsigned lane = threadIdx.x;
    const Acc v = lane < gridDim.x ? *cluster.map_shared_rank(&partial, lane) : Acc(0);
    const Acc sum = warp_sum<kMaxCluster>(v);
    if (lane == 0) *out = sum;
  }
  cluster.sync();  // no block leaves (and frees its shared memory) before block 0 has read it
#else
  __trap();  // launched only where compute capability >= 9.0 (ClusterSum::max_cluster)
#endif
}

}  // namespace detail

// One cluster of Shape blocks for any n: blocks = ceil(n / tile) up to the largest cluster this
// device schedules (16 where it can, else 8); beyond that the blocks loop over their chunks.
template <class Acc, class Shape, class T = float>
struct ClusterSum {
  static_assert(kMaxCluster <= kWarpSize, "block 0's warp reads one partial per lane");
  static constexpr auto kKernel = &detail::cluster_sum_kernel<detail::DeviceElementOf<T>, Acc, Shape>;
  static constexpr std::int64_t kTile = kTileOf<Shape, T>;

  // The largest cluster this device runs: 16 where one fits (opting in once), else 8; 0 below
  // sm_90. Queried once per device, outside any timed region (scratch_bytes calls it).
  static int max_cluster() {
    static detail::PerDevice cache;
    return cache.get([](int device) {
      if (compute_capability(device) < 900) return -1;  // PerDevice caches positive values: -1 = none
      RB_CUDA_CHECK(cudaFuncSetAttribute(kKernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
      int clusters = 0;
      cudaLaunchAttribute attr{};
      attr.id = cudaLaunchAttributeClusterDimension;
      attr.val.clusterDim.x = kMaxCluster;
      attr.val.clusterDim.y = 1;
      attr.val.clusterDim.z = 1;
      cudaLaunchConfig_t config{};
      config.gridDim = dim3(kMaxCluster);
      config.blockDim = dim3(Shape::threads);
      config.attrs = &attr;
      config.numAttrs = 1;
      RB_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kKernel, &config));
      return clusters >= 1 ? kMaxCluster : kMaxPortableCluster;
    });
  }

  static int blocks(std::int64_t n) {
    const int most = max_cluster();
    if (most < 1) throw std::runtime_error("ClusterSum: thread-block clusters need compute capability 9.0");
    return static_cast<int>(std::clamp<std::int64_t>(ceil_div(n, kTile), 1, most));
  }

  static std::size_t scratch_bytes(std::int64_t n) {
    (void)blocks(n);  // the device queries, before any timing
    return 0;
  }
  static void prepare(void*, std::size_t, cudaStream_t) {}

  static void sum(const T* in, std::int64_t n, void*, Acc* out, cudaStream_t stream) {
    const auto x = split_aligned(detail::device_elements(in), n);
    const int c = blocks(n);
    if constexpr (std::is_integral_v<Acc>) {
      if (n / c >= (std::int64_t{1} << 31)) throw std::invalid_argument("ClusterSum: too many elements per block");
    }
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = static_cast<unsigned>(c);
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(static_cast<unsigned>(c));
    config.blockDim = dim3(Shape::threads);
    config.stream = stream;
    config.attrs = &attr;
    config.numAttrs = 1;
    const auto share = EvenShare::make(x.body_n, Shape::threads, c);
    RB_CUDA_CHECK(cudaLaunchKernelEx(&config, kKernel, x, share, out));
    RB_CUDA_CHECK_LAUNCH();
  }

  static Geometry geometry(std::int64_t n) {
    return {blocks(n), Shape::threads, kRowOf<Shape, T>, kTile};
  }

  static constexpr auto variant() {
    if constexpr (std::is_same_v<T, float>) {
      return Variant<Acc>{&scratch_bytes, &prepare, &sum, &geometry};
    } else {
      return TypedVariant<T, Acc>{&scratch_bytes, &prepare, &sum, &geometry};
    }
  }
};

}  // namespace rb::cuda
