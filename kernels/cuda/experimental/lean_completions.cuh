// Experiment, not shipped: completions of the one-tile grid (OneTileGrid) that the tune/lean/*
// rows compare with the shipped FinishEarly and FinishFixed (results/h200/tuning.md#round-19).
#pragma once
// Included only by bench/backends/cuda_tuning.cu.
//   FinishLate  (_late)     FinishEarly without the peek: warp 0 loads the slots after the tree.
//   FinishNone  (leanread)  no completion: every block stores its partial as a plain Acc in its
//                           slot and the host adds them (as ref/read does): the grid's read alone,
//                           so that lean - leanread is the price of the completion.
//   FinishPair  (_pair)     a floor, not shippable: every block adds {its partial, 1} to one float2
//                           with one vector atomicAdd, and the block that sees the count at grid - 1
//                           writes the sum. CUDA makes a float2 atomicAdd atomic per element only,
//                           not as a pair, and the adds' order follows timing: the row measures what
//                           a completion of one round trip and no poll costs (float only).
#include <cuda/atomic>
#include <cuda_runtime.h>

#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/slots.cuh"
#include "kernels/cuda/warp_sum.cuh"

namespace rb::cuda::experimental {

struct FinishLate : CompletesShare<FinishLate> {
  template <class Shape, class Acc>
  __device__ __forceinline__ static void complete(Acc v, rb::cuda::detail::Slot<Acc>* slots, Acc* out,
                                                  BlockSumStorage<Acc, Shape::threads>& storage) {
    const Acc block_total = block_sum<Shape::threads>(v, storage);
    if (blockIdx.x + 1 < gridDim.x) {
      if (threadIdx.x == 0) rb::cuda::detail::publish_partial(block_total, slots);
      return;
    }
    if (threadIdx.x >= kWarpSize) return;
    const int lane = static_cast<int>(threadIdx.x);
    const Acc rest =
        warp_sum(rb::cuda::detail::take_slots<Acc, 8, kWarpSize>(slots, lane, static_cast<int>(gridDim.x) - 1));
    if (threadIdx.x == 0) *out = rest + block_total;
  }
};

struct FinishNone : CompletesShare<FinishNone> {
  template <class Shape, class Acc>
  __device__ __forceinline__ static void complete(Acc v, rb::cuda::detail::Slot<Acc>* slots, Acc*,
                                                  BlockSumStorage<Acc, Shape::threads>& storage) {
    static_assert(sizeof(Acc) == sizeof(rb::cuda::detail::Slot<Acc>));
    const Acc block_total = block_sum<Shape::threads>(v, storage);
    if (threadIdx.x == 0) reinterpret_cast<Acc*>(slots)[blockIdx.x] = block_total;
  }
};

struct FinishPair : CompletesShare<FinishPair> {
  template <class Shape, class Acc>
  __device__ __forceinline__ static void complete(Acc v, rb::cuda::detail::Slot<Acc>* slots, Acc* out,
                                                  BlockSumStorage<Acc, Shape::threads>& storage) {
    static_assert(sizeof(Acc) == 4, "float partials: the pair is one float2");
    const Acc block_total = block_sum<Shape::threads>(v, storage);
    if (threadIdx.x != 0) return;
    auto* pair = reinterpret_cast<float2*>(slots);  // slots 0 and 1: zero between launches
    const float2 seen = atomicAdd(pair, make_float2(block_total, 1.0f));
    if (seen.y == static_cast<float>(gridDim.x - 1)) {
      *out = seen.x + block_total;
      *pair = make_float2(0.0f, 0.0f);
    }
  }
};

}  // namespace rb::cuda::experimental
