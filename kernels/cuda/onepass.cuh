#pragma once
// The one-launch reduction, templated on the accumulator (float: onepass.cu, double:
// onepass_f64.cu) and on the launch shape (tuning.cuh; the tune/onepass/* grid instantiates more).
//
// Completion ("last block done"): every block writes its partial to scratch, then its thread 0
// takes a ticket from a device-scope counter. The block that draws the last ticket sums all
// partials in index order, writes the result, and puts the counter back to 0 for the next launch.
// No floating-point atomics, no memset launch, no host synchronization.
//
// Memory ordering, in the CUDA (PTX) memory model:
//  1. Block j's thread 0 stores partials[j], then fetch_add(acq_rel, device scope): the release
//     half orders the store before its increment.
//  2. All increments are read-modify-writes of one location, so each block's release heads a
//     release sequence holding every later increment. The thread whose fetch_add returns
//     gridDim.x - 1 read the last of them; its acquire half therefore synchronizes with the
//     release of every other block: every partials[j] store happens before what it does next.
//     (This is the classic `__threadfence(); atomicAdd()` pattern, with the reader-side fence
//     that pattern leaves implicit written out as the acquire.)
//  3. __syncthreads() carries that to the rest of the last block (causality order is transitive
//     across the CTA barrier), which then reads the partials with __ldcg, from L2, the device's
//     point of coherence.
//  4. The reset is a relaxed store: the last ticket proves all gridDim.x increments are done and
//     nothing in this grid touches the counter again, and the next launch in the stream starts
//     only after this grid has finished.
// Determinism: the grid depends only on n (and the device), each block's chunk only on the input
// pointer, n and the grid, and the last block adds the partials in index order whichever block
// finished last, so the same call gives the same bits every time.
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/error.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/residency.cuh"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"

namespace rb::cuda {
namespace detail {

// Scratch: [ticket counter | padding | partials[grid]]. Only the counter needs initialising
// (onepass.prepare); every partial is written before it is read.
inline constexpr std::size_t kOnepassPartialsOffset = 256;

template <class Acc, class Shape>
__global__ __launch_bounds__(Shape::threads, Shape::blocks_per_sm) void onepass_kernel(
    Split x, EvenShare share, unsigned* counter, Acc* partials, Acc* out) {
  constexpr int kThreads = Shape::threads;
  __shared__ BlockSumStorage<Acc, kThreads> storage;
  __shared__ bool last_block;

  const Acc block_total = block_chunk_sum<Acc, kThreads, Shape::unroll>(x, share, storage);
  if (gridDim.x == 1) {  // small n: no other block to wait for, skip the round trips through L2
    if (threadIdx.x == 0) *out = block_total;
    return;
  }
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_total;
    ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device> tickets(*counter);
    last_block = tickets.fetch_add(1u, ::cuda::memory_order_acq_rel) == gridDim.x - 1;
    if (last_block) tickets.store(0u, ::cuda::memory_order_relaxed);
  }
  // Publishes last_block, and orders warp 0's reads of `storage` in block_chunk_sum before
  // its reuse below.
  __syncthreads();
  if (!last_block) return;
  const Acc total = block_sum_in_order<kThreads>(partials, static_cast<int>(gridDim.x), storage);
  if (threadIdx.x == 0) *out = total;
}

}  // namespace detail

template <class Acc, class Shape>
struct Onepass {
  static constexpr auto kKernel = &detail::onepass_kernel<Acc, Shape>;

  // SMs x blocks per SM at large n; at most what the occupancy API says fits.
  static int max_grid() {
    return sm_count() * std::min(Shape::blocks_per_sm, resident_blocks_per_sm<kKernel, Shape::threads>());
  }

  static int grid(std::int64_t n) { return work_sized_grid(n, Shape::tile_floats, max_grid()); }

  static std::size_t scratch_bytes(std::int64_t n) {
    return detail::kOnepassPartialsOffset + static_cast<std::size_t>(grid(n)) * sizeof(Acc);
  }

  static void prepare(void* scratch, cudaStream_t stream) {
    RB_CUDA_CHECK(cudaMemsetAsync(scratch, 0, sizeof(unsigned), stream));
  }

  static void sum(const float* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream) {
    const Split x = split_aligned(in, n);
    const int blocks = grid(n);
    auto* bytes = static_cast<unsigned char*>(scratch);
    kKernel<<<blocks, Shape::threads, 0, stream>>>(
        x, EvenShare::make(x.body_n, Shape::threads, blocks), reinterpret_cast<unsigned*>(bytes),
        reinterpret_cast<Acc*>(bytes + detail::kOnepassPartialsOffset), out);
    RB_CUDA_CHECK_LAUNCH();
  }

  static Geometry geometry(std::int64_t n) {
    return {grid(n), Shape::threads, std::int64_t{Shape::threads} * 4, Shape::tile_floats};
  }

  static constexpr Variant<Acc> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }
};

// The tuned onepass: OnepassSmallShape below kOnepassLargeMinN, OnepassLargeShape from there
// (tuning.cuh has the sweep). Both use the same scratch layout and counter, and each launch
// leaves the counter at 0, so a caller may alternate n freely.
template <class Acc>
struct OnepassBySize {
  using Small = Onepass<Acc, OnepassSmallShape>;
  using Large = Onepass<Acc, OnepassLargeShape>;
  static bool large(std::int64_t n) { return n >= kOnepassLargeMinN; }

  static std::size_t scratch_bytes(std::int64_t n) {
    return large(n) ? Large::scratch_bytes(n) : Small::scratch_bytes(n);
  }
  static void prepare(void* scratch, cudaStream_t stream) { Small::prepare(scratch, stream); }
  static void sum(const float* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream) {
    if (large(n)) Large::sum(in, n, scratch, out, stream);
    else Small::sum(in, n, scratch, out, stream);
  }
  static Geometry geometry(std::int64_t n) { return large(n) ? Large::geometry(n) : Small::geometry(n); }
  static constexpr Variant<Acc> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }
};

}  // namespace rb::cuda
