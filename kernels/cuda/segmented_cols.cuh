#pragma once
// cuda/segmented's kernels along columns (dim=0): cols_flat for fewer columns than a warp's
// vectors, cols_tile for more, chosen by the plan (segmented_plan.hpp).
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/cuda/segmented.cuh"

namespace rb::cuda::segmented_detail {

// Groups of kV consecutive elements at x + i * stride for i in [i0, i1), element j of each added
// into acc[j]: one 16-byte vector per group when Vectors (x and the stride aligned), else kV
// elements; four groups in flight.
template <class D, class Acc, bool Vectors, int kV>
__device__ __forceinline__ void add_columns(const D* __restrict__ x, std::int64_t i0, std::int64_t i1,
                                            std::int64_t stride, Acc (&acc)[kV]) {
  using Vec = typename Vector16<D>::type;
  constexpr int kUnroll = 4;
  const auto load = [&](std::int64_t i, Acc(&e)[kV]) {
    if constexpr (Vectors) {
      widen_each<D>(__ldg(reinterpret_cast<const Vec*>(x + i * stride)), e);
    } else {
#pragma unroll
      for (int j = 0; j < kV; ++j) e[j] = widen<D, Acc>(x[i * stride + j]);
    }
  };
  std::int64_t i = i0;
  for (; i + kUnroll <= i1; i += kUnroll) {
    Acc e[kUnroll][kV];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) load(i + k, e[k]);
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
#pragma unroll
      for (int j = 0; j < kV; ++j) acc[j] += e[k][j];
    }
  }
  for (; i < i1; ++i) {
    Acc e[kV];
    load(i, e);
#pragma unroll
    for (int j = 0; j < kV; ++j) acc[j] += e[j];
  }
}

// cols_flat: fewer columns than a warp's vectors. A step of `step` rows is a whole number of
// vectors, at most one per thread, so thread t always reads vector t of a step and its elements
// always fall in the same columns; a block adds `slab` steps, then its threads' sums meet per
// column in shared memory, and the grid's partials per column are added by the last block.
template <class D, class Acc>
__global__ void __launch_bounds__(kThreads) cols_flat(const D* __restrict__ in, std::int64_t rows, std::int64_t n,
                                                      std::int64_t step, std::int64_t slab, bool vectors,
                                                      unsigned* counter, Acc* partials, Acc* __restrict__ out) {
  constexpr int kV = kPerVec<D>;
  __shared__ Acc sums[kThreads * kV];
  const std::int64_t step_elems = step * n;
  const int step_vecs = static_cast<int>(step_elems / kV);
  const std::int64_t steps = rows / step;
  const std::int64_t s0 = blockIdx.x * slab, s1 = smaller(steps, s0 + slab);
  const int t = static_cast<int>(threadIdx.x);
  Acc acc[kV] = {};
  if (t < step_vecs) {
    if (vectors) add_columns<D, Acc, true>(in + t * kV, s0, s1, step_elems, acc);
    else add_columns<D, Acc, false>(in + t * kV, s0, s1, step_elems, acc);
    // The rows after the last whole step (fewer than `step`), in the last block.
    if (blockIdx.x == gridDim.x - 1) {
      const std::int64_t end = rows * n;
#pragma unroll
      for (int j = 0; j < kV; ++j) {
        const std::int64_t e = steps * step_elems + t * kV + j;
        if (e < end) acc[j] += widen<D, Acc>(in[e]);
      }
    }
  }
#pragma unroll
  for (int j = 0; j < kV; ++j) sums[t * kV + j] = acc[j];
  __syncthreads();
  // Column o's step rows: `share` threads take rows by residue, then a tree (n < 256 here).
  __shared__ Acc part[kThreads];
  const int len = static_cast<int>(n), share = share_of(len), o = t % len, r = t / len;
  Acc a = 0;
  if (r < share) {
    for (int q = r; q < step; q += share) a += sums[q * len + o];
  }
  part[t] = a;
  tree_over_shares(part, share, len);
  const bool alone = gridDim.x == 1;
  if (t < len) {
    if (alone) {
      out[t] = part[t];
    } else {
      partials[blockIdx.x * n + t] = part[t];
      __threadfence();
    }
  }
  if (alone) return;
  complete(partials, partials + std::int64_t{gridDim.x} * n, counter, gridDim.x, blockIdx.x, static_cast<int>(n),
           static_cast<int>(n), out);
}

// cols_tile: a tile is `kTile` columns (a warp's width: 32 vectors, or 32 columns when `Vectors` is
// false). Stack = 8: a block's warps share one tile over a slab of rows (warp w adds rows w, w + 8,
// ... of it, four in flight), their sums meet per column in shared memory, and with several slabs
// the last block of a tile adds their partials. Stack = 1 (fewer rows than would keep 8 warps
// busy): each warp owns a tile over every row.
template <class D, class Acc, bool Vectors, int Stack>
__global__ void __launch_bounds__(kThreads) cols_tile(const D* __restrict__ in, std::int64_t rows, std::int64_t n,
                                                      std::int64_t parts, std::int64_t slab, unsigned* counters,
                                                      Acc* partials, Acc* __restrict__ out) {
  constexpr int kV = Vectors ? kPerVec<D> : 1, kTile = kWarpSize * kV;
  static_assert(Stack == kWarps || Stack == 1, "warps share a tile, or each owns one");
  __shared__ Acc sums[Stack][kTile];
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize, warp = static_cast<int>(threadIdx.x) / kWarpSize;
  const std::int64_t tile = Stack == 1 ? std::int64_t{blockIdx.x} * kWarps + warp : blockIdx.x / parts;
  const std::int64_t p = Stack == 1 ? 0 : blockIdx.x % parts;
  const std::int64_t r0 = p * slab, r1 = smaller(rows, r0 + slab);
  const std::int64_t c = tile * kTile + std::int64_t{lane} * kV;  // this lane's first column
  Acc acc[kV] = {};
  if (c < n) {
    const std::int64_t first = r0 + (Stack == 1 ? 0 : warp);  // this warp's rows: first, + Stack, ...
    if (first < r1) add_columns<D, Acc, Vectors>(in + c + first * n, 0, ceil_div(r1 - first, Stack), Stack * n, acc);
  }
  if constexpr (Stack == 1) {
    // A lane's columns are contiguous: 16-byte stores where they are aligned and whole.
    if constexpr (kV % 4 == 0 && sizeof(Acc) == 4) {
      if (c + kV <= n && reinterpret_cast<std::uintptr_t>(out + c) % 16 == 0) {
#pragma unroll
        for (int j = 0; j < kV; j += 4) {
          *reinterpret_cast<float4*>(out + c + j) = make_float4(acc[j], acc[j + 1], acc[j + 2], acc[j + 3]);
        }
        return;
      }
    }
#pragma unroll
    for (int j = 0; j < kV; ++j) {
      if (c + j < n) out[c + j] = acc[j];
    }
    return;
  } else {
#pragma unroll
    for (int j = 0; j < kV; ++j) sums[warp][lane * kV + j] = acc[j];
    __syncthreads();
    const std::int64_t width = smaller(kTile, n - tile * kTile);
    for (int k = static_cast<int>(threadIdx.x); k < width; k += kThreads) {
      Acc a = 0;
#pragma unroll
      for (int w = 0; w < Stack; ++w) a += sums[w][k];
      if (parts == 1) {
        out[tile * kTile + k] = a;
      } else {
        partials[(tile * parts + p) * kTile + k] = a;
        __threadfence();
      }
    }
    if (parts == 1) return;
    const std::int64_t tiles = ceil_div(n, kTile), runs = ceil_div(parts, kFanIn);
    complete(partials + tile * parts * kTile, partials + (tiles * parts + tile * runs) * kTile,
             counters + tile * (runs + 1), parts, p, kTile, static_cast<int>(width), out + tile * kTile);
  }
}

}  // namespace rb::cuda::segmented_detail
