#pragma once
// FinishEarly: cuda/onepass's completion up to 2^22 (tuning.cuh: kOnepassBlockCollectMinN). The
// finisher's warp 0 issues its loads of the other blocks' slots before its own block tree, so that
// their L2 round trip overlaps the tree, and adds them to its own partial, which never goes
// through a slot. One batch of 8 slots per lane covers grids of up to 257 blocks; a larger grid
// pays a second round trip after the tree.
#include <cuda_runtime.h>

#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/slots.cuh"
#include "kernels/cuda/warp_sum.cuh"

namespace rb::cuda {

struct FinishEarly : CompletesShare<FinishEarly> {
  // Every thread of the grid, with its part v of its block's sum: the finisher writes the sum.
  template <class Shape, class Acc>
  __device__ __forceinline__ static void complete(Acc v, detail::Slot<Acc>* slots, Acc* out,
                                                  BlockSumStorage<Acc, Shape::threads>& storage) {
    constexpr int kBatch = 8;  // held in registers across the block tree: 9 or more spill
    const bool last = blockIdx.x + 1 == gridDim.x;
    const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
    const int others = static_cast<int>(gridDim.x) - 1;  // a grid of one reads no slot
    detail::SlotBatch<Acc, kBatch> seen{};
    if (last && threadIdx.x < kWarpSize) seen = detail::peek_slots<Acc, kBatch, kWarpSize>(slots, lane, others);
    const Acc block_total = block_sum<Shape::threads>(v, storage);
    if (!last) {
      if (threadIdx.x == 0) detail::publish_partial(block_total, slots);
      return;
    }
    if (threadIdx.x >= kWarpSize) return;
    const Acc rest = warp_sum(detail::take_slots<Acc, kBatch, kWarpSize>(slots, lane, others, seen));
    if (threadIdx.x == 0) *out = rest + block_total;
  }
};

}  // namespace rb::cuda
