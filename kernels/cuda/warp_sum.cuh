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

// All 32 lanes must call it together (full mask). T is float or double (a double shuffle is two
// 32-bit shuffles).
template <class T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(kFullWarp, v, offset);
  return v;
}

}  // namespace rb::cuda
