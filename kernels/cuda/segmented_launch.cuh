#pragma once
// cuda/segmented's launcher over an element type T (segmented.hpp): the plan for the shape and the
// input's alignment (segmented_plan.hpp), then one launch of that plan's kernel
// (segmented_rows.cuh, segmented_cols.cuh).
// Instantiated once per type in segmented_<type>.cu.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "common/cuda_check.hpp"
#include "kernels/cuda/residency.cuh"
#include "kernels/cuda/segmented_cols.cuh"
#include "kernels/cuda/segmented_rows.cuh"
#include "kernels/cuda/segmented.hpp"

namespace rb::cuda {

template <class T>
struct SegmentedOf {
  using D = detail::DeviceElementOf<T>;
  using Acc = SumType<T>;

  static SegmentedLaunch plan(Shape2D s, bool aligned) {
    return plan_segmented(run_shape(s), sizeof(T), sm_count(), aligned);
  }

  // Enough for either alignment of the input (the plan of columns depends on it).
  static std::size_t scratch_bytes(Shape2D s) {
    check(s);
    return std::max(segmented_scratch_bytes(plan(s, true), sizeof(Acc)),
                    segmented_scratch_bytes(plan(s, false), sizeof(Acc)));
  }

  static void prepare(void* scratch, std::size_t bytes, cudaStream_t stream) {
    if (bytes > 0) RB_CUDA_CHECK(cudaMemsetAsync(scratch, 0, bytes, stream));
  }

  static SegmentedGeometry geometry(Shape2D s) { return plan(s, true).geometry(); }

  static void sum(const T* in, Shape2D shape, void* scratch, Acc* out, cudaStream_t stream) {
    using namespace segmented_detail;
    check(shape);
    const Shape2D s = run_shape(shape);
    if (s.outputs() == 0) return;
    if (s.summed() == 0) {  // sums of nothing
      RB_CUDA_CHECK(cudaMemsetAsync(out, 0, static_cast<std::size_t>(s.outputs()) * sizeof(Acc), stream));
      return;
    }
    const D* x = detail::device_elements(in);
    const bool aligned = reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
    const SegmentedLaunch l = plan(s, aligned);
    auto* counters = static_cast<unsigned*>(scratch);
    auto* partials = reinterpret_cast<Acc*>(static_cast<char*>(scratch) + segmented_partials_offset(l));
    const auto grid = static_cast<unsigned>(l.grid);
    switch (l.plan) {
      case SegmentedPlan::rows_tile: {
        if (rows_in_registers(x, s, aligned, out, stream)) break;
        const auto smem = static_cast<std::size_t>(l.tile_rows * s.cols) * sizeof(T);
        rows_tile<D, Acc><<<grid, kThreads, smem, stream>>>(x, s.rows, s.cols, l.tile_rows, aligned, out);
        break;
      }
      case SegmentedPlan::rows_warp:
        switch (l.lanes) {
          case 4: rows_warp<D, Acc, 4><<<grid, kThreads, 0, stream>>>(x, s.rows, s.cols, out); break;
          case 8: rows_warp<D, Acc, 8><<<grid, kThreads, 0, stream>>>(x, s.rows, s.cols, out); break;
          case 16: rows_warp<D, Acc, 16><<<grid, kThreads, 0, stream>>>(x, s.rows, s.cols, out); break;
          default: rows_warp<D, Acc, 32><<<grid, kThreads, 0, stream>>>(x, s.rows, s.cols, out); break;
        }
        break;
      case SegmentedPlan::rows_blocks:
        rows_blocks<D, Acc><<<grid, kThreads, 0, stream>>>(x, s.cols, l.parts, counters, partials, out);
        break;
      case SegmentedPlan::cols_flat:
        cols_flat<D, Acc><<<grid, kThreads, 0, stream>>>(x, s.rows, s.cols, l.step_rows, l.slab_rows, l.vectors,
                                                          counters, partials, out);
        break;
      case SegmentedPlan::cols_tile:
        launch_cols_tile(l, x, s, counters, partials, out, stream);
        break;
      case SegmentedPlan::none: return;
    }
    RB_CUDA_CHECK_LAUNCH();
  }

  static SegmentedVariant<T> variant() { return {&scratch_bytes, &prepare, &sum, &geometry}; }

 private:
  // rows_tile's register paths (segmented_rows.cuh: rows_single, rows_vec, rows_packed), where the
  // rows are one element, whole vectors (at most 8) or a vector holds whole rows and the input (and,
  // single or packed, the outputs) are 16-byte aligned: launched, true; otherwise false (the tile
  // in shared memory).
  static bool rows_in_registers(const D* x, Shape2D s, bool aligned, Acc* out, cudaStream_t stream) {
    using namespace segmented_detail;
    constexpr int kPer = kPerVec<D>;
    if (!aligned) return false;
    if constexpr (sizeof(Acc) == 4) {
      if (s.cols == 1 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0) {
        const auto single = static_cast<unsigned>(std::clamp<std::int64_t>(
            ceil_div(s.rows / 4, std::int64_t{kThreads} * kSingleUnroll), 1, 0x7FFF'FFFF));
        rows_single<D, Acc><<<single, kThreads, 0, stream>>>(x, s.rows, out);
        return true;
      }
    }
    const std::int64_t vecs =
        s.cols % kPer == 0 ? s.rows * (s.cols / kPer) : s.rows / std::max<std::int64_t>(1, kPer / s.cols);
    const auto grid = static_cast<unsigned>(std::clamp<std::int64_t>(
        ceil_div(vecs, std::int64_t{kThreads} * kStreamUnroll), 1, sm_count() * kSegmentedBlocksPerSm));
    using Vec = typename Vector16<D>::type;
    if (s.cols % kPer == 0) {
      return one_of_1_2_4_8(s.cols / kPer, [&](auto v) {
        rows_vec<D, Acc, v()><<<grid, kThreads, 0, stream>>>(reinterpret_cast<const Vec*>(x), s.rows, out);
        return true;
      });
    }
    if (kPer % s.cols != 0 || reinterpret_cast<std::uintptr_t>(out) % 16 != 0) return false;
    return one_of_1_2_4_8(kPer / s.cols, [&](auto r) {
      if constexpr (r() == 1 || r() >= kPer) {
        return false;  // a row of one whole vector is rows_vec's, a row of one element rows_single's
      } else {
        rows_packed<D, Acc, r()><<<grid, kThreads, 0, stream>>>(x, s.rows, out);
        return true;
      }
    });
  }

  // launch(std::integral_constant<int, k>) for k of 1, 2, 4 or 8; false for any other k.
  template <class F>
  static bool one_of_1_2_4_8(std::int64_t k, F&& launch) {
    switch (k) {
      case 1:
        return launch(std::integral_constant<int, 1>{});
      case 2:
        return launch(std::integral_constant<int, 2>{});
      case 4:
        return launch(std::integral_constant<int, 4>{});
      case 8:
        return launch(std::integral_constant<int, 8>{});
      default:
        return false;
    }
  }

  template <bool Vectors, int Stack>
  static void cols_tile_as(const SegmentedLaunch& l, const D* x, Shape2D s, unsigned* counters, Acc* partials,
                           Acc* out, cudaStream_t stream) {
    segmented_detail::cols_tile<D, Acc, Vectors, Stack><<<static_cast<unsigned>(l.grid), segmented_detail::kThreads, 0,
                                                          stream>>>(x, s.rows, s.cols, l.parts, l.slab_rows, counters,
                                                                    partials, out);
  }
  static void launch_cols_tile(const SegmentedLaunch& l, const D* x, Shape2D s, unsigned* counters, Acc* partials,
                               Acc* out, cudaStream_t stream) {
    constexpr int kStacked = segmented_detail::kWarps;
    if (l.vectors && l.stacked) cols_tile_as<true, kStacked>(l, x, s, counters, partials, out, stream);
    else if (l.vectors) cols_tile_as<true, 1>(l, x, s, counters, partials, out, stream);
    else if (l.stacked) cols_tile_as<false, kStacked>(l, x, s, counters, partials, out, stream);
    else cols_tile_as<false, 1>(l, x, s, counters, partials, out, stream);
  }

  static void check(Shape2D s) {
    if (s.rows < 0 || s.cols < 0) throw std::invalid_argument("segmented: negative rows or columns");
  }
};

}  // namespace rb::cuda
