#pragma once
// The one-launch reduction, templated on the accumulator (float: onepass.cu, double:
// onepass_f64.cu) and on the launch shape (tuning.cuh; the tune/onepass/* grid instantiates more).
//
// Every block sums a contiguous chunk (chunk_sum.cuh). A grid of one block writes its sum and is
// done. Otherwise every block but the last stores its partial into a slot word and exits, and
// the last block (its warp 0, or all its threads above 2^22) waits for the slots and adds them in
// a fixed order (slots.cuh: no fence, no atomic read-modify-write, no memset launch, no
// floating-point atomics).
//
// Determinism: the grid depends only on n (and the device), each block's chunk only on the input
// pointer, n and the grid, and the partials are added in an order fixed by the grid whichever
// block finished last, so the same call gives the same bits every time.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "kernels/cuda/chunk_sum.cuh"
#include "common/cuda_check.hpp"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/residency.cuh"
#include "kernels/cuda/slots.cuh"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"

namespace rb::cuda {
namespace detail {

// Scratch: [ticket | padding | slots[grid]], all zero between launches (prepare, then every
// launch puts back what it used).
inline constexpr std::size_t kOnepassSlotsOffset = 256;

template <class Acc, class Shape, Completion C>
__global__ __launch_bounds__(Shape::threads, Shape::blocks_per_sm) void onepass_kernel(
    Split x, EvenShare share, unsigned* ticket, typename SlotWord<Acc>::type* slots, Acc* out) {
  __shared__ BlockSumStorage<Acc, Shape::threads> storage;
  if constexpr (C == Completion::finisher_early) {
    // The last block's warp 0 reads the other blocks' slots before its own block tree, so that
    // the round trip overlaps the tree, and keeps its own partial (a grid of one reads nothing).
    constexpr int kBatch = 8;  // 256 slots a batch; held across the block tree, 9 or more spill
    const bool last = blockIdx.x + 1 == gridDim.x;
    const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
    const int others = static_cast<int>(gridDim.x) - 1;
    const Acc v = thread_share<Acc, Shape>(x, share);
    SlotBatch<Acc, kBatch> seen{};
    if (last && threadIdx.x < kWarpSize) seen = peek_slots<Acc, kBatch, kWarpSize>(slots, lane, others);
    const Acc block_total = block_sum<Shape::threads>(v, storage);
    if (!last) {
      if (threadIdx.x == 0) publish_partial(block_total, slots);
      return;
    }
    if (threadIdx.x >= kWarpSize) return;
    const Acc rest = warp_sum(take_slots<Acc, kBatch, kWarpSize>(slots, lane, others, seen));
    if (threadIdx.x == 0) *out = rest + block_total;
    return;
  }
  const Acc block_total = block_chunk_sum<Acc, Shape>(x, share, storage);
  if (gridDim.x == 1) {  // small n: no other block to wait for
    if (threadIdx.x == 0) *out = block_total;
    return;
  }
  if constexpr (C == Completion::finisher_block) {
    // The last block keeps its own partial and, with all its threads, takes everyone else's.
    if (blockIdx.x + 1 < gridDim.x) {
      if (threadIdx.x == 0) publish_partial(block_total, slots);
      return;
    }
    __syncthreads();  // warp 0's reads of storage in block_chunk_sum, before its reuse
    const Acc others = collect_partials_block<Acc, Shape::threads>(slots, static_cast<int>(gridDim.x) - 1, storage);
    if (threadIdx.x == 0) *out = others + block_total;
    return;
  }
  if (threadIdx.x >= kWarpSize) return;  // the block's sum is in thread 0: warp 0 does the rest
  bool finisher = false;
  if (threadIdx.x == 0) {
    publish_partial(block_total, slots);
    finisher = is_finisher<C>(ticket);
  }
  if (!__shfl_sync(kFullWarp, finisher, 0)) return;
  const Acc total = collect_partials<Acc, C>(slots, static_cast<int>(gridDim.x), ticket);
  if (threadIdx.x == 0) *out = total;
}

// One block for n <= Shape::tile_floats: the tiny paths' kernel, lean on purpose.
// 32-bit indices, three kernel parameters, no loop and no grid logic: every thread issues all of
// its Shape::unroll loads at once, predicated, then the block tree. At n = 4096 the general kernel
// (one block of onepass_kernel) took 0.1-0.17 µs longer than CUB's single-tile kernel, cold and
// hot (results/h200/baseline.json): fixed cost, not bandwidth.
template <class Acc, class Shape>
__global__ __launch_bounds__(Shape::threads) void single_block_kernel(const float* x, int n, Acc* out) {
  constexpr int kThreads = Shape::threads, kLoads = Shape::unroll;
  __shared__ BlockSumStorage<Acc, kThreads> storage;
  const int misalign = static_cast<int>(reinterpret_cast<std::uintptr_t>(x) & 15) / 4;
  const int head = min(n, (4 - misalign) & 3);
  const int body_n = (n - head) >> 2;
  const auto* body = reinterpret_cast<const float4*>(x + head);
  const int t = static_cast<int>(threadIdx.x);
  float4 v[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    v[k] = t + k * kThreads < body_n ? __ldg(body + t + k * kThreads) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  }
  // The scalar edges, at most one float per thread (as Split::edge): threads [0, head) take the
  // head, threads [head, head + tail) the floats after the body.
  const int tail = n - head - 4 * body_n;
  const Acc edge = Acc(t < head ? x[t] : t - head < tail ? x[head + 4 * body_n + (t - head)] : 0.0f);
  Acc acc[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) acc[k] = lane_sum<Acc>(v[k]);
  const Acc total = block_sum<kThreads>(pairwise_sum(acc) + edge, storage);
  if (t == 0) *out = total;
}

}  // namespace detail

// The single-block kernel as a variant: n up to Shape::tile_floats, no scratch.
template <class Acc, class Shape>
struct SingleBlock {
  static constexpr std::int64_t kMaxN = Shape::tile_floats;
  static_assert(kMaxN < (std::int64_t{1} << 30), "32-bit indices");
  static std::size_t scratch_bytes(std::int64_t) { return 0; }
  static void prepare(void*, std::size_t, cudaStream_t) {}
  static void sum(const float* in, std::int64_t n, void*, Acc* out, cudaStream_t stream) {
    if (n > kMaxN) throw std::invalid_argument("SingleBlock: n beyond one tile");
    (void)split_aligned(in, n);  // the same checks as every variant: n >= 0, a float-aligned start
    detail::single_block_kernel<Acc, Shape><<<1, Shape::threads, 0, stream>>>(in, static_cast<int>(n), out);
    RB_CUDA_CHECK_LAUNCH();
  }
  static Geometry geometry(std::int64_t) { return {1, Shape::threads, std::int64_t{Shape::threads} * 4, kMaxN}; }
  static constexpr Variant<Acc> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }
};

template <class Acc, class Shape, detail::Completion C = detail::Completion::finisher_polls>
struct Onepass {
  static constexpr auto kKernel = &detail::onepass_kernel<Acc, Shape, C>;
  using Word = typename detail::SlotWord<Acc>::type;

  // SMs x blocks per SM at large n; at most what the occupancy API says fits.
  static int max_grid() {
    return sm_count() * std::min(Shape::blocks_per_sm, resident_blocks_per_sm<kKernel, Shape::threads>());
  }

  static int grid(std::int64_t n) { return work_sized_grid(n, Shape::tile_floats, max_grid()); }

  static std::size_t scratch_bytes(std::int64_t n) {
    return detail::kOnepassSlotsOffset + static_cast<std::size_t>(grid(n)) * sizeof(Word);
  }

  static void prepare(void* scratch, std::size_t bytes, cudaStream_t stream) {
    RB_CUDA_CHECK(cudaMemsetAsync(scratch, 0, bytes, stream));
  }

  static void sum(const float* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream) {
    const Split x = split_aligned(in, n);
    const int blocks = grid(n);
    auto* bytes = static_cast<unsigned char*>(scratch);
    kKernel<<<blocks, Shape::threads, 0, stream>>>(x, EvenShare::make(x.body_n, Shape::threads, blocks),
                                                   reinterpret_cast<unsigned*>(bytes),
                                                   reinterpret_cast<Word*>(bytes + detail::kOnepassSlotsOffset), out);
    RB_CUDA_CHECK_LAUNCH();
  }

  static Geometry geometry(std::int64_t n) {
    return {grid(n), Shape::threads, std::int64_t{Shape::threads} * 4, Shape::tile_floats};
  }

  static constexpr Variant<Acc> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }
};

// The tuned onepass (tuning.cuh has the sweep behind each step):
//   n <= OnepassTinyShape's tile        one lean block (SingleBlock)
//   n <= OnepassSmallShape's tile       one lean block of the Small shape
//   n <  kOnepassLargeMinN              a grid of OnepassMidShape blocks, the last one finishing
//                                       (its warp 0 reading the slots before its own block tree)
//   n <  kOnepassBlockCollectMinN       a grid of OnepassLargeShape blocks, the same
//   otherwise                           the same grid, the last block's every thread collecting
// Every path leaves its scratch zeroed, so a caller may alternate n freely on one buffer.
template <class Acc>
struct OnepassBySize {
  using Tiny = SingleBlock<Acc, OnepassTinyShape>;
  using Small = SingleBlock<Acc, OnepassSmallShape>;
  using Mid = Onepass<Acc, OnepassMidShape, detail::Completion::finisher_early>;
  using Large = Onepass<Acc, OnepassLargeShape, detail::Completion::finisher_early>;
  using Huge = Onepass<Acc, OnepassLargeShape, detail::Completion::finisher_block>;

  enum class Path { tiny, small, mid, large, huge };
  static Path path(std::int64_t n) {
    if (n <= Tiny::kMaxN) return Path::tiny;
    if (n <= Small::kMaxN) return Path::small;
    if (n < kOnepassLargeMinN) return Path::mid;
    return n < kOnepassBlockCollectMinN ? Path::large : Path::huge;
  }

  // Calls f with the Onepass<Acc, ...> that serves n.
  template <class F>
  static decltype(auto) dispatch(std::int64_t n, F&& f) {
    switch (path(n)) {
      case Path::tiny: return f(Tiny{});
      case Path::small: return f(Small{});
      case Path::mid: return f(Mid{});
      case Path::huge: return f(Huge{});
      default: return f(Large{});
    }
  }

  static std::size_t scratch_bytes(std::int64_t n) {
    return dispatch(n, [n](auto k) { return decltype(k)::scratch_bytes(n); });
  }
  static void prepare(void* scratch, std::size_t bytes, cudaStream_t stream) { Large::prepare(scratch, bytes, stream); }
  static void sum(const float* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream) {
    dispatch(n, [&](auto k) { decltype(k)::sum(in, n, scratch, out, stream); });
  }
  static Geometry geometry(std::int64_t n) {
    return dispatch(n, [n](auto k) { return decltype(k)::geometry(n); });
  }
  static constexpr Variant<Acc> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }
};

}  // namespace rb::cuda
