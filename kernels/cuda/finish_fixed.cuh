#pragma once
// FinishFixed: cuda/onepass's completion for float partials (f32, f16 and bf16 input) on the Mid
// grid of one tile per block (OnepassTuned). Every block rounds its partial p to one fixed-point
// grid, q = round(p / 2^bottom), the same grid in every block, and adds q with a count to one
// 64-bit word with one atomic add. The block whose add finds the count at grid - 1 is the last to
// arrive; the word it got back holds the exact sum of every other block's q, and it writes that
// sum plus its own times 2^bottom, rounded once to float. The sum is ready one L2 round trip after
// the last partial, with no poll (FinishCounted does the same for integer partials, exactly;
// results/h200/tuning.md#round-28).
//
// The grid: warp 0 of every block loads the same 32 vectors of the input, spread over it, before
// its tile (sample). Their largest magnitude M, with 2^e <= M < 2^(e+1), sets
//   bottom = e + 1 + log2(tile) + kSlack - kFieldBits,
// so that a partial of up to 2^kSlack tiles of elements as large as M has |q| < 2^kFieldBits.
// Deterministic: q depends only on its block's partial and the sample, and integer addition is
// associative, so the order of arrival never shows in the sum.
// Bounded: |q 2^bottom - p| <= 2^(bottom - 1) <= 2^(log2(tile) + kSlack - kFieldBits) M, and
// M <= sum|x| (it is one element's magnitude), so the grid adds at most that much per block:
// window_roundings states it as additions' worth of 2^-24 sum|x| (sum.hpp: Geometry).
//
// A partial that does not fit (|q| would reach 2^kFieldBits; NaN or infinite) takes the slot
// path, as does every partial when the sample gives no grid (an infinite or NaN sample, M below
// 2^-126, bottom below -126): the block stores p into its slot (slots.cuh), fences, and adds only
// its counts. The last block then fences, adds those slots in index order (then a fixed warp
// tree) to the fixed-point sum, and empties them. The set of such blocks depends on the data
// alone, so this path is as deterministic, and about one round trip slower.
//
// Word: bits [0, 7) the blocks arrived, [7, 14) those that took the slot path, [14, 64) the sum of
// the q (two's complement; the low fields never borrow from it). The word sits before the slots
// (kHeaderSlots) and is zero between launches, like every slot.
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/chunk_sum.cuh"
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

struct FinishFixed {
  static constexpr int kCountBits = 7;
  static constexpr int kMaxGrid = 1 << kCountBits;  // each count field holds up to grid - 1
  static constexpr int kFieldBits = 42;             // |q| < 2^42: 2^7 of them sum within 50 bits
  static constexpr int kSlack = 2;                  // partials up to 4 x tile x M fit
  static constexpr int kHeaderSlots = 2;            // the 64-bit word: two float slots' bytes
  static_assert(2 * kCountBits + kFieldBits + kCountBits + 1 <= 64, "the sum field holds grid x 2^kFieldBits");

  // log2 of a tile's elements, rounded up.
  __host__ __device__ static constexpr int tile_log2(std::int64_t tile) {
    int k = 0;
    while ((std::int64_t{1} << k) < tile) ++k;
    return k;
  }

  // The grid's roundings, bounded by grid x 2^(tile_log2 + kSlack - kFieldBits) sum|x|, as the
  // number of float additions (2^-24 sum|x| each) that bound no less.
  __host__ __device__ static constexpr std::int64_t window_roundings(int grid, std::int64_t tile) {
    const int shift = tile_log2(tile) + kSlack - kFieldBits + 24;
    return shift >= 0 ? std::int64_t{grid} << shift : (std::int64_t{grid} + (std::int64_t{1} << -shift) - 1) >> -shift;
  }

  // Warp 0's loads of the sample, issued before the block's tile so that they overlap it.
  template <class T>
  __device__ __forceinline__ static FixedWindowSample<T> sample(const SplitOf<T>& x) {
    FixedWindowSample<T> s{Element<T>::zero()};
    if (threadIdx.x < kWarpSize && x.body_n > 0) s.v = __ldg(x.body + threadIdx.x * x.body_n / kWarpSize);
    return s;
  }

  // Every thread of the grid, with its part v of its block's sum, and its share of the sample.
  template <class Shape, class Acc, class T>
  __device__ __forceinline__ static void complete(Acc v, detail::Slot<Acc>* slots, Acc* out,
                                                  BlockSumStorage<Acc, Shape::threads>& storage,
                                                  const FixedWindowSample<T>& sample) {
    static_assert(std::is_same_v<Acc, float>, "float partials");
    const unsigned largest = threadIdx.x < kWarpSize ? warp_max(magnitude_bits<T>(sample.v)) : 0u;
    const float p = block_sum<Shape::threads>(v, storage);
    if (threadIdx.x >= kWarpSize) return;
    const int lane = static_cast<int>(threadIdx.x);
    int bottom = 0;
    constexpr int kLog2Tile = tile_log2(kTileOf<Shape, T>);
    const bool valid = grid_of(largest, kLog2Tile, bottom);
    detail::DeviceAtomic<Word> word(*reinterpret_cast<Word*>(slots));
    detail::Slot<float>* const partials = slots + kHeaderSlots;
    bool collect = false;
    float fixed_sum = 0.0f;
    if (lane == 0) {
      const float scaled = valid ? p * power_of_two(-bottom) : 0.0f;  // exact: a power of two
      const bool fits = valid && fabsf(scaled) < 0x1p42f;              // 2^kFieldBits; false for NaN
      const long long q = fits ? __float2ll_rn(scaled) : 0;
      if (!fits) {
        detail::publish_partial(p, partials);
        __threadfence();  // the slot before the count that announces it
      }
      const Word add = fits ? (static_cast<Word>(q) << 2 * kCountBits) + 1 : (Word{1} << kCountBits) + 1;
      const Word seen = word.fetch_add(add, ::cuda::memory_order_relaxed);
      if ((seen & (kMaxGrid - 1)) + 1 == gridDim.x) {
        const long long fixed = (static_cast<long long>(seen) >> 2 * kCountBits) + q;  // arithmetic shift
        fixed_sum = valid ? __ll2float_rn(fixed) * power_of_two(bottom) : 0.0f;     // one rounding
        collect = ((seen >> kCountBits) & (kMaxGrid - 1)) + !fits > 0;
        if (!collect) {
          *out = fixed_sum;
          word.store(0, ::cuda::memory_order_relaxed);
        } else {
          __threadfence();  // the slots after the counts that announced them
        }
      }
    }
    if (!__shfl_sync(kFullWarp, collect, 0)) return;
    __syncwarp();  // lane 0's fence before every lane's loads
    const float rest = warp_sum(take_published(partials, lane));
    if (lane == 0) {
      *out = fixed_sum + rest;
      word.store(0, ::cuda::memory_order_relaxed);
    }
  }

  // The looping grid's entry (onepass_kernel, where a device holds fewer blocks than the grid has
  // tiles): the same sample, then this thread's share of its block's chunk.
  template <class Shape, class Acc, class T>
  __device__ __forceinline__ static void finish(const SplitOf<T>& x, const EvenShare& share, detail::Slot<Acc>* slots,
                                                Acc* out, BlockSumStorage<Acc, Shape::threads>& storage) {
    const auto s = sample(x);
    complete<Shape>(thread_share<Acc, Shape, T>(x, share), slots, out, storage, s);
  }

 private:
  using Word = unsigned long long;

  // 2^k for k in [-126, 127].
  __device__ __forceinline__ static float power_of_two(int k) { return __int_as_float((k + 127) << 23); }

  // The largest |element| of one vector, as the bits of a non-negative float (which order as the
  // magnitudes do; NaN above infinity).
  template <class T>
  __device__ __forceinline__ static unsigned magnitude_bits(const typename Vector16<T>::type& v) {
    constexpr int kPerVec = SplitOf<T>::kPerVec;
    T e[kPerVec];
    std::memcpy(e, &v, sizeof(v));  // registers reinterpreted, no memory access
    unsigned m = 0;
#pragma unroll
    for (int k = 0; k < kPerVec; ++k) m = max(m, __float_as_uint(fabsf(Element<T>::template widen<float>(e[k]))));
    return m;
  }

  __device__ __forceinline__ static unsigned warp_max(unsigned m) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_max_sync(kFullWarp, m);
#else
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) m = max(m, __shfl_xor_sync(kFullWarp, m, offset));
    return m;
#endif
  }

  // bottom from the bits of M; false when no grid is known to fit (see the top of this file).
  __device__ __forceinline__ static bool grid_of(unsigned largest, int log2_tile, int& bottom) {
    const int biased = static_cast<int>(largest >> 23);
    if (biased < 1 || biased > 254) return false;
    bottom = biased - 127 + 1 + log2_tile + kSlack - kFieldBits;
    return bottom >= -126;
  }

  // This lane's published partials, slots lane, lane + 32, ... of the grid, added in index order,
  // and their slots emptied. A slot of a block that fitted is zero.
  __device__ __forceinline__ static float take_published(detail::Slot<float>* partials, int lane) {
    constexpr int kPerLane = kMaxGrid / kWarpSize;
    detail::Slot<float> w[kPerLane];
#pragma unroll
    for (int k = 0; k < kPerLane; ++k) {
      const int i = k * kWarpSize + lane;
      w[k] = i < static_cast<int>(gridDim.x)
                 ? detail::DeviceAtomic<detail::Slot<float>>(partials[i]).load(::cuda::memory_order_relaxed)
                 : 0u;
    }
    float rest = 0.0f;
#pragma unroll
    for (int k = 0; k < kPerLane; ++k) {
      if (w[k] == 0) continue;
      rest += detail::SlotWord<float>::decode(w[k]);
      detail::DeviceAtomic<detail::Slot<float>>(partials[k * kWarpSize + lane]).store(0u, ::cuda::memory_order_relaxed);
    }
    return rest;
  }
};

}  // namespace rb::cuda
