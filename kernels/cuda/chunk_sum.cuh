#pragma once
// Agent layer: one block's sum of its chunk of the body, plus the scalar edges, in thread 0.
// Shared by vec4, vec4_ilp4, onepass, onepass_accf64, the typed onepass and ref/read; they differ
// only in the launch shape (tuning.cuh), the element and accumulator types, the grid, and what
// they do with the block's sum.
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/elements.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/tuning.cuh"

namespace rb::cuda {

// body[row], or zeros for a row at or past end (a vector of T, layout.cuh: Vector16).
template <class T = float, class Vec = typename Vector16<T>::type>
__device__ __forceinline__ Vec load_row(const Vec* __restrict__ body, std::int64_t row, std::int64_t end) {
  return row < end ? __ldg(body + row) : Element<T>::zero();
}

// The accumulators added pairwise, in a fixed order: ((a0 + a1) + (a2 + a3)) + ...
template <class Acc, int N>
__device__ __forceinline__ Acc pairwise_sum(Acc (&acc)[N]) {
#pragma unroll
  for (int width = 1; width < N; width *= 2) {
#pragma unroll
    for (int k = 0; k + width < N; k += 2 * width) acc[k] += acc[k + width];
  }
  return acc[0];
}

// This thread's part of body[begin, end): vectors of T begin + threadIdx.x, then every Threads-th,
// in steps of Unroll rows (Shape: tuning.cuh's LaunchShape). Each step issues Unroll independent
// 16-byte loads (__ldg: the input is never written) before consuming any, into Unroll
// accumulators, so a warp keeps Unroll loads in flight instead of one: HBM's bandwidth needs bytes
// in flight (Little's law).
// `#pragma unroll 1` keeps Unroll honest: left alone, nvcc -O3 unrolls this loop 4x more (visible
// in the PTX) and ptxas may hoist those loads too, so the loads in flight would be the compiler's
// choice, not the shape's, and vec4 would quietly become an ILP kernel.
template <class Acc, class Shape, class T = float>
__device__ __forceinline__ Acc thread_chunk_sum(const typename Vector16<T>::type* __restrict__ body, Range r) {
  using Vec = typename Vector16<T>::type;
  constexpr int kThreads = Shape::threads, kUnroll = Shape::unroll;
  constexpr std::int64_t kStep = std::int64_t{kUnroll} * kThreads;
  Acc acc[kUnroll];
#pragma unroll
  for (int k = 0; k < kUnroll; ++k) acc[k] = Acc(0);

  std::int64_t i = r.begin + threadIdx.x;
  const std::int64_t full_steps_end = r.end - std::int64_t{kUnroll - 1} * kThreads;
#pragma unroll 1
  for (; i < full_steps_end; i += kStep) {
    Vec v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) v[k] = __ldg(body + i + k * kThreads);
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) acc[k] += Element<T>::template vector_sum<Acc>(v[k]);
  }
  // Fewer than Unroll rows left (a chunk whose length is not a whole number of tiles, or the
  // body's partial last row): the same step with each load predicated, so the rest still costs
  // one memory round trip, not one per row.
  if (i < r.end) {
    Vec v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) v[k] = load_row<T>(body, i + k * kThreads, r.end);
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) acc[k] += Element<T>::template vector_sum<Acc>(v[k]);
  }

  return pairwise_sum(acc);
}

// This thread's part of the block's chunk (share.block(blockIdx.x)), plus its scalar edge in
// block 0: what block_chunk_sum adds over the block.
template <class Acc, class Shape, class T>
__device__ __forceinline__ Acc thread_share(const SplitOf<T>& x, const EvenShare& share) {
  Acc v = thread_chunk_sum<Acc, Shape, T>(x.body, share.block(blockIdx.x));
  if (blockIdx.x == 0) v += Element<T>::template widen<Acc>(x.edge(static_cast<int>(threadIdx.x)));
  return v;
}

// A completion's finish() (what onepass_kernel calls) from its complete(v, slots, out, storage),
// which takes this thread's share: a completion derives from it (FinishEarly).
template <class Finish>
struct CompletesShare {
  template <class Shape, class Acc, class T, class Word>
  __device__ __forceinline__ static void finish(const SplitOf<T>& x, const EvenShare& share, Word* slots, Acc* out,
                                                BlockSumStorage<Acc, Shape::threads>& storage) {
    Finish::template complete<Shape>(thread_share<Acc, Shape, T>(x, share), slots, out, storage);
  }
};

// The block's chunk (share.block(blockIdx.x)) summed, block 0 also adding the head and tail.
// Valid in thread 0. The additions' order depends only on the split, the share and the shape,
// never on timing: the same input pointer, n and grid always give the same bits.
template <class Acc, class Shape, class T>
__device__ __forceinline__ Acc block_chunk_sum(const SplitOf<T>& x, const EvenShare& share,
                                               BlockSumStorage<Acc, Shape::threads>& storage) {
  return block_sum<Shape::threads>(thread_share<Acc, Shape, T>(x, share), storage);
}

}  // namespace rb::cuda
