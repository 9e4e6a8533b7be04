#pragma once
// cuda/segmented: the sums along one dimension of x, B rows of N elements, row-major, as the host
// sees them (no device code: include it from .cpp files):
//   Axis::rows  out[r] = x[r][0] + ... + x[r][N-1]   B outputs   (torch.sum(x, dim=1))
//   Axis::cols  out[j] = x[0][j] + ... + x[B-1][j]   N outputs   (torch.sum(x, dim=0))
// One launch for every shape: the plan (below) picks the kernel from the shape and the device.
// The calls, in the order a caller uses them, as sum.hpp's variants:
//
//   bytes = v.scratch_bytes(shape);     untimed: per-block partials and per-output arrival counters
//   v.prepare(scratch, bytes, stream);  untimed, once per scratch buffer: zeroes it; every launch
//                                       leaves it zero again (the last block of an output resets
//                                       its counter and zeroes the partials it added), so one buffer
//                                       serves any sequence of shapes whose scratch_bytes it holds
//                                       (either alignment of the input), one stream at a time
//   v.sum(in, shape, scratch, out, stream);  launches only: no synchronization, allocation or copy
//
// `in` (device) may start at any element boundary; B and N may be 0 (sums of nothing are 0: a memset
// of the outputs, no kernel) or their product beyond 2^31; `out` (device) receives outputs() sums.
// Every output is written by one launch, in an order of additions fixed by the shape, the device's
// plan and the input's alignment: the same call gives the same bits.
// Elements are converted exactly and added in SumType<T> (sum.hpp): float for f32, f16 and bf16.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "common/dtype.hpp"
#include "common/shape.hpp"
#include "kernels/cuda/sum.hpp"

namespace rb::cuda {

using rb::Axis;
using rb::Shape2D;

// Which kernel a shape gets (tests aim their shapes at the boundaries between them):
//   rows_tile    short rows: read as one stream of 16-byte vectors into registers where rows are
//                1 to 8 whole vectors or a vector holds whole rows (input aligned); otherwise a
//                block stages a tile of whole rows in shared memory, then each thread adds a row
//   rows_warp    a warp per row, 16-byte loads along it
//   rows_blocks  long rows: several blocks per row, the last to arrive adds their partials
//   cols_flat    few columns: threads stride the array by a multiple of N, so each lane keeps
//                the same columns; blocks' partials per column added by the last block
//   cols_tile    many columns: a block owns a tile of columns over a slab of rows
enum class SegmentedPlan { none, rows_tile, rows_warp, rows_blocks, cols_flat, cols_tile };
const char* plan_name(SegmentedPlan p);

struct SegmentedGeometry {
  SegmentedPlan plan = SegmentedPlan::none;
  int grid = 0;
  int threads = 0;
  std::int64_t per_block = 0;  // rows_tile: rows a block stages; rows_blocks: blocks per row;
                               // cols_*: rows of the slab a block adds
};

template <class T, class Out = SumType<T>>
struct SegmentedVariant {
  std::size_t (*scratch_bytes)(Shape2D s);
  void (*prepare)(void* scratch, std::size_t bytes, cudaStream_t stream);
  void (*sum)(const T* in, Shape2D s, void* scratch, Out* out, cudaStream_t stream);
  SegmentedGeometry (*geometry)(Shape2D s);  // the plan for an input on a 16-byte boundary
};

// One instance per element type (segmented_<type>.cu), the device's plan resolved per call.
extern const SegmentedVariant<float> segmented_f32;
extern const SegmentedVariant<f16> segmented_f16;
extern const SegmentedVariant<bf16> segmented_bf16;

// The instance over T: what the benchmark's rows and the tests call.
template <class T>
const SegmentedVariant<T>& segmented_of() {
  if constexpr (std::is_same_v<T, float>) return segmented_f32;
  else if constexpr (std::is_same_v<T, f16>) return segmented_f16;
  else if constexpr (std::is_same_v<T, bf16>) return segmented_bf16;
  else static_assert(sizeof(T) == 0, "cuda/segmented sums f32, f16 and bf16 (float outputs)");
}

}  // namespace rb::cuda
