#pragma once
// Completion layer of cuda/onepass: how the blocks of one grid hand their partials to the block
// that adds them, with no fence and no second kernel.
//
// Every block's thread 0 stores its partial into its own slot word (one relaxed store). One block,
// the finisher, then polls every slot until the word is non-zero, reads the partial from that
// same word, and puts the slot back to zero. A partial and its "written" flag are one word, so
// the poll needs no acquire and no block needs a fence. Who finishes and how (Completion;
// OnepassBySize picks by n from the sweeps quoted in tuning.cuh):
//   finisher_polls  the grid's last block, its warp 0 polling, with no atomic read-modify-write
//                   at all: it learns the last partial one L2 round trip after it lands.
//   finisher_early  the same, but its warp 0 issues the loads of the other blocks' slots before
//                   its own block tree, so that round trip overlaps the tree, and its own partial
//                   never goes through a slot: 0.1-0.4 µs faster on grids of 8-64 blocks
//                   (diagnose/16_early). 256 slots per batch (more would spill across the tree),
//                   so a grid of more than 257 blocks pays a second round trip.
//                   cuda/onepass up to 2^22 (grids of at most 256 blocks).
//   finisher_block  the same block, all of its threads polling (its own partial stays in
//                   registers), then the block tree: ~0.3 µs dearer on a small grid, 0.3-0.5 µs
//                   cheaper from 2^24. cuda/onepass above 2^22.
//   ticket_polls    the block that draws the last ticket (relaxed fetch_add), then polls: two
//                   round trips after the last partial, the ticket's and the poll's. 0.1-0.6 µs
//                   slower than finisher_polls once the poll covers a whole grid in one batch.
//   ticket_fenced   an acq_rel ticket (the classic `__threadfence(); atomicAdd()` pattern): every
//                   slot is visible to the last block, at the price of a fence on every block's
//                   critical path. 0.3-0.6 µs slower than ticket_polls.
// Tried and dropped (results/h200/diagnose/7 and 8; the code is in git history at 7f70128 and
// e577c7a): every block loading all the slots while its ticket is in flight, so the last one
// holds them when the ticket returns (0.2-0.7 µs slower than finisher_polls: 264 blocks' extra
// loads); an extra block that reads no input and polls from the start (no better, often worse).
//
// Why the last block cannot wait forever: it waits only for blocks with smaller indices, which the
// hardware dispatches before it (blocks start in index order, the same property CUB's decoupled
// look-back scan relies on), so they are running or done by the time it polls; and the grid is
// never larger than what the device holds at once (Onepass::max_grid), so even out-of-order
// dispatch would find room for every block. The ticket variants wait only for stores already
// issued.
//
// Encoding: a slot holds the partial's bits inverted, after any NaN is made the canonical quiet
// NaN. Zero is then "empty": it would be the inverse of an all-ones NaN, which canonicalising
// rules out. Every launch leaves every slot it used at zero, and the next launch in the stream
// starts after the whole grid has finished, so prepare() zeroes the scratch once and no launch
// ever needs a memset.
//
// Deterministic: the finisher's thread t adds partials t, t + s, t + 2s, ... in index order (s = 32
// lanes, or the block's threads), then the fixed tree of warp_sum or block_sum combines them, and
// finisher_early and finisher_block add their own partial last: the order depends on the grid alone, never on which
// block finished when.
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/warp_sum.cuh"

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

template <class T>
using DeviceAtomic = ::cuda::atomic_ref<T, ::cuda::thread_scope_device>;

// Thread 0 of every block.
template <class Acc>
__device__ __forceinline__ void publish_partial(Acc partial, typename SlotWord<Acc>::type* slots) {
  DeviceAtomic<typename SlotWord<Acc>::type>(slots[blockIdx.x]).store(SlotWord<Acc>::encode(partial),
                                                                     ::cuda::memory_order_relaxed);
}

// Which block adds the partials (above; tuning rows tune/onepass/*_ticket, *_fenced, *_block,
// *_early).
enum class Completion { finisher_polls, finisher_block, finisher_early, ticket_polls, ticket_fenced };

// Thread 0 of every block, after publish_partial: true in the block that adds the partials.
template <Completion C>
__device__ __forceinline__ bool is_finisher(unsigned* ticket) {
  if constexpr (C == Completion::finisher_polls) {
    return blockIdx.x + 1 == gridDim.x;
  } else {
    constexpr auto order = C == Completion::ticket_fenced ? ::cuda::memory_order_acq_rel : ::cuda::memory_order_relaxed;
    return DeviceAtomic<unsigned>(*ticket).fetch_add(1u, order) == gridDim.x - 1;
  }
}

template <class Acc, int K>
struct SlotBatch {
  typename SlotWord<Acc>::type w[K];  // 0: not published yet (or no slot of this thread)
};

// What thread `self`'s slots of the first batch hold now, without waiting for any of them
// (finisher_early issues these loads before its own block tree, so the round trip overlaps it).
template <class Acc, int K, int Stride>
__device__ __forceinline__ SlotBatch<Acc, K> peek_slots(typename SlotWord<Acc>::type* slots, int self, int count) {
  SlotBatch<Acc, K> b;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = k * Stride + self;
    b.w[k] = i < count ? DeviceAtomic<typename SlotWord<Acc>::type>(slots[i]).load(::cuda::memory_order_relaxed) : 0;
  }
  return b;
}

// The finisher's share of thread `self` (its lane, or its index in the block): slots self,
// self + Stride, ... below count, each waited for, added in index order and emptied. Each pass over
// a batch of K issues every load still needed at once, so the batch costs one L2 round trip after
// its last partial lands (a slot at a time would cost up to K of them, while the slowest blocks
// are still streaming).
// `first`: the first batch as peek_slots saw it (a published word never changes before the
// finisher empties it, so what it saw stands; the rest is polled as usual).
template <class Acc, int K, int Stride>
__device__ __forceinline__ Acc take_slots(typename SlotWord<Acc>::type* slots, int self, int count,
                                          const SlotBatch<Acc, K>& first = {}) {
  using Word = typename SlotWord<Acc>::type;
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

// Warp 0 of the finisher, for finisher_polls and the tickets (tuning rows now; finisher_early
// inlines its own, onepass.cuh): the sum of slots[0, count), valid in every lane (and the
// ticket reset, when there is one). Batch = 16 covers 512 slots in one batch: every grid of the
// tuned shapes (at most 132 SMs x 2 blocks = 264 on an H200) costs one round trip, not two (with
// Batch = 8, grids of 257-264 blocks took a second batch, after the first: 0.5-1 µs more at 2^23
// and up, results/h200/kernels/ vs kernels_batch16/).
// It spills (40 bytes in float, 96 in double, in the completion only) and is kept that way: a
// spill-free form of take_slots (each thread's loop starting at its own index, same arithmetic)
// measured 0.3-0.6 µs slower on grids of 8-16 blocks (n = 2^15, 2^16;
// results/h200/kernels_spillfree/). ptxas's schedule decides it, so after any change here compare
// `nvcc -Xptxas -v` and the sweep at 2^15 and 2^16.
template <class Acc, Completion C, int Batch = 16>
__device__ __forceinline__ Acc collect_partials(typename SlotWord<Acc>::type* slots, int count, unsigned* ticket) {
  if constexpr (C == Completion::ticket_fenced) __syncwarp();  // lane 0's acquire, to every lane
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const Acc v = take_slots<Acc, Batch, kWarpSize>(slots, lane, count);
  if constexpr (C != Completion::finisher_polls) {
    if (lane == 0) DeviceAtomic<unsigned>(*ticket).store(0u, ::cuda::memory_order_relaxed);
  }
  return warp_sum(v);
}

// Every thread of the finisher (finisher_block): the sum of slots[0, count) in thread 0, four
// slots per thread per batch (one batch for up to 4 x Threads blocks), then the block tree. The
// caller puts a __syncthreads() between its last use of storage and this call.
template <class Acc, int Threads>
__device__ __forceinline__ Acc collect_partials_block(typename SlotWord<Acc>::type* slots, int count,
                                                      BlockSumStorage<Acc, Threads>& storage) {
  return block_sum<Threads>(take_slots<Acc, 4, Threads>(slots, static_cast<int>(threadIdx.x), count), storage);
}

}  // namespace rb::cuda::detail
