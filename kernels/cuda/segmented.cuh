#pragma once
// What cuda/segmented's kernels (segmented.hpp) share: the device element type D widened to Acc,
// vector by vector. The kernels, one per plan (segmented_plan.hpp): segmented_rows.cuh and
// segmented_cols.cuh; outputs that several blocks add are completed in the same launch
// (segmented_complete.cuh).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/elements.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/segmented_complete.cuh"
#include "kernels/cuda/segmented_plan.hpp"

namespace rb::cuda::segmented_detail {

constexpr int kWarps = kThreads / kWarpSize;

template <class D>
inline constexpr int kPerVec = static_cast<int>(16 / sizeof(D));

// The elements of one 16-byte vector, each converted to Acc.
template <class D, class Acc, class Vec>
__device__ __forceinline__ void widen_each(const Vec& v, Acc (&out)[kPerVec<D>]) {
  D e[kPerVec<D>];
  std::memcpy(e, &v, sizeof e);
#pragma unroll
  for (int j = 0; j < kPerVec<D>; ++j) out[j] = Element<D>::template widen<Acc>(e[j]);
}

template <class D, class Acc>
__device__ __forceinline__ Acc widen(D v) {
  return Element<D>::template widen<Acc>(v);
}

// The smaller of two sizes (device code has no std::min).
__device__ __forceinline__ std::int64_t smaller(std::int64_t a, std::int64_t b) { return a < b ? a : b; }

}  // namespace rb::cuda::segmented_detail
