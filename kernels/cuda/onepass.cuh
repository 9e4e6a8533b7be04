#pragma once
// cuda/onepass and cuda/onepass_accf64: one launch for any n, templated on the accumulator (float:
// onepass.cu, double: onepass_accf64.cu), the launch shape (tuning.cuh) and the completion; and on
// the element type T, float by default (the others: onepass_in_*.cu, host API typed.hpp).
//
// Up to one tile, one lean block sums everything (SingleBlock). Above, a grid: every block sums
// its chunk; every block but the last stores its partial into its slot and exits; the last block,
// the finisher, waits for the slots, adds them and its own partial in a fixed order, and writes
// the sum (slots.cuh: no fence, no atomic read-modify-write in global memory, no memset launch, no
// floating-point atomics). How the finisher collects is the completion: FinishEarly
// (finish_early.cuh) or FinishBlock (finish_block.cuh), by n (OnepassTuned). On the Mid and Wide
// grids, every block adds its partial and a count to a 64-bit word with an integer atomic add, and
// the last block to arrive writes the sum: integer partials exactly (FinishCounted,
// finish_counted.cuh), float and double partials on one fixed-point grid (FinishFixed,
// finish_fixed.cuh, where each block has one tile). Shapes, thresholds and completions come from
// the device's tuning entry (tuning.cuh: sm_90 or generic), picked at launch (OnepassBySize).
//
// Terms:
//   row       one float4 (one 16-byte vector of T) per thread of a block: what one load
//             instruction of the block reads
//   tile      one step of a block's loop, Shape::unroll rows (Shape::tile_floats floats, the
//             same 16 x threads x unroll bytes of any T: kTileOf)
//   chunk     the contiguous rows one block sums
//   share     how the body is dealt into chunks that differ by at most one row (EvenShare)
//   edge      the scalar head and tail around the float4 body (<= 3 floats each; < one vector of
//             T), added by block 0
//   partial   one block's sum of its chunk (and block 0's edges)
//   slot      one scratch word per block: its partial, encoded, or 0 while empty (slots.cuh)
//   finisher  the grid's last block: adds the other blocks' partials to its own
//   batch     the slots a finisher thread loads at once before waiting: one L2 round trip
//
// Deterministic: the grid depends only on n (and the device and its tuning entry), each block's
// chunk only on the input pointer, n and the grid, and the partials are added in an order fixed by
// the grid, so the same call gives the same bits every time.
//
// Every element type is one instance of the same path (T: float, double, std::int32_t, rb::f16,
// rb::bf16; the kernels, onepass_kernels.cuh, read rb::f16 as __half and rb::bf16 as
// __nv_bfloat16): the same shapes, paths and completions, every path ending at the same byte count
// as for floats (elements_for_floats), so a path sees the same grid and bytes per block whatever T.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "common/cuda_check.hpp"
#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/elements.cuh"
#include "kernels/cuda/finish_block.cuh"
#include "kernels/cuda/finish_counted.cuh"
#include "kernels/cuda/finish_early.cuh"
#include "kernels/cuda/finish_fixed.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/onepass_kernels.cuh"
#include "kernels/cuda/residency.cuh"
#include "kernels/cuda/slots.cuh"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"
#include "kernels/cuda/tuning_entry.hpp"
#include "kernels/cuda/typed.hpp"

namespace rb::cuda {

// A float threshold (the least n of a path) carried over to T by bytes: the least n whose bytes
// exceed those of the previous path's largest float n, so every path ends at the same byte count
// whatever T (the Wide grid at 4 MiB, 128 tiles, also for 2-byte elements).
template <class T>
constexpr std::int64_t elements_for_floats(std::int64_t float_n) {
  return (float_n - 1) * 4 / static_cast<std::int64_t>(sizeof(T)) + 1;
}

// The single-block kernel as a variant: n up to one tile (Shape::tile_floats floats), no scratch.
template <class Acc, class Shape, class T = float>
struct SingleBlock {
  static constexpr std::int64_t kMaxN = kTileOf<Shape, T>;
  static_assert(kMaxN < (std::int64_t{1} << 30), "32-bit indices");
  static std::size_t scratch_bytes(std::int64_t) { return 0; }
  static void prepare(void*, std::size_t, cudaStream_t) {}
  static void sum(const T* in, std::int64_t n, void*, Acc* out, cudaStream_t stream) {
    if (n > kMaxN) throw std::invalid_argument("SingleBlock: n beyond one tile");
    const auto* x = detail::device_elements(in);
    (void)split_aligned(x, n);  // the same checks as every variant: n >= 0, an element-aligned start
    constexpr auto kKernel = &detail::single_block_kernel<detail::DeviceElementOf<T>, Acc, Shape>;
    kKernel<<<1, Shape::threads, 0, stream>>>(x, static_cast<int>(n), out);
    RB_CUDA_CHECK_LAUNCH();
  }
  static Geometry geometry(std::int64_t) { return {1, Shape::threads, kRowOf<Shape, T>, kMaxN}; }
  static constexpr TypedVariant<T, Acc> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }
};

// A grid of Shape blocks completed by Finish, for any n (one block writes its sum directly).
// Scratch: one slot per block, all zero between launches (prepare, then every launch puts back
// what it used).
template <class Acc, class Shape, class Finish, class T = float>
struct Onepass {
  static constexpr auto kKernel = &detail::onepass_kernel<detail::DeviceElementOf<T>, Acc, Shape, Finish>;
  static constexpr std::int64_t kTile = kTileOf<Shape, T>;
  using Word = detail::Slot<Acc>;

  // SMs x blocks per SM at large n; at most what the occupancy API says fits.
  static int max_grid() {
    return sm_count() * std::min(Shape::blocks_per_sm, resident_blocks_per_sm<kKernel, Shape::threads>());
  }

  static int grid(std::int64_t n) { return work_sized_grid(n, kTile, max_grid()); }

  // A completion may keep words of its own before the slots (FinishFixed: header_slots).
  static constexpr int kHeader = [] {
    if constexpr (requires { Finish::template header_slots<Acc>(); }) return Finish::template header_slots<Acc>();
    return 0;
  }();

  static std::size_t scratch_bytes(std::int64_t n) {
    return static_cast<std::size_t>(grid(n) + kHeader) * sizeof(Word);
  }

  static void prepare(void* scratch, std::size_t bytes, cudaStream_t stream) {
    RB_CUDA_CHECK(cudaMemsetAsync(scratch, 0, bytes, stream));
  }

  // A completion with limits takes grids up to its kMaxGrid (FinishCounted, FinishFixed: their
  // count fields) and n up to its kMaxElements
  // (FinishCounted: its sum field); a 64-bit header word needs scratch aligned for it.
  static void check_fits(std::int64_t n, int blocks, const void* scratch) {
    if constexpr (kHeader > 0) {
      if (reinterpret_cast<std::uintptr_t>(scratch) % alignof(unsigned long long) != 0)
        throw std::invalid_argument("Onepass: scratch not 8-byte aligned");
    }
    if constexpr (requires { Finish::kMaxGrid; }) {
      if (blocks > Finish::kMaxGrid) throw std::invalid_argument("Onepass: grid beyond what the completion takes");
    }
    if constexpr (requires { Finish::kMaxElements; }) {
      if (n > Finish::kMaxElements) throw std::invalid_argument("Onepass: n beyond what the completion takes");
    }
  }

  static void sum(const T* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream) {
    const auto x = split_aligned(detail::device_elements(in), n);
    const int blocks = grid(n);
    check_fits(n, blocks, scratch);
    if constexpr (std::is_integral_v<Acc>) {
      // Every block's partial above INT64_MIN, the empty slot (slots.cuh): fewer than 2^32 int32s
      // a block. Beyond any device's memory with a full grid, but checked.
      if (n / blocks >= (std::int64_t{1} << 31)) throw std::invalid_argument("Onepass: too many elements per block");
    }
    kKernel<<<blocks, Shape::threads, 0, stream>>>(x, EvenShare::make(x.body_n, Shape::threads, blocks),
                                                   static_cast<Word*>(scratch), out);
    RB_CUDA_CHECK_LAUNCH();
  }

  static Geometry geometry(std::int64_t n) {
    Geometry g{grid(n), Shape::threads, kRowOf<Shape, T>, kTile};
    if constexpr (requires { Finish::template window_roundings<Acc>(g.grid, kTile); }) {
      g.window_roundings = Finish::template window_roundings<Acc>(g.grid, kTile);
    }
    return g;
  }

  static constexpr TypedVariant<T, Acc> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }
};

// Onepass<Acc, Shape, FinishEarly, T>'s grid, each block summing exactly one tile with the single
// block's body (one_tile_kernel): no loop, 32-bit indices, every load of a thread issued at once.
// Needs grid(n) <= max_grid (one tile per resident block); beyond, as on a device with few SMs,
// the looping grid. The same grid, scratch and completion either way.
// Finish: FinishEarly, or any completion with its complete(v, slots, out, storage).
template <class Acc, class Shape, class T = float, class Finish = FinishEarly>
struct OneTileGrid : Onepass<Acc, Shape, Finish, T> {
  using Loop = Onepass<Acc, Shape, Finish, T>;
  static constexpr auto kKernel = &detail::one_tile_kernel<detail::DeviceElementOf<T>, Acc, Shape, Finish>;

  static int max_grid() {
    return std::min(Loop::max_grid(),
                    sm_count() * std::min(Shape::blocks_per_sm, resident_blocks_per_sm<kKernel, Shape::threads>()));
  }
  static std::size_t scratch_bytes(std::int64_t n) {
    (void)max_grid();  // the occupancy query, outside any timed region
    return Loop::scratch_bytes(n);
  }
  static void sum(const T* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream) {
    const int blocks = Loop::grid(n);
    if (ceil_div(n, Loop::kTile) > max_grid()) return Loop::sum(in, n, scratch, out, stream);
    Loop::check_fits(n, blocks, scratch);
    const auto x = split_aligned(detail::device_elements(in), n);
    kKernel<<<blocks, Shape::threads, 0, stream>>>(x, static_cast<typename Loop::Word*>(scratch), out);
    RB_CUDA_CHECK_LAUNCH();
  }
  static constexpr TypedVariant<T, Acc> variant() { return {&scratch_bytes, &Loop::prepare, &sum, &Loop::geometry}; }
};

// One tuning entry's onepass (tuning.cuh: OnepassSm90Tuning, OnepassGenericTuning), a path per
// range of n (tuning.cuh has the figures behind sm_90's):
//   n <= TinyShape's tile              one lean block (SingleBlock)
//   n <= SmallShape's tile             one lean block of the Small shape
//   n <  Tuning::wide_min_n            a grid of MidShape blocks (one tile per block where
//                                      Tuning::one_tile_mid: OneTileGrid), completed by TileFinish:
//                                      FinishFixed for float and double partials there,
//                                      FinishCounted for integer partials, FinishEarly otherwise
//   n <  Tuning::large_min_n           a grid of WideShape blocks, one tile each (OneTileGrid),
//                                      TileFinish
//   n <  Tuning::block_collect_min_n   a grid of LargeShape blocks, FinishEarly
//   otherwise                          the same grid, FinishBlock
// (tiles and thresholds in elements of T, the same bytes as for floats: wide_min_n, large_min_n,
// block_collect_min_n below). Every path leaves its scratch zeroed, so a caller may alternate n
// freely on one buffer.
template <class Acc, class Tuning, class T = float>
struct OnepassTuned {
  using Tiny = SingleBlock<Acc, typename Tuning::TinyShape, T>;
  using Small = SingleBlock<Acc, typename Tuning::SmallShape, T>;
  // The Mid and Wide grids' completion. Partials travel with their count in atomic words:
  // integers exactly (finish_counted.cuh), floats and doubles on one fixed-point grid where each
  // block has one tile (finish_fixed.cuh), the fastest completion of those grids in float and
  // double (results/h200/tuning.md#round-28, #round-29, #round-30).
  using TileFinish = std::conditional_t<std::is_integral_v<Acc>, FinishCounted,
                                        std::conditional_t<Tuning::one_tile_mid, FinishFixed, FinishEarly>>;
  using Mid = std::conditional_t<Tuning::one_tile_mid, OneTileGrid<Acc, typename Tuning::MidShape, T, TileFinish>,
                                 Onepass<Acc, typename Tuning::MidShape, TileFinish, T>>;
  using Wide = OneTileGrid<Acc, typename Tuning::WideShape, T, TileFinish>;
  using Large = Onepass<Acc, typename Tuning::LargeShape, FinishEarly, T>;
  using Huge = Onepass<Acc, typename Tuning::LargeShape, FinishBlock, T>;
  static constexpr std::int64_t wide_min_n = elements_for_floats<T>(Tuning::wide_min_n);
  static constexpr std::int64_t large_min_n = elements_for_floats<T>(Tuning::large_min_n);
  static constexpr std::int64_t block_collect_min_n = elements_for_floats<T>(Tuning::block_collect_min_n);
  // The largest n TileFinish completes (Wide's, or Mid's where there is no Wide path), and the
  // Mid and Wide grids: within its fields.
  static_assert(wide_min_n <= large_min_n, "Mid below Wide below Large");
  static_assert(!std::is_integral_v<Acc> || large_min_n - 1 <= FinishCounted::kMaxElements,
                "every Mid and Wide n within what FinishCounted's word holds");
  static constexpr bool tile_grids_fit() {
    if constexpr (requires { TileFinish::kMaxGrid; }) {
      return ceil_div(wide_min_n - 1, kTileOf<typename Tuning::MidShape, T>) <= TileFinish::kMaxGrid &&
             (wide_min_n == large_min_n ||
              ceil_div(large_min_n - 1, kTileOf<typename Tuning::WideShape, T>) <= TileFinish::kMaxGrid);
    }
    return true;
  }
  static_assert(tile_grids_fit(), "every Mid and Wide grid within the completion's count fields");

  enum class Path { tiny, small, mid, wide, large, huge };
  static Path path(std::int64_t n) {
    if (n <= Tiny::kMaxN) return Path::tiny;
    if (n <= Small::kMaxN) return Path::small;
    if (n < wide_min_n) return Path::mid;
    if (n < large_min_n) return Path::wide;
    return n < block_collect_min_n ? Path::large : Path::huge;
  }

  // Calls f with the Onepass<Acc, ...> that serves n.
  template <class F>
  static decltype(auto) dispatch(std::int64_t n, F&& f) {
    switch (path(n)) {
      case Path::tiny: return f(Tiny{});
      case Path::small: return f(Small{});
      case Path::mid: return f(Mid{});
      case Path::wide: return f(Wide{});
      case Path::huge: return f(Huge{});
      default: return f(Large{});
    }
  }

  static std::size_t scratch_bytes(std::int64_t n) {
    return dispatch(n, [n](auto k) { return decltype(k)::scratch_bytes(n); });
  }
  static void prepare(void* scratch, std::size_t bytes, cudaStream_t stream) { Large::prepare(scratch, bytes, stream); }
  static void sum(const T* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream) {
    dispatch(n, [&](auto k) { decltype(k)::sum(in, n, scratch, out, stream); });
  }
  static Geometry geometry(std::int64_t n) {
    return dispatch(n, [n](auto k) { return decltype(k)::geometry(n); });
  }
  static constexpr TypedVariant<T, Acc> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }
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
template <class Acc, class T = float>
struct OnepassBySize {
  using Sm90 = OnepassTuned<Acc, OnepassSm90Tuning, T>;
  using Generic = OnepassTuned<Acc, OnepassGenericTuning, T>;

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
  static void sum(const T* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream,
                  TuningEntry entry = TuningEntry::automatic) {
    with_entry(entry, [&](auto t) { decltype(t)::sum(in, n, scratch, out, stream); });
  }
  static Geometry geometry(std::int64_t n, TuningEntry entry = TuningEntry::automatic) {
    return with_entry(entry, [n](auto t) { return decltype(t)::geometry(n); });
  }

  // As sum.hpp's TypedVariant: automatic, or one entry forced (no per-call
  // resolution then).
  static constexpr TypedVariant<T, Acc> variant(TuningEntry entry = TuningEntry::automatic) {
    switch (entry) {
      case TuningEntry::sm90: return Sm90::variant();
      case TuningEntry::generic: return Generic::variant();
      default:
        return {[](std::int64_t n) { return scratch_bytes(n); }, &prepare,
                [](const T* in, std::int64_t n, void* scratch, Acc* out, cudaStream_t stream) {
                  sum(in, n, scratch, out, stream);
                },
                [](std::int64_t n) { return geometry(n); }};
    }
  }
};

// typed.hpp's typed_onepass_with: T's onepass in SumType<T> with the entry forced (or automatic).
template <class T>
TypedVariant<T> typed_onepass_with(TuningEntry entry) {
  return OnepassBySize<SumType<T>, T>::variant(entry);
}

}  // namespace rb::cuda
