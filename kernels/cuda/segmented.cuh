#pragma once
// cuda/segmented's kernels (segmented.hpp): one per plan (segmented_plan.hpp), over the device
// element type D, adding in Acc. Outputs more than one block adds to are completed in the same
// launch: each block writes its partials, then counts itself in (a fence before an atomic add); the
// last to arrive puts the counter back to 0, adds the partials in block order and zeroes them, so
// every launch leaves the scratch all zero, as prepare() left it, whatever shape comes next.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/elements.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/segmented_plan.hpp"

namespace rb::cuda::segmented_detail {

constexpr int kThreads = kSegmentedThreads;
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

// Fan-in of a completion: more partials than this per output are added in two levels.
constexpr std::int64_t kFanIn = 32;

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

// The smaller of two sizes (device code has no std::min).
__device__ __forceinline__ std::int64_t smaller(std::int64_t a, std::int64_t b) { return a < b ? a : b; }

// rows_tile: rows of at most 128 bytes. The block copies a tile of whole rows (16-byte loads when
// `aligned`) into shared memory, then thread t adds row t from its element t mod N onwards: a
// rotation that puts a warp's 32 rows in different banks.
template <class D, class Acc>
__global__ void __launch_bounds__(kThreads) rows_tile(const D* __restrict__ in, std::int64_t rows, std::int64_t n,
                                                      std::int64_t tile_rows, bool aligned, Acc* __restrict__ out) {
  using Vec = typename Vector16<D>::type;
  constexpr int kV = kPerVec<D>;
  extern __shared__ __align__(16) unsigned char smem[];
  D* tile = reinterpret_cast<D*>(smem);
  const std::int64_t tiles = ceil_div(rows, tile_rows);
  for (std::int64_t tb = blockIdx.x; tb < tiles; tb += gridDim.x) {
    const std::int64_t r0 = tb * tile_rows;
    const std::int64_t count = rows - r0 < tile_rows ? rows - r0 : tile_rows;
    const std::int64_t elems = count * n;
    const D* src = in + r0 * n;
    std::int64_t done = 0;
    if (aligned) {
      constexpr int kLoads = 8;
      const std::int64_t vecs = elems / kV;
      const Vec* v = reinterpret_cast<const Vec*>(src);
      Vec* dst = reinterpret_cast<Vec*>(tile);
      for (std::int64_t base = 0; base < vecs; base += std::int64_t{kLoads} * kThreads) {
        Vec x[kLoads];
#pragma unroll
        for (int k = 0; k < kLoads; ++k) {
          const std::int64_t i = base + k * kThreads + threadIdx.x;
          if (i < vecs) x[k] = __ldg(v + i);
        }
#pragma unroll
        for (int k = 0; k < kLoads; ++k) {
          const std::int64_t i = base + k * kThreads + threadIdx.x;
          if (i < vecs) dst[i] = x[k];
        }
      }
      done = vecs * kV;
    }
    for (std::int64_t i = done + threadIdx.x; i < elems; i += kThreads) tile[i] = src[i];
    __syncthreads();
    // A tile holds at most 32 KiB: its indices fit in 32 bits. first = r mod n, kept by steps.
    const int len = static_cast<int>(n), rows_here = static_cast<int>(count);
    const int step = kThreads % len;
    int first = static_cast<int>(threadIdx.x) % len;
    if (len % kV == 0) {
      // Rows of whole vectors: 16-byte shared loads, rotated by vectors.
      const int vecs = len / kV, vstep = kThreads % vecs;
      int vfirst = static_cast<int>(threadIdx.x) % vecs;
      const Vec* vt = reinterpret_cast<const Vec*>(tile);
      for (int r = static_cast<int>(threadIdx.x); r < rows_here; r += kThreads) {
        const Vec* row = vt + r * vecs;
        Acc a = 0;
        for (int k = vfirst; k < vecs; ++k) a += Element<D>::template vector_sum<Acc>(row[k]);
        for (int k = 0; k < vfirst; ++k) a += Element<D>::template vector_sum<Acc>(row[k]);
        out[r0 + r] = a;
        vfirst += vstep;
        if (vfirst >= vecs) vfirst -= vecs;
      }
    } else {
      for (int r = static_cast<int>(threadIdx.x); r < rows_here; r += kThreads) {
        const D* row = tile + r * len;
        Acc a = 0;
        for (int k = first; k < len; ++k) a += widen<D, Acc>(row[k]);
        for (int k = 0; k < first; ++k) a += widen<D, Acc>(row[k]);
        out[r0 + r] = a;
        first += step;
        if (first >= len) first -= len;
      }
    }
    __syncthreads();
  }
}

// rows_warp: Lanes lanes per row (a power of two, 4 to 32). Each row splits into a scalar head up
// to its first 16-byte boundary, 16-byte vectors (lane l takes l, l + Lanes, ...; four in flight)
// and a scalar tail; the lanes' sums meet in an xor butterfly within the group.
template <class D, class Acc, int Lanes>
__global__ void __launch_bounds__(kThreads) rows_warp(const D* __restrict__ in, std::int64_t rows, std::int64_t n,
                                                      Acc* __restrict__ out) {
  using Vec = typename Vector16<D>::type;
  constexpr int kV = kPerVec<D>, kUnroll = 4, kGroupsPerWarp = kWarpSize / Lanes;
  const int lane = static_cast<int>(threadIdx.x) % Lanes;
  const std::int64_t warp = (std::int64_t{blockIdx.x} * kThreads + threadIdx.x) / kWarpSize;
  const std::int64_t warps = std::int64_t{gridDim.x} * kWarps;
  const int group = static_cast<int>(threadIdx.x % kWarpSize) / Lanes;
  for (std::int64_t base = warp * kGroupsPerWarp; base < rows; base += warps * kGroupsPerWarp) {
    const std::int64_t r = base + group;
    Acc acc[kUnroll] = {};
    if (r < rows) {
      const D* row = in + r * n;
      const auto mis = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(row) % 16);
      const std::int64_t head = smaller(n, (16 - mis) % 16 / static_cast<std::int64_t>(sizeof(D)));
      const std::int64_t body = (n - head) / kV;
      const std::int64_t tail = n - head - body * kV;
      const Vec* v = reinterpret_cast<const Vec*>(row + head);
      for (std::int64_t e = lane; e < head; e += Lanes) acc[0] += widen<D, Acc>(row[e]);
      for (std::int64_t e = lane; e < tail; e += Lanes) acc[1] += widen<D, Acc>(row[head + body * kV + e]);
      std::int64_t i = lane;
      for (; i + (kUnroll - 1) * Lanes < body; i += kUnroll * Lanes) {
        Vec x[kUnroll];
#pragma unroll
        for (int k = 0; k < kUnroll; ++k) x[k] = __ldg(v + i + k * Lanes);
#pragma unroll
        for (int k = 0; k < kUnroll; ++k) acc[k] += Element<D>::template vector_sum<Acc>(x[k]);
      }
      for (; i < body; i += Lanes) acc[0] += Element<D>::template vector_sum<Acc>(__ldg(v + i));
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
  using Vec = typename Vector16<D>::type;
  constexpr int kV = kPerVec<D>, kUnroll = 4;
  __shared__ BlockSumStorage<Acc, kThreads> storage;
  const std::int64_t r = blockIdx.x / parts, p = blockIdx.x % parts;
  const D* row = in + r * n;
  const auto mis = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(row) % 16);
  const std::int64_t head = smaller(n, (16 - mis) % 16 / static_cast<std::int64_t>(sizeof(D)));
  const std::int64_t body = (n - head) / kV;
  const std::int64_t tail = n - head - body * kV;
  const Vec* v = reinterpret_cast<const Vec*>(row + head);
  const std::int64_t block_rows = ceil_div(body, kThreads);  // EvenShare::make, in device code
  const Range share = EvenShare{body, block_rows / parts, block_rows % parts, kThreads}.block(p);
  Acc acc[kUnroll] = {};
  std::int64_t i = share.begin + threadIdx.x;
  for (; i + (kUnroll - 1) * kThreads < share.end; i += kUnroll * kThreads) {
    Vec x[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) x[k] = __ldg(v + i + k * kThreads);
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) acc[k] += Element<D>::template vector_sum<Acc>(x[k]);
  }
  for (; i < share.end; i += kThreads) acc[0] += Element<D>::template vector_sum<Acc>(__ldg(v + i));
  if (p == 0) {
    if (threadIdx.x < head) acc[1] += widen<D, Acc>(row[threadIdx.x]);
    if (threadIdx.x < tail) acc[2] += widen<D, Acc>(row[head + body * kV + threadIdx.x]);
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

// cols_flat: fewer columns than a warp's vectors. A step of `step` rows is a whole number of
// vectors, at most one per thread, so thread t always reads vector t of a step and its elements
// always fall in the same columns; a block adds `slab` steps, then its threads' sums meet per
// column in shared memory, and the grid's partials per column are added by the last block.
template <class D, class Acc>
__global__ void __launch_bounds__(kThreads) cols_flat(const D* __restrict__ in, std::int64_t rows, std::int64_t n,
                                                      std::int64_t step, std::int64_t slab, bool vectors,
                                                      unsigned* counter, Acc* partials, Acc* __restrict__ out) {
  using Vec = typename Vector16<D>::type;
  constexpr int kV = kPerVec<D>, kUnroll = 4;
  __shared__ Acc sums[kThreads * kV];
  const std::int64_t step_elems = step * n;
  const int step_vecs = static_cast<int>(step_elems / kV);
  const std::int64_t steps = rows / step;
  const std::int64_t s0 = blockIdx.x * slab, s1 = smaller(steps, s0 + slab);
  const int t = static_cast<int>(threadIdx.x);
  Acc acc[kV] = {};
  if (t < step_vecs) {
    if (vectors) {
      const Vec* v = reinterpret_cast<const Vec*>(in) + t;
      std::int64_t s = s0;
      for (; s + kUnroll <= s1; s += kUnroll) {
        Vec x[kUnroll];
#pragma unroll
        for (int k = 0; k < kUnroll; ++k) x[k] = __ldg(v + (s + k) * step_vecs);
#pragma unroll
        for (int k = 0; k < kUnroll; ++k) {
          Acc e[kV];
          widen_each<D>(x[k], e);
#pragma unroll
          for (int j = 0; j < kV; ++j) acc[j] += e[j];
        }
      }
      for (; s < s1; ++s) {
        Acc e[kV];
        widen_each<D>(__ldg(v + s * step_vecs), e);
#pragma unroll
        for (int j = 0; j < kV; ++j) acc[j] += e[j];
      }
    } else {
      for (std::int64_t s = s0; s < s1; ++s) {
#pragma unroll
        for (int j = 0; j < kV; ++j) acc[j] += widen<D, Acc>(in[s * step_elems + t * kV + j]);
      }
    }
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
  using Vec = typename Vector16<D>::type;
  constexpr int kV = Vectors ? kPerVec<D> : 1, kUnroll = 4, kTile = kWarpSize * kV;
  static_assert(Stack == kWarps || Stack == 1, "warps share a tile, or each owns one");
  __shared__ Acc sums[Stack][kTile];
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize, warp = static_cast<int>(threadIdx.x) / kWarpSize;
  const std::int64_t tile = Stack == 1 ? std::int64_t{blockIdx.x} * kWarps + warp : blockIdx.x / parts;
  const std::int64_t p = Stack == 1 ? 0 : blockIdx.x % parts;
  const std::int64_t r0 = p * slab, r1 = smaller(rows, r0 + slab);
  const std::int64_t c = tile * kTile + std::int64_t{lane} * kV;  // this lane's first column
  Acc acc[kV] = {};
  if (c < n) {
    const D* col = in + c;
    std::int64_t r = r0 + (Stack == 1 ? 0 : warp);
    const auto load = [&](std::int64_t row, Acc (&e)[kV]) {
      if constexpr (Vectors) widen_each<D>(__ldg(reinterpret_cast<const Vec*>(col + row * n)), e);
      else e[0] = widen<D, Acc>(col[row * n]);
    };
    for (; r + (kUnroll - 1) * Stack < r1; r += kUnroll * Stack) {
      Acc e[kUnroll][kV];
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) load(r + k * Stack, e[k]);
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) {
#pragma unroll
        for (int j = 0; j < kV; ++j) acc[j] += e[k][j];
      }
    }
    for (; r < r1; r += Stack) {
      Acc e[kV];
      load(r, e);
#pragma unroll
      for (int j = 0; j < kV; ++j) acc[j] += e[j];
    }
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
