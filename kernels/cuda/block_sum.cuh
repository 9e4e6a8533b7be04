#pragma once
// Block layer: warp sums, one value per warp in shared memory, then warp 0 sums those.
//
// The caller owns the shared storage (CUB's TempStorage idiom), so reusing it is visible at the
// call site: between two block_sum calls on the same storage there must be a __syncthreads(),
// or a fast warp could overwrite a slot that warp 0 is still reading.
#include <cuda_runtime.h>

#include "kernels/cuda/warp_sum.cuh"

namespace rb::cuda {

template <class T, int Threads>
struct BlockSumStorage {
  static_assert(Threads % kWarpSize == 0 && Threads >= kWarpSize && Threads <= 1024,
                "a whole number of warps, at most 1024 threads");
  T warp[Threads / kWarpSize];
};

namespace detail {

// Warp sums, one word per warp in storage, then the second level over those words: in warp 0
// alone (EveryWarp false) or in every warp (EveryWarp true: the same additions in each, so the
// same bits in every thread).
template <int Threads, bool EveryWarp, class T>
__device__ __forceinline__ T two_level_sum(T v, BlockSumStorage<T, Threads>& storage) {
  constexpr int kWarps = Threads / kWarpSize;
  constexpr int kSecondLevelLanes = [] {  // kWarps rounded up to a power of two
    int lanes = 1;
    while (lanes < kWarps) lanes *= 2;
    return lanes;
  }();
  v = warp_sum(v);
  if constexpr (kWarps > 1) {
    const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
    const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
    if (lane == 0) storage.warp[warp] = v;
    __syncthreads();
    if (EveryWarp || warp == 0) v = warp_sum<kSecondLevelLanes>(lane < kWarps ? storage.warp[lane] : T(0));
  }
  return v;
}

}  // namespace detail

// Sum of v over the block (blockDim.x == Threads, every thread calls it). The result is valid in
// thread 0 (the second level only adds the kWarps lanes that hold warp sums); other warps get
// their own warp's sum.
template <int Threads, class T>
__device__ __forceinline__ T block_sum(T v, BlockSumStorage<T, Threads>& storage) {
  return detail::two_level_sum<Threads, false>(v, storage);
}

// Sum of p[0, count) in an order fixed by count and Threads alone (thread t adds p[t],
// p[t + Threads], ..., then block_sum), so the same partials always give the same bits.
// Loads go through L2 (__ldcg): p was written by other blocks, of this grid or of an earlier
// kernel, so this SM's L1 holds nothing useful and must not serve anything stale.
template <int Threads, class T>
__device__ __forceinline__ T block_sum_in_order(const T* p, int count, BlockSumStorage<T, Threads>& storage) {
  T v = 0;
  for (int i = static_cast<int>(threadIdx.x); i < count; i += Threads) v += __ldcg(p + i);
  return block_sum<Threads>(v, storage);
}

}  // namespace rb::cuda
