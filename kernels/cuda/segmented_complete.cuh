#pragma once
// How cuda/segmented completes outputs that several blocks add (segmented_rows.cuh,
// segmented_cols.cuh), in the same launch: each block writes its partials, then counts itself in
// (a fence before an atomic add); the last to arrive puts the counter back to 0, adds the partials
// in block order and zeroes them, so every launch leaves the scratch all zero, as prepare() left
// it, whatever shape comes next.
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/segmented_plan.hpp"

namespace rb::cuda::segmented_detail {

constexpr int kThreads = kSegmentedThreads;

// Counts this block in to `counter` after its partials (written by any of its threads, each of
// which fenced them) and says whether it arrived last; the last one puts the counter back to 0.
__device__ __forceinline__ bool arrived_last(unsigned* counter, unsigned blocks) {
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned before = atomicAdd(counter, 1u);
    last = before == blocks - 1;
    if (last) *counter = 0;
  }
  __syncthreads();
  if (last) __threadfence();  // the others' partials are read after their counts
  return last;
}

// Threads per output when `stride` outputs share a block: the largest power of two that fits.
__device__ __forceinline__ int share_of(int stride) {
  int share = 1;
  while (2 * share * stride <= kThreads) share *= 2;
  return share;
}

// part[r * stride + o] for r < share (every thread's value written before the call) added over r
// in a fixed tree, into part[o]. Every thread of the block calls it.
template <class Acc>
__device__ __forceinline__ void tree_over_shares(Acc* part, int share, int stride) {
  const int t = static_cast<int>(threadIdx.x);
  __syncthreads();
  for (int width = share / 2; width > 0; width /= 2) {
    if (t < width * stride) part[t] += part[t + width * stride];
    __syncthreads();
  }
}

// The last block's sum of `parts` partials for each of outputs [0, count) (partials[b * stride +
// o]), each partial zeroed by the thread that read it. With a stride of at least the block's size,
// in block order; under it, `share` threads split each output's blocks by residue and their sums
// meet in a fixed tree. The order depends on parts and stride alone.
template <class Acc>
__device__ void finish_outputs(Acc* partials, std::int64_t parts, int stride, int count, Acc* out) {
  const int t = static_cast<int>(threadIdx.x);
  if (stride >= kThreads) {
    for (int o = t; o < count; o += kThreads) {
      Acc a = 0;
#pragma unroll 16
      for (std::int64_t b = 0; b < parts; ++b) a += __ldcg(partials + b * stride + o);
      out[o] = a;
      for (std::int64_t b = 0; b < parts; ++b) partials[b * stride + o] = 0;
    }
    return;
  }
  __shared__ Acc part[kThreads];
  const int share = share_of(stride);
  const int o = t % stride, r = t / stride;
  Acc a = 0;
  if (r < share && o < count) {
#pragma unroll 16
    for (std::int64_t b = r; b < parts; b += share) a += __ldcg(partials + b * stride + o);
    for (std::int64_t b = r; b < parts; b += share) partials[b * stride + o] = 0;
  }
  part[t] = a;
  tree_over_shares(part, share, stride);
  if (t < count) out[t] = part[t];
}

constexpr std::int64_t kFanIn = kSegmentedFanIn;

// Block `b` of `parts` (whose partials for outputs [0, count) are in p1[b * stride + o]) counts
// itself in. Up to kFanIn parts, the last block adds them all. Beyond, the last of each run of
// kFanIn consecutive blocks adds the run's partials into p2[run * stride + o], and the last run to
// finish adds those: every finisher reads at most kFanIn partials per output, and the runs'
// finishers work at once. counters: one per run, then one for the runs.
template <class Acc>
__device__ void complete(Acc* p1, Acc* p2, unsigned* counters, std::int64_t parts, std::int64_t b, int stride,
                         int count, Acc* out) {
  const std::int64_t runs = ceil_div(parts, kFanIn);
  if (runs == 1) {
    if (arrived_last(counters, static_cast<unsigned>(parts))) finish_outputs(p1, parts, stride, count, out);
    return;
  }
  const std::int64_t run = b / kFanIn, first = run * kFanIn;
  const std::int64_t members = parts - first < kFanIn ? parts - first : kFanIn;
  if (!arrived_last(counters + run, static_cast<unsigned>(members))) return;
  finish_outputs(p1 + first * stride, members, stride, count, p2 + run * stride);
  __threadfence();
  if (arrived_last(counters + runs, static_cast<unsigned>(runs))) finish_outputs(p2, runs, stride, count, out);
}

}  // namespace rb::cuda::segmented_detail
