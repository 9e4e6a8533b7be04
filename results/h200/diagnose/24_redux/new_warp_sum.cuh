#pragma once
// Warp layer: the sum of one value per lane, with register shuffles (64-bit integers on sm_80+:
// the warp's integer reduction instruction) and no shared memory.
//
// An xor butterfly rather than the textbook __shfl_down chain: after five steps every lane holds
// the total, not just lane 0, and every lane holds the same bits (each step adds the same two
// values in either order, and IEEE addition is commutative). The order of the additions depends
// only on the lane layout, so the result is reproducible run to run.
#include <cuda_runtime.h>

#include <type_traits>

namespace rb::cuda {

inline constexpr int kWarpSize = 32;
inline constexpr unsigned kFullWarp = 0xFFFF'FFFFu;

namespace detail {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
inline constexpr bool kIntegerRedux = true;
// A 64-bit integer sum on sm_80+: three redux.sync adds of 32-bit pieces, independent of each
// other, instead of five steps of two shuffles each. The 16-bit pieces' sums are exact (32 x 2^16
// < 2^21); the high words' sum is kept mod 2^32, which is all that survives the shift mod 2^64:
// the same bits as the butterfly's wrapping additions, in every lane.
template <int Lanes>
__device__ __forceinline__ long long redux_sum(long long v) {
  if constexpr (Lanes < kWarpSize) {
    if (static_cast<int>(threadIdx.x % kWarpSize) >= Lanes) v = 0;
  }
  const auto u = static_cast<unsigned long long>(v);
  const unsigned lo = __reduce_add_sync(kFullWarp, static_cast<unsigned>(u & 0xffffu));
  const unsigned mid = __reduce_add_sync(kFullWarp, static_cast<unsigned>((u >> 16) & 0xffffu));
  const unsigned hi = __reduce_add_sync(kFullWarp, static_cast<unsigned>(u >> 32));
  return static_cast<long long>((static_cast<unsigned long long>(hi) << 32) +
                                (static_cast<unsigned long long>(mid) << 16) + lo);
}
#else
inline constexpr bool kIntegerRedux = false;
template <int Lanes>
__device__ long long redux_sum(long long v);  // never instantiated: kIntegerRedux is false
#endif

}  // namespace detail

// All 32 lanes must call it together (full mask). T is float, double or long long (a 64-bit
// shuffle is two 32-bit shuffles; long long on sm_80+: detail::redux_sum). With Lanes < 32 (a
// power of two), only lanes [0, Lanes) are summed, in log2(Lanes) steps, and the sum is valid in
// those lanes: a block's second level needs only as many steps as it has warps, and every step is
// a shuffle's latency on the critical path.
template <int Lanes = kWarpSize, class T>
__device__ __forceinline__ T warp_sum(T v) {
  static_assert(Lanes >= 1 && Lanes <= kWarpSize && (Lanes & (Lanes - 1)) == 0, "a power of two up to 32");
  if constexpr (detail::kIntegerRedux && std::is_same_v<T, long long>) {
    return detail::redux_sum<Lanes>(v);
  } else {
#pragma unroll
    for (int offset = Lanes / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(kFullWarp, v, offset);
    return v;
  }
}

}  // namespace rb::cuda
