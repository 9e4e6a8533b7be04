#pragma once
// Warp layer: the sum of one value per lane, with register shuffles only (no shared memory).
//
// An xor butterfly rather than the textbook __shfl_down chain: after five steps every lane holds
// the total, not just lane 0, and every lane holds the same bits (each step adds the same two
// values in either order, and IEEE addition is commutative). The order of the additions depends
// only on the lane layout, so the result is reproducible run to run.
#include <cuda_runtime.h>

namespace rb::cuda {

inline constexpr int kWarpSize = 32;
inline constexpr unsigned kFullWarp = 0xFFFF'FFFFu;

// All 32 lanes must call it together (full mask). T is float, double or long long (a 64-bit
// shuffle is two 32-bit shuffles). With Lanes < 32 (a power of two), only lanes [0, Lanes) are summed, in
// log2(Lanes) steps, and the sum is valid in those lanes: a block's second level needs only as
// many steps as it has warps, and every step is a shuffle's latency on the critical path.
template <int Lanes = kWarpSize, class T>
__device__ __forceinline__ T warp_sum(T v) {
  static_assert(Lanes >= 1 && Lanes <= kWarpSize && (Lanes & (Lanes - 1)) == 0, "a power of two up to 32");
#pragma unroll
  for (int offset = Lanes / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(kFullWarp, v, offset);
  return v;
}

}  // namespace rb::cuda
