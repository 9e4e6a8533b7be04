#pragma once
// The fixed-point grid FinishFixed (finish_fixed.cuh) rounds float and double partials to: where
// it sits (from a sample of the input that every block loads alike), how wide it is per
// accumulator, and the slots its partials take when they do not fit.
//
// The grid: warp 0 of every block loads the same 32 vectors of the input, spread over it, before
// its tile (sample). Their largest magnitude M, with 2^e <= M < 2^(e+1), sets
//   bottom = e + 1 + log2(tile) + kSlack - FixedPoint<Acc>::kFieldBits,
// so that a partial of up to 2^kSlack tiles of elements as large as M is q x 2^bottom with
// |q| < 2^kFieldBits. Each block's rounding is at most 2^(bottom - 1) <= 2^(log2(tile) + kSlack -
// kFieldBits) M, and M <= sum|x| (it is one element's magnitude): window_roundings states the
// grid's total as additions in the accumulator (its unit roundoff x sum|x| each; sum.hpp: Geometry).
// No grid is known to fit when the sample is infinite or NaN, M is zero or subnormal in its input
// type, or 2^bottom would be subnormal in the accumulator.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/cuda/elements.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/slots.cuh"
#include "kernels/cuda/warp_sum.cuh"

namespace rb::cuda {

// Warp 0's share of the sample: one 16-byte vector of the body per lane (zeros in other warps).
template <class T>
struct FixedWindowSample {
  typename Vector16<T>::type v;
};

namespace detail {

// The grid's width per accumulator: |q| < 2^kFieldBits, the accumulator's significand bits (its
// unit roundoff is 2^-kMantissaBits), and its smallest normal exponent.
template <class Acc>
struct FixedPoint;
template <>
struct FixedPoint<float> {
  static constexpr int kFieldBits = 42;  // one word's sum field: 2^7 of them within 50 bits
  static constexpr int kMantissaBits = 24;
  static constexpr int kMinExponent = -126;
  __device__ __forceinline__ static float power_of_two(int k) { return __int_as_float((k + 127) << 23); }
};
template <>
struct FixedPoint<double> {
  static constexpr int kFieldBits = 82;  // two words' sum fields of 2^41 each (finish_fixed.cuh)
  static constexpr int kMantissaBits = 53;
  static constexpr int kMinExponent = -1022;
  __device__ __forceinline__ static double power_of_two(int k) {
    return __longlong_as_double(static_cast<long long>(k + 1023) << 52);
  }
};

struct FixedGrid {
  static constexpr int kSlack = 2;  // partials up to 4 x tile x M fit

  // log2 of a tile's elements, rounded up.
  __host__ __device__ static constexpr int tile_log2(std::int64_t tile) {
    int k = 0;
    while ((std::int64_t{1} << k) < tile) ++k;
    return k;
  }

  // The grid's roundings over `grid` blocks, bounded by grid x 2^(tile_log2 + kSlack - kFieldBits)
  // sum|x|, as the number of the accumulator's additions that bound no less.
  template <class Acc>
  __host__ __device__ static constexpr std::int64_t window_roundings(int grid, std::int64_t tile) {
    const int shift = tile_log2(tile) + kSlack - FixedPoint<Acc>::kFieldBits + FixedPoint<Acc>::kMantissaBits;
    return shift >= 0 ? std::int64_t{grid} << shift
                      : (std::int64_t{grid} + (std::int64_t{1} << -shift) - 1) >> -shift;
  }

  // Warp 0's loads of the sample, issued before the block's tile so that they overlap it.
  template <class T>
  __device__ __forceinline__ static FixedWindowSample<T> sample(const SplitOf<T>& x) {
    FixedWindowSample<T> s{Element<T>::zero()};
    if (threadIdx.x < kWarpSize && x.body_n > 0) s.v = __ldg(x.body + threadIdx.x * x.body_n / kWarpSize);
    return s;
  }

  // bottom for a tile of 2^Log2Tile elements, from warp 0's sample (every lane of warp 0 calls
  // it); false when no grid is known to fit (the top of this file).
  template <class Acc, int Log2Tile, class T>
  __device__ __forceinline__ static bool bottom_of(const FixedWindowSample<T>& s, int& bottom) {
    int e = 0;
    if (!largest_exponent<T>(s.v, e)) return false;
    bottom = e + 1 + Log2Tile + kSlack - FixedPoint<Acc>::kFieldBits;
    return bottom >= FixedPoint<Acc>::kMinExponent;
  }

  // This lane's published partials, slots lane, lane + 32, ... of the grid's first `most`, added
  // in index order, and their slots emptied. A slot of a block whose partial fitted is zero.
  template <class Acc, int Most>
  __device__ __forceinline__ static Acc take_published(Slot<Acc>* partials, int lane) {
    constexpr int kPerLane = Most / kWarpSize;
    Slot<Acc> w[kPerLane];
#pragma unroll
    for (int k = 0; k < kPerLane; ++k) {
      const int i = k * kWarpSize + lane;
      w[k] = i < static_cast<int>(gridDim.x) ? DeviceAtomic<Slot<Acc>>(partials[i]).load(::cuda::memory_order_relaxed)
                                             : Slot<Acc>{0};
    }
    Acc rest = 0;
#pragma unroll
    for (int k = 0; k < kPerLane; ++k) {
      if (w[k] == 0) continue;
      rest += SlotWord<Acc>::decode(w[k]);
      DeviceAtomic<Slot<Acc>>(partials[k * kWarpSize + lane]).store(Slot<Acc>{0}, ::cuda::memory_order_relaxed);
    }
    return rest;
  }

 private:
  // e of the largest |element| of warp 0's vectors, from the bits of non-negative values (which
  // order as the magnitudes do; NaN above infinity): the top 32 bits of a double's, a float's
  // (16-bit types widened). False for zero, subnormal, infinite or NaN.
  template <class T>
  __device__ __forceinline__ static bool largest_exponent(const typename Vector16<T>::type& v, int& e) {
    constexpr int kPerVec = SplitOf<T>::kPerVec;
    T x[kPerVec];
    std::memcpy(x, &v, sizeof(v));  // registers reinterpreted, no memory access
    unsigned m = 0;
    if constexpr (std::is_same_v<T, double>) {
#pragma unroll
      for (int k = 0; k < kPerVec; ++k) m = max(m, static_cast<unsigned>(__double_as_longlong(fabs(x[k])) >> 32));
      const int biased = static_cast<int>(warp_max(m) >> 20);
      e = biased - 1023;
      return biased >= 1 && biased <= 2046;
    } else {
#pragma unroll
      for (int k = 0; k < kPerVec; ++k) m = max(m, __float_as_uint(fabsf(Element<T>::template widen<float>(x[k]))));
      const int biased = static_cast<int>(warp_max(m) >> 23);
      e = biased - 127;
      return biased >= 1 && biased <= 254;
    }
  }

  __device__ __forceinline__ static unsigned warp_max(unsigned m) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_max_sync(kFullWarp, m);
#else
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) m = max(m, __shfl_xor_sync(kFullWarp, m, offset));
    return m;
#endif
  }
};

}  // namespace detail
}  // namespace rb::cuda
