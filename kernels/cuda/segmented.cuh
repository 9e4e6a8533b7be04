#pragma once
// cuda/segmented's kernels (segmented.hpp): one per plan (segmented_plan.hpp), over the device
// element type D, adding in Acc. Outputs that several blocks add are completed in the same launch
// (segmented_complete.cuh).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

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

// Vectors i, i + stride, ... of body below end, added into kUnroll accumulators with kUnroll loads
// in flight.
template <class D, class Acc, int kUnroll>
__device__ __forceinline__ void add_strided(const typename Vector16<D>::type* body, std::int64_t i, std::int64_t end,
                                            std::int64_t stride, Acc (&acc)[kUnroll]) {
  using Vec = typename Vector16<D>::type;
  for (; i + (kUnroll - 1) * stride < end; i += kUnroll * stride) {
    Vec x[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) x[k] = __ldg(body + i + k * stride);
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) acc[k] += Element<D>::template vector_sum<Acc>(x[k]);
  }
  for (; i < end; i += stride) acc[0] += Element<D>::template vector_sum<Acc>(__ldg(body + i));
}

// x[0, elems) copied into shared memory by the block: 16-byte loads, eight in flight per thread,
// when x is aligned, then single elements.
template <class D>
__device__ __forceinline__ void stage(const D* __restrict__ x, std::int64_t elems, bool aligned, D* tile) {
  using Vec = typename Vector16<D>::type;
  constexpr int kLoads = 8;
  std::int64_t done = 0;
  if (aligned) {
    const std::int64_t vecs = elems / kPerVec<D>;
    const Vec* v = reinterpret_cast<const Vec*>(x);
    Vec* dst = reinterpret_cast<Vec*>(tile);
    for (std::int64_t base = 0; base < vecs; base += std::int64_t{kLoads} * kThreads) {
      Vec in[kLoads];
#pragma unroll
      for (int k = 0; k < kLoads; ++k) {
        const std::int64_t i = base + k * kThreads + threadIdx.x;
        if (i < vecs) in[k] = __ldg(v + i);
      }
#pragma unroll
      for (int k = 0; k < kLoads; ++k) {
        const std::int64_t i = base + k * kThreads + threadIdx.x;
        if (i < vecs) dst[i] = in[k];
      }
    }
    done = vecs * kPerVec<D>;
  }
  for (std::int64_t i = done + threadIdx.x; i < elems; i += kThreads) tile[i] = x[i];
}

// Rows [0, count) of a tile of rows of `len` units (elements, or 16-byte vectors), thread t adding
// rows t, t + kThreads, ... from unit r mod len onwards: a rotation that spreads a warp's rows
// over the banks. A tile holds at most 32 KiB, so its indices fit in 32 bits.
template <class Acc, class U, class Value>
__device__ __forceinline__ void add_rows_rotated(const U* tile, int len, int count, Acc* out, Value value) {
  const int step = kThreads % len;
  int first = static_cast<int>(threadIdx.x) % len;
  for (int r = static_cast<int>(threadIdx.x); r < count; r += kThreads) {
    const U* row = tile + r * len;
    Acc a = 0;
    for (int k = first; k < len; ++k) a += value(row[k]);
    for (int k = 0; k < first; ++k) a += value(row[k]);
    out[r] = a;
    first += step;
    if (first >= len) first -= len;
  }
}

// rows_tile: rows of at most 128 bytes. The block stages a tile of whole rows in shared memory
// (every tile starts 16-byte aligned when the input does), then each thread adds rows, as 16-byte
// vectors where rows are whole vectors.
template <class D, class Acc>
__global__ void __launch_bounds__(kThreads) rows_tile(const D* __restrict__ in, std::int64_t rows, std::int64_t n,
                                                      std::int64_t tile_rows, bool aligned, Acc* __restrict__ out) {
  using Vec = typename Vector16<D>::type;
  extern __shared__ __align__(16) unsigned char smem[];
  D* tile = reinterpret_cast<D*>(smem);
  const int len = static_cast<int>(n);
  for (std::int64_t r0 = blockIdx.x * tile_rows; r0 < rows; r0 += std::int64_t{gridDim.x} * tile_rows) {
    const int count = static_cast<int>(rows - r0 < tile_rows ? rows - r0 : tile_rows);
    stage(in + r0 * n, count * n, aligned, tile);
    __syncthreads();
    if (len % kPerVec<D> == 0) {
      add_rows_rotated<Acc>(reinterpret_cast<const Vec*>(tile), len / kPerVec<D>, count, out + r0,
                            [](const Vec& v) { return Element<D>::template vector_sum<Acc>(v); });
    } else {
      add_rows_rotated<Acc>(tile, len, count, out + r0, [](D v) { return widen<D, Acc>(v); });
    }
    __syncthreads();
  }
}

// Every vector of in[0, vecs) streamed by the grid as a plain read streams it: each block a tile of
// kUnroll x kThreads vectors at a time, all kUnroll loads a thread issued before any is used, then
// f(i, in[i]) for each in order. f runs in every lane, past `vecs` too (with zeros), so that lanes
// may meet in a butterfly.
template <class D, class F>
__device__ __forceinline__ void stream_vectors(const typename Vector16<D>::type* __restrict__ in, std::int64_t vecs,
                                               F f) {
  using Vec = typename Vector16<D>::type;
  constexpr int kUnroll = 8;
  constexpr std::int64_t kTile = std::int64_t{kUnroll} * kThreads;
  for (std::int64_t base = blockIdx.x * kTile; base < vecs; base += std::int64_t{gridDim.x} * kTile) {
    Vec x[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const std::int64_t i = base + k * kThreads + threadIdx.x;
      x[k] = i < vecs ? __ldg(in + i) : Element<D>::zero();
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) f(base + k * kThreads + threadIdx.x, x[k]);
  }
}

// rows_tile's register path, for rows of V whole 16-byte vectors (V = 1, 2, 4, 8) with the input
// aligned: the input streamed (stream_vectors). The V vectors of a row sit in V consecutive lanes
// (a tile is a whole number of rows); their sums meet in an xor butterfly and the first lane
// writes the row.
template <class D, class Acc, int V>
__global__ void __launch_bounds__(kThreads)
    rows_vec(const typename Vector16<D>::type* __restrict__ in, std::int64_t rows, Acc* __restrict__ out) {
  using Vec = typename Vector16<D>::type;
  const std::int64_t vecs = rows * V;
  stream_vectors<D>(in, vecs, [&](std::int64_t i, const Vec& v) {
    Acc a = Element<D>::template vector_sum<Acc>(v);
#pragma unroll
    for (int off = V / 2; off > 0; off /= 2) a += __shfl_xor_sync(kFullWarp, a, off);
    if (i < vecs && threadIdx.x % V == 0) out[i / V] = a;
  });
}

// rows_tile's register path for rows of N elements that R = kPerVec / N of fill one 16-byte
// vector (R = 2, 4, 8), with the input and the outputs aligned: the vectors streamed
// (stream_vectors), each thread adding its vector's R rows in order and storing their R sums with
// 16-byte stores where R x sizeof(Acc) allows; block 0 adds the last rows % R rows element by element.
// Eight float sums (32 bytes a lane) go out as whole 32-byte sectors: lanes 2j and 2j+1 swap a
// half, so that each store writes one vector's sums from two lanes (a lane's own two halves, 32
// bytes apart in a warp's store, would write every sector in two halves).
template <class D, class Acc, int R>
__global__ void __launch_bounds__(kThreads)
    rows_packed(const D* __restrict__ x, std::int64_t rows, Acc* __restrict__ out) {
  using Vec = typename Vector16<D>::type;
  constexpr int kN = kPerVec<D> / R;
  const std::int64_t vecs = rows / R;
  stream_vectors<D>(reinterpret_cast<const Vec*>(x), vecs, [&](std::int64_t i, const Vec& v) {
    Acc e[kPerVec<D>];
    widen_each<D>(v, e);
    Acc sums[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      sums[r] = e[r * kN];
#pragma unroll
      for (int j = 1; j < kN; ++j) sums[r] += e[r * kN + j];
    }
    if constexpr (std::is_same_v<Acc, float> && R == 8) {
      // i's parity is the lane's (stream_vectors' tiles start even); every lane swaps, past vecs too.
      const bool odd = i & 1;
      const float4 lo = make_float4(sums[0], sums[1], sums[2], sums[3]);
      const float4 hi = make_float4(sums[4], sums[5], sums[6], sums[7]);
      const float4 send = odd ? lo : hi;
      const float4 got = make_float4(__shfl_xor_sync(kFullWarp, send.x, 1), __shfl_xor_sync(kFullWarp, send.y, 1),
                                     __shfl_xor_sync(kFullWarp, send.z, 1), __shfl_xor_sync(kFullWarp, send.w, 1));
      auto* o4 = reinterpret_cast<float4*>(out);
      const std::int64_t even = i & ~std::int64_t{1};  // the pair's vectors: even, even + 1
      if (even < vecs) o4[2 * even + (odd ? 1 : 0)] = odd ? got : lo;
      if (even + 1 < vecs) o4[2 * even + (odd ? 3 : 2)] = odd ? hi : got;
      return;
    }
    if (i >= vecs) return;
    if constexpr (std::is_same_v<Acc, float> && R == 4) {
      reinterpret_cast<float4*>(out)[i] = make_float4(sums[0], sums[1], sums[2], sums[3]);
    } else if constexpr (std::is_same_v<Acc, float> && R == 2) {
      reinterpret_cast<float2*>(out)[i] = make_float2(sums[0], sums[1]);
    } else {
#pragma unroll
      for (int r = 0; r < R; ++r) out[i * R + r] = sums[r];
    }
  });
  if (blockIdx.x == 0) {
    for (std::int64_t r = vecs * R + threadIdx.x; r < rows; r += kThreads) {
      Acc a = widen<D, Acc>(x[r * kN]);
      for (int j = 1; j < kN; ++j) a += widen<D, Acc>(x[r * kN + j]);
      out[r] = a;
    }
  }
}

// rows_warp: Lanes lanes per row (a power of two, 4 to 32). Each row splits into a scalar head up
// to its first 16-byte boundary, 16-byte vectors (lane l takes l, l + Lanes, ...; four in flight)
// and a scalar tail; the lanes' sums meet in an xor butterfly within the group.
template <class D, class Acc, int Lanes>
__global__ void __launch_bounds__(kThreads) rows_warp(const D* __restrict__ in, std::int64_t rows, std::int64_t n,
                                                      Acc* __restrict__ out) {
  constexpr int kUnroll = 4, kGroupsPerWarp = kWarpSize / Lanes;
  const int lane = static_cast<int>(threadIdx.x) % Lanes;
  const std::int64_t warp = (std::int64_t{blockIdx.x} * kThreads + threadIdx.x) / kWarpSize;
  const std::int64_t warps = std::int64_t{gridDim.x} * kWarps;
  const int group = static_cast<int>(threadIdx.x % kWarpSize) / Lanes;
  for (std::int64_t base = warp * kGroupsPerWarp; base < rows; base += warps * kGroupsPerWarp) {
    const std::int64_t r = base + group;
    Acc acc[kUnroll] = {};
    if (r < rows) {
      const SplitOf<D> row = split_unchecked(in + r * n, n);
      for (int e = lane; e < row.head_n; e += Lanes) acc[0] += widen<D, Acc>(row.head[e]);
      for (int e = lane; e < row.tail_n; e += Lanes) acc[1] += widen<D, Acc>(row.tail[e]);
      add_strided<D>(row.body, lane, row.body_n, Lanes, acc);
    }
    Acc a = (acc[0] + acc[1]) + (acc[2] + acc[3]);
#pragma unroll
    for (int off = Lanes / 2; off > 0; off /= 2) a += __shfl_xor_sync(kFullWarp, a, off);
    if (r < rows && lane == 0) out[r] = a;
  }
}

// rows_blocks: `parts` blocks per row (block b: row b / parts, part b % parts), each an even share
// of the row's vectors; part 0 also adds the row's scalar head and tail.
template <class D, class Acc>
__global__ void __launch_bounds__(kThreads) rows_blocks(const D* __restrict__ in, std::int64_t n, std::int64_t parts,
                                                        unsigned* counters, Acc* partials, Acc* __restrict__ out) {
  constexpr int kUnroll = 4;
  __shared__ BlockSumStorage<Acc, kThreads> storage;
  const std::int64_t r = blockIdx.x / parts, p = blockIdx.x % parts;
  const SplitOf<D> row = split_unchecked(in + r * n, n);
  const std::int64_t block_rows = ceil_div(row.body_n, kThreads);  // EvenShare::make, in device code
  const Range share = EvenShare{row.body_n, block_rows / parts, block_rows % parts, kThreads}.block(p);
  Acc acc[kUnroll] = {};
  add_strided<D>(row.body, share.begin + threadIdx.x, share.end, kThreads, acc);
  if (p == 0) {
    const int t = static_cast<int>(threadIdx.x);
    if (t < row.head_n) acc[1] += widen<D, Acc>(row.head[t]);
    if (t < row.tail_n) acc[2] += widen<D, Acc>(row.tail[t]);
  }
  const Acc total = block_sum<kThreads>((acc[0] + acc[1]) + (acc[2] + acc[3]), storage);
  if (parts == 1) {
    if (threadIdx.x == 0) out[r] = total;
    return;
  }
  if (threadIdx.x == 0) {
    partials[r * parts + p] = total;
    __threadfence();
  }
  if (!arrived_last(counters + r, static_cast<unsigned>(parts))) return;
  const Acc sum = block_sum_in_order<kThreads>(partials + r * parts, static_cast<int>(parts), storage);
  if (threadIdx.x == 0) out[r] = sum;
  for (std::int64_t i = threadIdx.x; i < parts; i += kThreads) partials[r * parts + i] = 0;
}

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
