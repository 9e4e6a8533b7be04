#pragma once
// cuda/onepass's device side (host side: onepass.cuh), for elements of any device type T (float,
// double, std::int32_t, __half, __nv_bfloat16): the looping grid's kernel, the one-tile grid's and
// the single block's, built from one tile's loads (tile_thread_sum) and one block's sum.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/elements.cuh"
#include "kernels/cuda/finish_early.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/slots.cuh"

namespace rb::cuda {
namespace detail {

// The looping grid over elements of T (a device type: DeviceElementOf). Finish (FinishEarly,
// FinishBlock, ...): how the blocks' sums of their chunks become one sum in *out.
template <class T, class Acc, class Shape, class Finish>
__global__ __launch_bounds__(Shape::threads, Shape::blocks_per_sm) void onepass_kernel(
    SplitOf<T> x, EvenShare share, Slot<Acc>* slots, Acc* out) {
  __shared__ BlockSumStorage<Acc, Shape::threads> storage;
  Finish::template finish<Shape>(x, share, slots, out, storage);
}

// This thread's loads of one tile, body[first + threadIdx.x + k x threads] for k < unroll (rows
// at or past body_n read as zeros), all issued before any is added, then added pairwise.
// 32-bit indices: a tile grid stays far below 2^31 vectors.
template <class T, class Acc, class Shape>
__device__ __forceinline__ Acc tile_thread_sum(const typename Vector16<T>::type* __restrict__ body, int first,
                                               int body_n) {
  using Vec = typename Vector16<T>::type;
  constexpr int kThreads = Shape::threads, kLoads = Shape::unroll;
  const int t = first + static_cast<int>(threadIdx.x);
  Vec v[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    v[k] = t + k * kThreads < body_n ? __ldg(body + t + k * kThreads) : Element<T>::zero();
  }
  Acc acc[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) acc[k] = Element<T>::template vector_sum<Acc>(v[k]);
  return pairwise_sum(acc);
}

// One block for n <= one tile: the tiny paths' kernel body, lean on purpose.
// 32-bit indices, three kernel parameters, no loop and no grid logic: every thread issues all of
// its Shape::unroll loads at once, predicated, then the block tree. One block of onepass_kernel
// takes about 0.2 µs longer up to 8192 floats (tuning.cuh): fixed cost, not bandwidth.
template <class T, class Acc, class Shape>
__device__ __forceinline__ void single_block_sum(const T* x, int n, Acc* out,
                                                 BlockSumStorage<Acc, Shape::threads>& storage) {
  using Vec = typename Vector16<T>::type;
  constexpr int kThreads = Shape::threads, kLoads = Shape::unroll;
  constexpr int kPerVec = SplitOf<T>::kPerVec, kSize = static_cast<int>(sizeof(T));
  constexpr int kVecShift = kPerVec == 8 ? 3 : kPerVec == 4 ? 2 : 1;  // log2(kPerVec)
  static_assert(1 << kVecShift == kPerVec);
  const int misalign = static_cast<int>(reinterpret_cast<std::uintptr_t>(x) & 15) / kSize;
  const int head = min(n, (kPerVec - misalign) & (kPerVec - 1));
  const int body_n = (n - head) >> kVecShift;
  const auto* body = reinterpret_cast<const Vec*>(x + head);
  const int t = static_cast<int>(threadIdx.x);
  Vec v[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    v[k] = t + k * kThreads < body_n ? __ldg(body + t + k * kThreads) : Element<T>::zero();
  }
  // The scalar edges, at most one element per thread (as Split::edge): threads [0, head) take the
  // head, threads [head, head + tail) the elements after the body.
  const int tail = n - head - kPerVec * body_n;
  const T e = t < head ? x[t] : t - head < tail ? x[head + kPerVec * body_n + (t - head)] : T{};
  const Acc edge = Element<T>::template widen<Acc>(e);
  Acc acc[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) acc[k] = Element<T>::template vector_sum<Acc>(v[k]);
  const Acc total = block_sum<kThreads>(pairwise_sum(acc) + edge, storage);
  if (t == 0) *out = total;
}

// What a completion that samples the input (FinishFixed::sample) loads before the block's own
// tile; NoSample for the others.
struct NoSample {};
template <class Finish, class T>
__device__ __forceinline__ auto sample_for(const SplitOf<T>& x) {
  if constexpr (requires { Finish::sample(x); }) {
    return Finish::sample(x);
  } else {
    return NoSample{};
  }
}

// A grid of one tile per block (OneTileGrid): block b sums the body's tile b (Shape::unroll rows)
// as the single block sums its one tile, block 0 the edges too, then Finish (FinishEarly).
template <class T, class Acc, class Shape, class Finish = FinishEarly>
__global__ __launch_bounds__(Shape::threads, Shape::blocks_per_sm) void one_tile_kernel(
    SplitOf<T> x, Slot<Acc>* slots, Acc* out) {
  __shared__ BlockSumStorage<Acc, Shape::threads> storage;
  const int first = static_cast<int>(blockIdx.x) * Shape::threads * Shape::unroll;
  const auto sample = sample_for<Finish>(x);  // a completion's loads of the input (FinishFixed) first
  // The edges' loads next, so that they are in flight with the tile's rather than after its adds.
  const T e = blockIdx.x == 0 ? x.edge(static_cast<int>(threadIdx.x)) : T{};
  const Acc v = tile_thread_sum<T, Acc, Shape>(x.body, first, static_cast<int>(x.body_n)) +
                Element<T>::template widen<Acc>(e);
  if constexpr (std::is_same_v<decltype(sample), const NoSample>) {
    Finish::template complete<Shape>(v, slots, out, storage);
  } else {
    Finish::template complete<Shape>(v, slots, out, storage, sample);
  }
}

template <class T, class Acc, class Shape>
__global__ __launch_bounds__(Shape::threads) void single_block_kernel(const T* x, int n, Acc* out) {
  __shared__ BlockSumStorage<Acc, Shape::threads> storage;
  single_block_sum<T, Acc, Shape>(x, n, out, storage);
}

}  // namespace detail
}  // namespace rb::cuda
