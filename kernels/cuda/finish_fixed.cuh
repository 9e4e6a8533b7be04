#pragma once
// FinishFixed: cuda/onepass's completion for floating-point partials on the Mid grid of one tile
// per block (OnepassTuned): float partials (f32, f16 and bf16 input) on one 64-bit word, double
// partials (f64 input, and float input summed in double: cuda/onepass_accf64) on two. Every block
// rounds its partial p to one fixed-point grid, q = round(p / 2^bottom), the same grid in every
// block (fixed_grid.cuh), and adds q with a count by integer atomic adds. The block whose add finds
// the count at grid - 1 is the last to arrive; the word it got back holds the exact sum of every
// other block's q, and it writes that sum plus its own times 2^bottom, rounded once. The sum is
// ready one L2 round trip after the last partial, with no poll (FinishCounted does the same for
// integer partials, exactly; results/h200/tuning.md#round-28).
//
// Deterministic: q depends only on its block's partial and the sample, and integer addition is
// associative, so the order of arrival never shows in the sum. Bounded: fixed_grid.cuh.
//
// A partial that does not fit (|q| would reach 2^kFieldBits; NaN or infinite) takes the slot
// path, as does every partial when the sample gives no grid: the block stores p into its slot
// (slots.cuh), fences, and adds only its counts. The last block then fences, adds those slots in
// index order (then a fixed warp tree) to the fixed-point sum, and empties them. The set of such
// blocks depends on the data alone, so this path is as deterministic, and about one round trip
// slower.
//
// A word: bits [0, 7) the blocks arrived, [7, 14) those that took the slot path, [14, 64) a sum of
// q's (two's complement; the low fields never borrow from it). Floats: one word, q < 2^42. Doubles:
// q = hi x 2^41 + lo with |lo| <= 2^40, |hi| <= 2^41, lo added to the low word and hi to the high
// word (which alone counts the slot path) by lanes 0 and 1 in one instruction. The two words may
// see different blocks arrive last; then each of the two hands its word's total to the other
// through a third word with one exchange, and the second to get there writes the sum (one more
// round trip). The words sit before the slots (header_slots) and are zero between launches, like
// every slot.
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/fixed_grid.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/slots.cuh"
#include "kernels/cuda/warp_sum.cuh"

namespace rb::cuda {

struct FinishFixed {
  static constexpr int kCountBits = 7;
  static constexpr int kMaxGrid = 1 << kCountBits;  // each count field holds up to grid - 1
  static constexpr int kSumShift = 2 * kCountBits;
  static constexpr int kLowBits = 41;  // doubles: q's bits in the low word
  static_assert(kSumShift + detail::FixedPoint<float>::kFieldBits + kCountBits + 1 <= 64,
                "a sum field holds grid x 2^kFieldBits");
  static_assert(kSumShift + kLowBits + kCountBits + 1 <= 64 &&
                    detail::FixedPoint<double>::kFieldBits == 2 * kLowBits,
                "the double's two sum fields each hold grid x 2^kLowBits");

  // The words before the slots: their bytes in slots of Acc.
  template <class Acc>
  __host__ __device__ static constexpr int header_slots() {
    return std::is_same_v<Acc, float> ? 2 : 3;  // float: one 64-bit word; double: low, high, meeting
  }

  template <class Acc>
  __host__ __device__ static constexpr std::int64_t window_roundings(int grid, std::int64_t tile) {
    return detail::FixedGrid::window_roundings<Acc>(grid, tile);
  }

  template <class T>
  __device__ __forceinline__ static FixedWindowSample<T> sample(const SplitOf<T>& x) {
    return detail::FixedGrid::sample(x);
  }

  // Every thread of the grid, with its part v of its block's sum, and its share of the sample.
  template <class Shape, class Acc, class T>
  __device__ __forceinline__ static void complete(Acc v, detail::Slot<Acc>* slots, Acc* out,
                                                  BlockSumStorage<Acc, Shape::threads>& storage,
                                                  const FixedWindowSample<T>& sample) {
    static_assert(std::is_floating_point_v<Acc>, "float or double partials");
    int bottom = 0;
    constexpr int kLog2Tile = detail::FixedGrid::tile_log2(kTileOf<Shape, T>);
    const bool valid = threadIdx.x < kWarpSize && detail::FixedGrid::bottom_of<Acc, kLog2Tile>(sample, bottom);
    const Acc p = block_sum<Shape::threads>(v, storage);
    if (threadIdx.x >= kWarpSize) return;
    if constexpr (std::is_same_v<Acc, float>) {
      one_word(p, valid, bottom, slots, out);
    } else {
      two_words(p, valid, bottom, slots, out);
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
  static constexpr Word kArrivals = kMaxGrid - 1;
  // A word's total handed to the other last block: [0] set (never 0, the empty meeting word),
  // [1, 9) its slot-path count (up to kMaxGrid), [9, 64) its sum (two's complement).
  static constexpr int kHandedCountShift = 1, kHandedSumShift = 9;
  static_assert(kMaxGrid < (1 << (kHandedSumShift - kHandedCountShift)), "the handed count field holds kMaxGrid");

  // Warp 0, with its block's partial p in lane 0: floats on one word, all in lane 0 but the slots.
  __device__ __forceinline__ static void one_word(float p, bool valid, int bottom, detail::Slot<float>* slots,
                                                  float* out) {
    using Fixed = detail::FixedPoint<float>;
    const int lane = static_cast<int>(threadIdx.x);
    detail::DeviceAtomic<Word> word(*reinterpret_cast<Word*>(slots));
    detail::Slot<float>* const partials = slots + header_slots<float>();
    bool collect = false;
    float fixed_sum = 0.0f;
    if (lane == 0) {
      const float scaled = valid ? p * Fixed::power_of_two(-bottom) : 0.0f;  // exact: a power of two
      const bool fits = valid && fabsf(scaled) < 0x1p42f;                   // 2^kFieldBits; false for NaN
      const long long q = fits ? __float2ll_rn(scaled) : 0;
      if (!fits) {
        detail::publish_partial(p, partials);
        __threadfence();  // the slot before the count that announces it
      }
      const Word add = fits ? (static_cast<Word>(q) << kSumShift) + 1 : (Word{1} << kCountBits) + 1;
      const Word seen = word.fetch_add(add, ::cuda::memory_order_relaxed);
      if ((seen & kArrivals) + 1 == gridDim.x) {
        const long long fixed = (static_cast<long long>(seen) >> kSumShift) + q;  // arithmetic shift
        fixed_sum = valid ? __ll2float_rn(fixed) * Fixed::power_of_two(bottom) : 0.0f;  // one rounding
        collect = ((seen >> kCountBits) & kArrivals) + !fits > 0;
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
    const float rest = warp_sum(detail::FixedGrid::take_published<float, kMaxGrid>(partials, lane));
    if (lane == 0) {
      *out = fixed_sum + rest;
      word.store(0, ::cuda::memory_order_relaxed);
    }
  }

  // Warp 0, with its block's partial p in lane 0: doubles on two words, lane 0 the low and lane 1
  // the high (valid and bottom are the same in every lane; p, and so fits, once broadcast). The
  // low part, scaled - high x 2^41, is exact (at most 2^40, a multiple of scaled's ulp): its
  // rounding is q's.
  __device__ __forceinline__ static void two_words(double p, bool valid, int bottom, detail::Slot<double>* slots,
                                                   double* out) {
    using Fixed = detail::FixedPoint<double>;
    const int lane = static_cast<int>(threadIdx.x);
    p = __shfl_sync(kFullWarp, p, 0);  // block_sum's total is valid in the low lanes only
    Word* const words = reinterpret_cast<Word*>(slots);  // low, high, meeting
    detail::Slot<double>* const partials = slots + header_slots<double>();
    const double scaled = valid ? p * Fixed::power_of_two(-bottom) : 0.0;  // exact: a power of two
    const bool fits = valid && fabs(scaled) < 0x1p82;                      // 2^kFieldBits; false for NaN
    const double high = fits ? rint(scaled * 0x1p-41) : 0.0;
    const long long part = !fits       ? 0
                           : lane == 1 ? static_cast<long long>(high)
                                       : __double2ll_rn(scaled - high * 0x1p41);
    if (!fits) {
      if (lane == 0) detail::publish_partial(p, partials);
      __syncwarp();
      __threadfence();  // the slot before the counts that announce it
    }
    Word seen = 0;
    if (lane < 2) {
      const Word add = (static_cast<Word>(part) << kSumShift) + 1 + (lane == 1 && !fits ? Word{1} << kCountBits : 0);
      seen = detail::DeviceAtomic<Word>(words[lane]).fetch_add(add, ::cuda::memory_order_relaxed);
    }
    const bool last = lane < 2 && (seen & kArrivals) + 1 == gridDim.x;
    const unsigned lasts = __ballot_sync(kFullWarp, last);
    if (lasts == 0) return;
    // A word all arrived: its sum (this block's part included) and its slot-path count.
    long long total = (static_cast<long long>(seen) >> kSumShift) + part;
    int routed = lane == 1 ? static_cast<int>((seen >> kCountBits) & kArrivals) + !fits : 0;
    if (last) detail::DeviceAtomic<Word>(words[lane]).store(0, ::cuda::memory_order_relaxed);
    if (lasts != 3u) {  // the other word's last block is another: meet it
      const int mine = lasts == 1u ? 0 : 1;
      Word other = 0;
      if (lane == mine) {
        const Word handed = (static_cast<Word>(total) << kHandedSumShift) |
                            (static_cast<Word>(routed) << kHandedCountShift) | 1;
        other = detail::DeviceAtomic<Word>(words[2]).exchange(handed, ::cuda::memory_order_relaxed);
      }
      other = __shfl_sync(kFullWarp, other, mine);
      if (other == 0) return;  // the first there: the other block writes
      if (lane == mine) detail::DeviceAtomic<Word>(words[2]).store(0, ::cuda::memory_order_relaxed);
      if (lane == 1 - mine) {
        total = static_cast<long long>(other) >> kHandedSumShift;  // arithmetic shift
        routed = static_cast<int>((other >> kHandedCountShift) & ((1u << (kHandedSumShift - kHandedCountShift)) - 1));
      }
    }
    const long long low = __shfl_sync(kFullWarp, total, 0);
    const long long high_sum = __shfl_sync(kFullWarp, total, 1);
    const int slot_path = __shfl_sync(kFullWarp, routed, 1);
    // Both products exact (integers of at most 49 bits times powers of two): one rounding.
    const double fixed_sum = valid ? static_cast<double>(high_sum) * Fixed::power_of_two(bottom + kLowBits) +
                                         static_cast<double>(low) * Fixed::power_of_two(bottom)
                                   : 0.0;
    if (slot_path == 0) {
      if (lane == 0) *out = fixed_sum;
      return;
    }
    __threadfence();  // the slots after the counts that announced them
    const double rest = warp_sum(detail::FixedGrid::take_published<double, kMaxGrid>(partials, lane));
    if (lane == 0) *out = fixed_sum + rest;
  }
};

}  // namespace rb::cuda
