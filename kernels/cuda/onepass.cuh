#pragma once
// The one-launch reduction, templated on the accumulator (float: onepass.cu, double:
// onepass_f64.cu) and on the launch shape (tuning.cuh; the tune/onepass/* grid instantiates more).
//
// Every block sums a contiguous chunk (chunk_sum.cuh). A grid of one block writes its sum and is
// done. Otherwise every block but the last stores its partial into a slot word and exits, and
// the last block's warp 0 waits for the slots and adds them in index order (slots.cuh: no fence,
// no atomic read-modify-write, no memset launch, no floating-point atomics).
//
// Determinism: the grid depends only on n (and the device), each block's chunk only on the input
// pointer, n and the grid, and the partials are added in index order whichever block finished
// last, so the same call gives the same bits every time.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/cluster.cuh"
#include "kernels/cuda/error.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/residency.cuh"
#include "kernels/cuda/slots.cuh"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"

namespace rb::cuda {
namespace detail {

// Scratch: slots[grid], all zero between launches (prepare, then every launch puts back what it
// used).

template <class Acc, class Shape>
__global__ __launch_bounds__(Shape::threads, Shape::blocks_per_sm) void onepass_kernel(
    Split x, EvenShare share, typename SlotWord<Acc>::type* slots, Acc* out) {
  __shared__ BlockSumStorage<Acc, Shape::threads> storage;
  const Acc block_total = block_chunk_sum<Acc, Shape::threads, Shape::unroll, Shape::hint>(x, share, storage);
  if (threadIdx.x >= kWarpSize) return;  // the block's sum is in thread 0: warp 0 does the rest
  if (blockIdx.x + 1 < gridDim.x) {       // not the finisher: hand the partial over and go
    if (threadIdx.x == 0) publish_partial(block_total, slots);
    return;
  }
  const Acc total = gridDim.x == 1 ? block_total : collect_partials(slots, static_cast<int>(gridDim.x), block_total);
  if (threadIdx.x == 0) *out = total;
}

}  // namespace detail

template <class Acc, class Shape>
struct Onepass {
  static constexpr auto kKernel = &detail::onepass_kernel<Acc, Shape>;
  using Word = typename detail::SlotWord<Acc>::type;

  // SMs x blocks per SM at large n; at most what the occupancy API says fits.
  static int max_grid() {
    return sm_count() * std::min(Shape::blocks_per_sm, resident_blocks_per_sm<kKernel, Shape::threads>());
  }

  static int grid(std::int64_t n) { return work_sized_grid(n, Shape::tile_floats, max_grid()); }

  static std::size_t scratch_bytes(std::int64_t n) {
    return static_cast<std::size_t>(grid(n)) * sizeof(Word);
  }

  static void prepare(void* scratch, std::size_t bytes, cudaStream_t stream) {
    if (bytes > 0) RB_CUDA_CHECK(cudaMemsetAsync(scratch, 0, bytes, stream));
  }

  static void sum(const float* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream) {
    const Split x = split_aligned(in, n);
    const int blocks = grid(n);
    kKernel<<<blocks, Shape::threads, 0, stream>>>(x, EvenShare::make(x.body_n, Shape::threads, blocks),
                                                   static_cast<Word*>(scratch), out);
    RB_CUDA_CHECK_LAUNCH();
  }

  static Geometry geometry(std::int64_t n) {
    return {grid(n), Shape::threads, std::int64_t{Shape::threads} * 4, Shape::tile_floats};
  }

  static constexpr Variant<Acc> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }
};

// The tuned onepass (tuning.cuh has the sweep behind each step):
//   n <= OnepassTinyShape's tile        one block, no completion
//   n <= ClusterSum's kMaxN (sm_90+)    one cluster, completion in distributed shared memory
//   n <  kOnepassLargeMinN              the grid of OnepassSmallShape blocks, slot completion
//   otherwise                           the grid of OnepassLargeShape blocks, slot completion
// All grid paths share one scratch layout and leave it zeroed, so a caller may alternate n freely.
template <class Acc>
struct OnepassBySize {
  using Tiny = Onepass<Acc, OnepassTinyShape>;
  using Cluster = ClusterSum<Acc, OnepassClusterShape>;
  using Small = Onepass<Acc, OnepassSmallShape>;
  using Large = Onepass<Acc, OnepassLargeShape>;

  enum class Path { tiny, cluster, small, large };
  static Path path(std::int64_t n) {
    if (n <= OnepassTinyShape::tile_floats) return Path::tiny;
    if (n <= Cluster::kMaxN && n <= kOnepassClusterMaxN && cluster_launch_supported()) return Path::cluster;
    return n < kOnepassLargeMinN ? Path::small : Path::large;
  }

  static std::size_t scratch_bytes(std::int64_t n) {
    std::size_t bytes = Tiny::scratch_bytes(n);  // also the first (untimed) device queries
    switch (path(n)) {
      case Path::small: bytes = Small::scratch_bytes(n); break;
      case Path::large: bytes = Large::scratch_bytes(n); break;
      default: break;
    }
    return bytes;
  }
  static void prepare(void* scratch, std::size_t bytes, cudaStream_t stream) { Small::prepare(scratch, bytes, stream); }
  static void sum(const float* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream) {
    switch (path(n)) {
      case Path::tiny: Tiny::sum(in, n, scratch, out, stream); break;
      case Path::cluster: Cluster::sum(in, n, out, stream); break;
      case Path::small: Small::sum(in, n, scratch, out, stream); break;
      case Path::large: Large::sum(in, n, scratch, out, stream); break;
    }
  }
  static Geometry geometry(std::int64_t n) {
    switch (path(n)) {
      case Path::tiny: return Tiny::geometry(n);
      case Path::cluster: return Cluster::geometry(n);
      case Path::small: return Small::geometry(n);
      default: return Large::geometry(n);
    }
  }
  static constexpr Variant<Acc> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }
};

}  // namespace rb::cuda
