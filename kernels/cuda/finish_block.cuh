#pragma once
// FinishBlock: cuda/onepass's completion above 2^22 (tuning.cuh: kOnepassBlockCollectMinN). Every
// thread of the finisher takes slots, 4 per thread per batch (one batch for grids of up to
// 4 x Shape::threads + 1 blocks), then the block tree adds them, and the finisher's own partial, which
// never goes through a slot, last. The second block tree costs ~0.3 µs while the grid is small;
// on the large grids above 2^22 this wins (tuning.cuh).
#include <cuda_runtime.h>

#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/slots.cuh"

namespace rb::cuda {

struct FinishBlock {
  // Every thread of the grid: its block sums its chunk of x (share, elements of T), the finisher
  // writes the sum.
  template <class Shape, class Acc, class T>
  __device__ __forceinline__ static void finish(const SplitOf<T>& x, const EvenShare& share, detail::Slot<Acc>* slots,
                                                Acc* out, BlockSumStorage<Acc, Shape::threads>& storage) {
    const Acc block_total = block_chunk_sum<Acc, Shape>(x, share, storage);
    if (gridDim.x == 1) {  // no other block to wait for
      if (threadIdx.x == 0) *out = block_total;
      return;
    }
    if (blockIdx.x + 1 < gridDim.x) {
      if (threadIdx.x == 0) detail::publish_partial(block_total, slots);
      return;
    }
    __syncthreads();  // warp 0's reads of storage in the block tree above, before its reuse
    const int self = static_cast<int>(threadIdx.x);
    const Acc others = block_sum<Shape::threads>(
        detail::take_slots<Acc, 4, Shape::threads>(slots, self, static_cast<int>(gridDim.x) - 1), storage);
    if (threadIdx.x == 0) *out = others + block_total;
  }
};

}  // namespace rb::cuda
