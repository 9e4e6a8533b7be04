#pragma once
// FinishCounted: cuda/onepass's completion for 64-bit integer partials (int32 input) on the Mid
// grid (OnepassTuned). Every block's thread 0 adds (its partial << kCountBits) + 1 to one 64-bit
// word with one atomic add. The block whose add finds the count at grid - 1 is the last to arrive,
// and the word it got back holds the sum of every other block's partial: it writes that sum plus
// its own and puts the word back to zero. The sum is ready one L2 round trip after the last
// partial, with no poll; a float completion cannot do the same, since a float2 atomicAdd is atomic
// per element only (results/h200/tuning.md#round-27).
//
// Exact and deterministic: integer addition is associative, and the two fields never carry into
// each other while the grid has at most kMaxGrid blocks and every subset of partials sums to less
// than 2^(63 - kCountBits) in magnitude, which holds for n <= kMaxElements int32s (Onepass checks
// both before launching).
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/slots.cuh"

namespace rb::cuda {

struct FinishCounted : CompletesShare<FinishCounted> {
  static constexpr int kCountBits = 10;
  static constexpr int kMaxGrid = 1 << kCountBits;  // the count field holds up to grid - 1
  // n int32s sum to at most n x 2^31 in magnitude: below 2^(63 - kCountBits) for n <= 2^22.
  static constexpr std::int64_t kMaxElements = std::int64_t{1} << (63 - kCountBits - 31);

  // Every thread of the grid, with its part v of its block's sum: the last block to arrive writes
  // the sum. The word is slots[0], zero between launches like every slot.
  template <class Shape, class Acc>
  __device__ __forceinline__ static void complete(Acc v, detail::Slot<Acc>* slots, Acc* out,
                                                  BlockSumStorage<Acc, Shape::threads>& storage) {
    static_assert(std::is_same_v<Acc, long long>, "integer partials: the sum and the count share one word");
    using Word = unsigned long long;
    const Acc block_total = block_sum<Shape::threads>(v, storage);
    if (threadIdx.x != 0) return;
    detail::DeviceAtomic<Word> word(*slots);
    const Word seen = word.fetch_add((static_cast<Word>(block_total) << kCountBits) + 1, ::cuda::memory_order_relaxed);
    if ((seen & (kMaxGrid - 1)) + 1 != gridDim.x) return;
    *out = (static_cast<long long>(seen) >> kCountBits) + block_total;  // arithmetic shift: C++20
    word.store(0, ::cuda::memory_order_relaxed);
  }
};

}  // namespace rb::cuda
