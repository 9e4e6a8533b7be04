#pragma once
// How the blocks of one onepass grid hand their partials to the finisher, with no fence, no atomic
// read-modify-write and no second kernel (onepass.cuh's glossary has the terms). FinishFixed's
// slot path uses the same words behind a fence and its count (finish_fixed.cuh).
//
// Every other block's thread 0 stores its partial into its own slot (one relaxed store). The
// finisher polls each slot until it is non-zero, reads the partial from that same word, and puts
// the slot back to zero. A partial and its "written" flag are one word, so the poll needs no
// acquire and no block needs a fence.
//
// Why the finisher cannot wait forever: it is the grid's last block and waits only for blocks with
// smaller indices, which the hardware dispatches before it (blocks start in index order, the
// property CUB's decoupled look-back scan relies on); and the grid is never larger than what the
// device holds at once (Onepass::max_grid), so even out-of-order dispatch would find room for all.
//
// Encoding: a slot holds the partial's bits inverted, after any NaN is made the canonical quiet
// NaN. Zero is then "empty": it would be the inverse of an all-ones NaN, which canonicalising
// rules out. An integer partial (long long: int32 elements) is stored with its sign bit flipped:
// zero is then INT64_MIN, which no block's partial reaches (it adds fewer than 2^32 int32s, each
// at least -2^31; Onepass::sum checks n against the grid). Every launch leaves every slot it used
// at zero, and the next launch in the stream starts after the whole grid has finished, so
// prepare() zeroes the scratch once and no launch ever needs a memset.
//
// Deterministic: the finisher's thread t adds slots t, t + s, t + 2s, ... in index order (s = 32
// lanes, or the block's threads), then a fixed tree combines them, and the finisher adds its own
// partial last: the order depends on the grid alone, never on which block finished when.
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstdint>

namespace rb::cuda::detail {

template <class Acc>
struct SlotWord;

template <>
struct SlotWord<float> {
  using type = unsigned;
  __device__ static type encode(float v) { return ~__float_as_uint(v == v ? v : __int_as_float(0x7FFF'FFFF)); }
  __device__ static float decode(type w) { return __uint_as_float(~w); }
};

template <>
struct SlotWord<double> {
  using type = unsigned long long;
  __device__ static type encode(double v) {
    return ~static_cast<type>(__double_as_longlong(v == v ? v : __longlong_as_double(0x7FFF'FFFF'FFFF'FFFFll)));
  }
  __device__ static double decode(type w) { return __longlong_as_double(static_cast<long long>(~w)); }
};

template <>
struct SlotWord<long long> {
  using type = unsigned long long;
  static constexpr type kSign = type{1} << 63;
  __device__ static type encode(long long v) { return static_cast<type>(v) ^ kSign; }
  __device__ static long long decode(type w) { return static_cast<long long>(w ^ kSign); }
};

// One slot: a partial of type Acc, encoded.
template <class Acc>
using Slot = typename SlotWord<Acc>::type;

template <class T>
using DeviceAtomic = ::cuda::atomic_ref<T, ::cuda::thread_scope_device>;

// Thread 0 of every block but the finisher.
template <class Acc>
__device__ __forceinline__ void publish_partial(Acc partial, Slot<Acc>* slots) {
  DeviceAtomic<Slot<Acc>>(slots[blockIdx.x]).store(SlotWord<Acc>::encode(partial), ::cuda::memory_order_relaxed);
}

// A thread's slots of one batch as loaded; 0: not published yet (or no slot of this thread).
template <class Acc, int K>
struct SlotBatch {
  Slot<Acc> w[K];
};

// What thread `self`'s slots of the first batch hold now, without waiting for any of them (so
// that their round trip can overlap other work: FinishEarly).
template <class Acc, int K, int Stride>
__device__ __forceinline__ SlotBatch<Acc, K> peek_slots(Slot<Acc>* slots, int self, int count) {
  SlotBatch<Acc, K> b;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = k * Stride + self;
    b.w[k] = i < count ? DeviceAtomic<Slot<Acc>>(slots[i]).load(::cuda::memory_order_relaxed) : 0;
  }
  return b;
}

// Thread `self`'s share of slots[0, count): slots self, self + Stride, ..., each waited for, added
// in index order and emptied. Each pass over a batch of K issues every load still needed at once,
// so a batch costs one L2 round trip after its last partial lands (a slot at a time would cost up
// to K of them, while the slowest blocks are still streaming).
// `first`: the first batch as peek_slots saw it (a published word never changes before the
// finisher empties it, so what it saw stands; the rest is polled as usual).
template <class Acc, int K, int Stride>
__device__ __forceinline__ Acc take_slots(Slot<Acc>* slots, int self, int count, const SlotBatch<Acc, K>& first = {}) {
  using Word = Slot<Acc>;
  Acc v = Acc(0);
  for (int base = 0; base < count; base += Stride * K) {
    Word w[K];
#pragma unroll
    for (int k = 0; k < K; ++k) w[k] = base == 0 ? first.w[k] : 0;
    for (;;) {
      bool done = true;
#pragma unroll
      for (int k = 0; k < K; ++k) {
        const int i = base + k * Stride + self;
        if (i < count && w[k] == 0) w[k] = DeviceAtomic<Word>(slots[i]).load(::cuda::memory_order_relaxed);
      }
#pragma unroll
      for (int k = 0; k < K; ++k) done &= base + k * Stride + self >= count || w[k] != 0;
      if (done) break;
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int i = base + k * Stride + self;
      if (i < count) {
        v += SlotWord<Acc>::decode(w[k]);
        DeviceAtomic<Word>(slots[i]).store(Word(0), ::cuda::memory_order_relaxed);
      }
    }
  }
  return v;
}

}  // namespace rb::cuda::detail
