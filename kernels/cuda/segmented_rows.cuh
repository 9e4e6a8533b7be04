#pragma once
// cuda/segmented's kernels along rows (dim=1): rows_tile and its register paths (rows_vec,
// rows_packed), rows_warp and rows_blocks, chosen by the plan (segmented_plan.hpp).
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "kernels/cuda/segmented.cuh"

namespace rb::cuda::segmented_detail {

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

// Vectors a thread of stream_vectors loads before it uses any.
constexpr int kStreamUnroll = 8;

// Every vector of in[0, vecs) streamed by the grid as a plain read streams it: each block a tile of
// kUnroll x kThreads vectors at a time, all kUnroll loads a thread issued before any is used, then
// f(i, in[i]) for each in order. f runs in every lane, past `vecs` too (with zeros), so that lanes
// may meet in a butterfly.
template <class D, class F>
__device__ __forceinline__ void stream_vectors(const typename Vector16<D>::type* __restrict__ in, std::int64_t vecs,
                                               F f) {
  using Vec = typename Vector16<D>::type;
  constexpr int kUnroll = kStreamUnroll;
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
// vector (R = 2, 4; a row of one element is rows_single's), with the input and the outputs
// aligned: the vectors streamed (stream_vectors), each thread adding its vector's R rows in order
// and storing their R sums with one store where R x sizeof(Acc) allows; block 0 adds the last
// rows % R rows element by element.
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

// Groups of four elements rows_single loads before it stores any.
constexpr int kSingleUnroll = 2;

// rows_tile's register path for rows of one element, a widening copy (out[r] = in[r]), with the
// input and the outputs 16-byte aligned: each thread loads kSingleUnroll groups of four elements
// (8 or 16 bytes) and stores each group as one 16-byte vector of float sums, over a grid as large
// as the work, so that every load is issued at once (a loop only past the grid's limit). Block 0
// copies the last rows % 4.
template <class D, class Acc>
__global__ void __launch_bounds__(kThreads) rows_single(const D* __restrict__ x, std::int64_t rows,
                                                        Acc* __restrict__ out) {
  static_assert(sizeof(Acc) == 4 && (sizeof(D) == 2 || sizeof(D) == 4), "four elements in, one float4 out");
  using Quad = std::conditional_t<sizeof(D) == 2, uint2, uint4>;
  constexpr int kU = kSingleUnroll;
  constexpr std::int64_t kTile = std::int64_t{kU} * kThreads;
  const std::int64_t quads = rows / 4;
  const auto* q = reinterpret_cast<const Quad*>(x);
  auto* o4 = reinterpret_cast<float4*>(out);
  for (std::int64_t base = blockIdx.x * kTile; base < quads; base += std::int64_t{gridDim.x} * kTile) {
    Quad v[kU];
#pragma unroll
    for (int k = 0; k < kU; ++k) {
      const std::int64_t i = base + k * kThreads + threadIdx.x;
      if (i < quads) v[k] = __ldg(q + i);
    }
#pragma unroll
    for (int k = 0; k < kU; ++k) {
      const std::int64_t i = base + k * kThreads + threadIdx.x;
      if (i < quads) {
        D e[4];
        std::memcpy(e, &v[k], sizeof e);
        o4[i] = make_float4(widen<D, Acc>(e[0]), widen<D, Acc>(e[1]), widen<D, Acc>(e[2]), widen<D, Acc>(e[3]));
      }
    }
  }
  if (blockIdx.x == 0) {
    for (std::int64_t r = quads * 4 + threadIdx.x; r < rows; r += kThreads) out[r] = widen<D, Acc>(x[r]);
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

}  // namespace rb::cuda::segmented_detail
