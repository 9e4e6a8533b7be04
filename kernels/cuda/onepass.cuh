#pragma once
// cuda/onepass and cuda/onepass_f64: one launch for any n, templated on the accumulator (float:
// onepass.cu, double: onepass_f64.cu), the launch shape (tuning.cuh) and the completion.
//
// Up to one tile, one lean block sums everything (SingleBlock). Above, a grid: every block sums
// its chunk; every block but the last stores its partial into its slot and exits; the last block,
// the finisher, waits for the slots, adds them and its own partial in a fixed order, and writes
// the sum (slots.cuh: no fence, no atomic read-modify-write, no memset launch, no floating-point
// atomics). How the finisher collects is the completion: FinishEarly (finish_early.cuh) or
// FinishBlock (finish_block.cuh), by n (OnepassTuned). Shapes, thresholds and completions come
// from the device's tuning entry (tuning.cuh: sm_90 or generic), picked at launch (OnepassBySize).
//
// Terms:
//   row       one float4 per thread of a block: what one load instruction of the block reads
//   tile      one step of a block's loop, Shape::unroll rows (Shape::tile_floats floats)
//   chunk     the contiguous rows one block sums
//   share     how the body is dealt into chunks that differ by at most one row (EvenShare)
//   edge      the scalar head and tail around the float4 body (<= 3 floats each), added by block 0
//   partial   one block's sum of its chunk (and block 0's edges)
//   slot      one scratch word per block: its partial, encoded, or 0 while empty (slots.cuh)
//   finisher  the grid's last block: adds the other blocks' partials to its own
//   batch     the slots a finisher thread loads at once before waiting: one L2 round trip
//
// Deterministic: the grid depends only on n (and the device and its tuning entry), each block's
// chunk only on the input pointer, n and the grid, and the partials are added in an order fixed by
// the grid, so the same call gives the same bits every time.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "common/cuda_check.hpp"
#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/finish_block.cuh"
#include "kernels/cuda/finish_early.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/residency.cuh"
#include "kernels/cuda/slots.cuh"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"
#include "kernels/cuda/tuning_entry.hpp"

namespace rb::cuda {
namespace detail {

// Finish (FinishEarly or FinishBlock): how the blocks' sums of their chunks become one sum in *out.
template <class Acc, class Shape, class Finish>
__global__ __launch_bounds__(Shape::threads, Shape::blocks_per_sm) void onepass_kernel(
    Split x, EvenShare share, Slot<Acc>* slots, Acc* out) {
  __shared__ BlockSumStorage<Acc, Shape::threads> storage;
  Finish::template finish<Shape>(x, share, slots, out, storage);
}

// One block for n <= Shape::tile_floats: the tiny paths' kernel, lean on purpose.
// 32-bit indices, three kernel parameters, no loop and no grid logic: every thread issues all of
// its Shape::unroll loads at once, predicated, then the block tree. One block of onepass_kernel
// takes about 0.2 µs longer up to 8192 floats (tuning.cuh): fixed cost, not bandwidth.
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

// A grid of Shape blocks completed by Finish, for any n (one block writes its sum directly).
// Scratch: one slot per block, all zero between launches (prepare, then every launch puts back
// what it used).
template <class Acc, class Shape, class Finish>
struct Onepass {
  static constexpr auto kKernel = &detail::onepass_kernel<Acc, Shape, Finish>;
  using Word = detail::Slot<Acc>;

  // SMs x blocks per SM at large n; at most what the occupancy API says fits.
  static int max_grid() {
    return sm_count() * std::min(Shape::blocks_per_sm, resident_blocks_per_sm<kKernel, Shape::threads>());
  }

  static int grid(std::int64_t n) { return work_sized_grid(n, Shape::tile_floats, max_grid()); }

  static std::size_t scratch_bytes(std::int64_t n) {
    return static_cast<std::size_t>(grid(n)) * sizeof(Word);
  }

  static void prepare(void* scratch, std::size_t bytes, cudaStream_t stream) {
    RB_CUDA_CHECK(cudaMemsetAsync(scratch, 0, bytes, stream));
  }

  static void sum(const float* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream) {
    const Split x = split_aligned(in, n);
    const int blocks = grid(n);
    kKernel<<<blocks, Shape::threads, 0, stream>>>(x, EvenShare::make(x.body_n, Shape::threads, blocks),
                                                   static_cast<Word*>(scratch), out);
    RB_CUDA_CHECK_LAUNCH();
  }

  static Geometry geometry(std::int64_t n) {
    return {grid(n), Shape::threads, std::int64_t{Shape::threads} * 4, Shape::tile_floats};
  }

  static constexpr Variant<Acc> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }
};

// One tuning entry's onepass (tuning.cuh: OnepassSm90Tuning, OnepassGenericTuning), a path per
// range of n (tuning.cuh has the figures behind sm_90's):
//   n <= TinyShape's tile              one lean block (SingleBlock)
//   n <= SmallShape's tile             one lean block of the Small shape
//   n <  Tuning::large_min_n           a grid of MidShape blocks, FinishEarly
//   n <  Tuning::block_collect_min_n   a grid of LargeShape blocks, FinishEarly
//   otherwise                          the same grid, FinishBlock
// Every path leaves its scratch zeroed, so a caller may alternate n freely on one buffer.
template <class Acc, class Tuning>
struct OnepassTuned {
  using Tiny = SingleBlock<Acc, typename Tuning::TinyShape>;
  using Small = SingleBlock<Acc, typename Tuning::SmallShape>;
  using Mid = Onepass<Acc, typename Tuning::MidShape, FinishEarly>;
  using Large = Onepass<Acc, typename Tuning::LargeShape, FinishEarly>;
  using Huge = Onepass<Acc, typename Tuning::LargeShape, FinishBlock>;

  enum class Path { tiny, small, mid, large, huge };
  static Path path(std::int64_t n) {
    if (n <= Tiny::kMaxN) return Path::tiny;
    if (n <= Small::kMaxN) return Path::small;
    if (n < Tuning::large_min_n) return Path::mid;
    return n < Tuning::block_collect_min_n ? Path::large : Path::huge;
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

// The entry TuningEntry::automatic stands for on the current device (cached per device).
inline TuningEntry resolve_tuning(TuningEntry entry) {
  if (entry != TuningEntry::automatic) return entry;
  const int cc = compute_capability();
  return tuning_entry_for(cc / 100, cc % 100);
}

// The shipped onepass: the tuning entry of the current device (tuning_entry_for), or the one a
// caller forces (tests, diagnostics). The entry is resolved per call from a per-device cache; a
// caller passing an entry must pass the same one to scratch_bytes, sum and geometry.
template <class Acc>
struct OnepassBySize {
  using Sm90 = OnepassTuned<Acc, OnepassSm90Tuning>;
  using Generic = OnepassTuned<Acc, OnepassGenericTuning>;

  // Calls f with the OnepassTuned<Acc, ...> of the entry.
  template <class F>
  static decltype(auto) with_entry(TuningEntry entry, F&& f) {
    if (resolve_tuning(entry) == TuningEntry::sm90) return f(Sm90{});
    return f(Generic{});
  }

  static std::size_t scratch_bytes(std::int64_t n, TuningEntry entry = TuningEntry::automatic) {
    return with_entry(entry, [n](auto t) { return decltype(t)::scratch_bytes(n); });
  }
  // The same for every entry: zero the slots.
  static void prepare(void* scratch, std::size_t bytes, cudaStream_t stream) { Sm90::prepare(scratch, bytes, stream); }
  static void sum(const float* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream,
                  TuningEntry entry = TuningEntry::automatic) {
    with_entry(entry, [&](auto t) { decltype(t)::sum(in, n, scratch, out, stream); });
  }
  static Geometry geometry(std::int64_t n, TuningEntry entry = TuningEntry::automatic) {
    return with_entry(entry, [n](auto t) { return decltype(t)::geometry(n); });
  }

  // As sum.hpp's Variant: automatic, or one entry forced (no per-call resolution then).
  static constexpr Variant<Acc> variant(TuningEntry entry = TuningEntry::automatic) {
    switch (entry) {
      case TuningEntry::sm90: return Sm90::variant();
      case TuningEntry::generic: return Generic::variant();
      default:
        return {[](std::int64_t n) { return scratch_bytes(n); }, &prepare,
                [](const float* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream) {
                  sum(in, n, scratch, out, stream);
                },
                [](std::int64_t n) { return geometry(n); }};
    }
  }
};

}  // namespace rb::cuda
