// Experiment, not shipped: the completions the tune/onepass/* rows compare with the shipped ones.
#pragma once
// Included only by bench/backends/cuda_tuning.cu and tests/kernels/cuda/test_experimental.cu.
// What each measured: results/h200/tuning.md#round-3, #round-4, #round-7 and #round-8.
//   finisher_polls  the grid's last block, after storing its own partial like every block, polls
//                   all the slots with its warp 0 (16 per lane, one batch for grids of up to 512
//                   blocks). The completion of every tune/onepass/t<threads>_u<loads>_b<blocks> row.
//   ticket_polls    the block that draws the last ticket (a relaxed fetch_add) polls: two round
//                   trips after the last partial, the ticket's and the poll's.
//   ticket_fenced   the same with an acq_rel ticket (the classic `__threadfence(); atomicAdd()`):
//                   a fence on every block's critical path.
// Scratch: [ticket | padding | slots[grid]], all zero between launches, like the shipped slots.
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "common/cuda_check.hpp"
#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/residency.cuh"
#include "kernels/cuda/slots.cuh"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/warp_sum.cuh"

namespace rb::cuda::experimental {

enum class Completion { finisher_polls, ticket_polls, ticket_fenced };

namespace detail {

using rb::cuda::detail::DeviceAtomic;
using rb::cuda::detail::Slot;

inline constexpr std::size_t kSlotsOffset = 256;

// Thread 0 of every block, after publishing its partial: true in the block that adds the partials.
template <Completion C>
__device__ __forceinline__ bool is_finisher(unsigned* ticket) {
  if constexpr (C == Completion::finisher_polls) {
    return blockIdx.x + 1 == gridDim.x;
  } else {
    constexpr auto order = C == Completion::ticket_fenced ? ::cuda::memory_order_acq_rel : ::cuda::memory_order_relaxed;
    return DeviceAtomic<unsigned>(*ticket).fetch_add(1u, order) == gridDim.x - 1;
  }
}

// Warp 0 of the finisher: the sum of slots[0, count) in every lane, and the ticket put back.
// Batch = 16: one round trip for every grid of an H200 (up to 264 blocks); with 8, grids of
// 257-264 blocks took a second one, 0.5-1 µs more from 2^23 (results/h200/tuning.md#batch16).
// It spills (40 bytes in float, 96 in double) and is kept so: a spill-free form measured 0.3-0.6 µs
// slower on grids of 8-16 blocks (results/h200/tuning.md#spillfree).
template <class Acc, Completion C, int Batch = 16>
__device__ __forceinline__ Acc collect_partials(Slot<Acc>* slots, int count, unsigned* ticket) {
  if constexpr (C == Completion::ticket_fenced) __syncwarp();  // lane 0's acquire, to every lane
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const Acc v = rb::cuda::detail::take_slots<Acc, Batch, kWarpSize>(slots, lane, count);
  if constexpr (C != Completion::finisher_polls) {
    if (lane == 0) DeviceAtomic<unsigned>(*ticket).store(0u, ::cuda::memory_order_relaxed);
  }
  return warp_sum(v);
}

template <class Acc, class Shape, Completion C>
__global__ __launch_bounds__(Shape::threads, Shape::blocks_per_sm) void completion_kernel(
    Split x, EvenShare share, unsigned* ticket, Slot<Acc>* slots, Acc* out) {
  __shared__ BlockSumStorage<Acc, Shape::threads> storage;
  const Acc block_total = block_chunk_sum<Acc, Shape>(x, share, storage);
  if (gridDim.x == 1) {  // no other block to wait for
    if (threadIdx.x == 0) *out = block_total;
    return;
  }
  if (threadIdx.x >= kWarpSize) return;  // the block's sum is in thread 0: warp 0 does the rest
  bool finisher = false;
  if (threadIdx.x == 0) {
    rb::cuda::detail::publish_partial(block_total, slots);
    finisher = is_finisher<C>(ticket);
  }
  if (!__shfl_sync(kFullWarp, finisher, 0)) return;
  const Acc total = collect_partials<Acc, C>(slots, static_cast<int>(gridDim.x), ticket);
  if (threadIdx.x == 0) *out = total;
}

}  // namespace detail

// The launcher, as onepass.cuh's Onepass, with the ticket word in front of the slots.
template <class Acc, class Shape, Completion C>
struct OnepassCompletion {
  static constexpr auto kKernel = &detail::completion_kernel<Acc, Shape, C>;
  using Word = detail::Slot<Acc>;

  static int max_grid() {
    return sm_count() * std::min(Shape::blocks_per_sm, resident_blocks_per_sm<kKernel, Shape::threads>());
  }
  static int grid(std::int64_t n) { return work_sized_grid(n, Shape::tile_floats, max_grid()); }

  static std::size_t scratch_bytes(std::int64_t n) {
    return detail::kSlotsOffset + static_cast<std::size_t>(grid(n)) * sizeof(Word);
  }
  static void prepare(void* scratch, std::size_t bytes, cudaStream_t stream) {
    RB_CUDA_CHECK(cudaMemsetAsync(scratch, 0, bytes, stream));
  }
  static void sum(const float* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream) {
    const Split x = split_aligned(in, n);
    const int blocks = grid(n);
    auto* bytes = static_cast<unsigned char*>(scratch);
    kKernel<<<blocks, Shape::threads, 0, stream>>>(x, EvenShare::make(x.body_n, Shape::threads, blocks),
                                                   reinterpret_cast<unsigned*>(bytes),
                                                   reinterpret_cast<Word*>(bytes + detail::kSlotsOffset), out);
    RB_CUDA_CHECK_LAUNCH();
  }
  static Geometry geometry(std::int64_t n) {
    return {grid(n), Shape::threads, std::int64_t{Shape::threads} * 4, Shape::tile_floats};
  }
  static constexpr Variant<Acc> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }
};

}  // namespace rb::cuda::experimental
