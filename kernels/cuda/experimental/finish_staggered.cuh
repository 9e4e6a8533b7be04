#pragma once
// Experiment, not shipped: FinishStaggered, the tune/lean/..._s<cycles> and tune/onepass/..._s<cycles>
// rows' completion (bench/backends/cuda_tuning.cu). On the Wide grid (tuning.cuh: OnepassWideShape)
// at 2 MiB it measured 0.16-0.22 µs faster than FinishEarly over floats and 0.4-0.5 µs over doubles
// (results/h200/tuning.md#round-19), and FinishFixed up to 0.4 µs faster than it from 1.5 to 4 MiB
// (#round-30), which is why cuda/onepass's Wide grid uses FinishFixed.
//
// Every warp of the finisher polls every slot, warp w starting w x StaggerCycles after the block
// tree, so polls reach L2 StaggerCycles apart instead of one round trip apart. The first warp to
// see every slot published claims the sum (one shared word), adds the slots and its block's sum in
// FinishEarly's order and writes it; the others stop at their next poll. Warp 0 issues its first
// loads before the tree, as FinishEarly does. Every warp holds the same bits of the block's sum
// (block_sum_everywhere) and adds the slots in the same order, so whichever warp wins, the sum is
// the same: deterministic as FinishEarly is. One batch of kBatch slots per lane: grids of at most
// kMaxGrid blocks (Onepass::check_fits refuses more).
#include <cuda/atomic>
#include <cuda_runtime.h>

#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/slots.cuh"
#include "kernels/cuda/warp_sum.cuh"

namespace rb::cuda::experimental {

// The same sum in every thread: every warp runs block_sum's second level, for a finisher whose
// warps all need it.
template <int Threads, class T>
__device__ __forceinline__ T block_sum_everywhere(T v, BlockSumStorage<T, Threads>& storage) {
  return rb::cuda::detail::two_level_sum<Threads, true>(v, storage);
}

template <int StaggerCycles>
struct FinishStaggered : CompletesShare<FinishStaggered<StaggerCycles>> {
  static constexpr int kBatch = 8;
  static constexpr int kMaxGrid = kBatch * kWarpSize + 1;

  // Every thread of the grid, with its part v of its block's sum: the finisher writes the sum.
  template <class Shape, class Acc>
  __device__ __forceinline__ static void complete(Acc v, rb::cuda::detail::Slot<Acc>* slots, Acc* out,
                                                  BlockSumStorage<Acc, Shape::threads>& storage) {
    using Word = rb::cuda::detail::Slot<Acc>;
    __shared__ int claimed;
    const bool last = blockIdx.x + 1 == gridDim.x;
    const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
    const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
    const int others = static_cast<int>(gridDim.x) - 1;
    rb::cuda::detail::SlotBatch<Acc, kBatch> seen{};
    if (last && warp == 0) seen = rb::cuda::detail::peek_slots<Acc, kBatch, kWarpSize>(slots, lane, others);
    if (last && threadIdx.x == 0) claimed = 0;  // seen by every warp after the tree's barrier
    const Acc block_total = block_sum_everywhere<Shape::threads>(v, storage);
    if (!last) {
      if (threadIdx.x == 0) rb::cuda::detail::publish_partial(block_total, slots);
      return;
    }
    if (warp > 0) {
      const long long start = clock64();
      while (clock64() - start < static_cast<long long>(warp) * StaggerCycles) {
      }
    }
    const volatile int& stop = claimed;
    for (;;) {
      if (stop) return;  // another warp has the sum
      bool done = true;
#pragma unroll
      for (int k = 0; k < kBatch; ++k) {
        const int i = k * kWarpSize + lane;
        if (i < others && seen.w[k] == 0) {
          seen.w[k] = rb::cuda::detail::DeviceAtomic<Word>(slots[i]).load(::cuda::memory_order_relaxed);
        }
      }
#pragma unroll
      for (int k = 0; k < kBatch; ++k) done &= k * kWarpSize + lane >= others || seen.w[k] != 0;
      if (__all_sync(kFullWarp, done)) break;
    }
    int won = 0;
    if (lane == 0) won = atomicCAS(&claimed, 0, 1) == 0;
    if (!__shfl_sync(kFullWarp, won, 0)) return;
    Acc rest = Acc(0);
#pragma unroll
    for (int k = 0; k < kBatch; ++k) {
      const int i = k * kWarpSize + lane;
      if (i < others) {
        rest += rb::cuda::detail::SlotWord<Acc>::decode(seen.w[k]);
        rb::cuda::detail::DeviceAtomic<Word>(slots[i]).store(Word(0), ::cuda::memory_order_relaxed);
      }
    }
    rest = warp_sum(rest);
    if (lane == 0) *out = rest + block_total;
  }
};

}  // namespace rb::cuda::experimental
