#pragma once
// How cuda/segmented covers a shape (segmented.hpp): the kernel and its grid, from the shape, the
// element size and the device's SM count. Host code only, so the plan is testable without a GPU.
#include <cstddef>
#include <cstdint>

#include "kernels/cuda/segmented.hpp"

namespace rb::cuda {

struct SegmentedLaunch {
  SegmentedPlan plan = SegmentedPlan::none;
  std::int64_t grid = 0;
  std::int64_t tile_rows = 0;   // rows_tile: rows a block stages (a multiple of 16: every tile starts
                                // 16-byte aligned when the input does)
  int lanes = 0;                // rows_warp: lanes per row (4 to 32)
  std::int64_t parts = 1;       // rows_blocks: blocks per row; cols_tile: slabs per column tile;
                                // cols_flat: the grid (blocks whose partials are added)
  std::int64_t step_rows = 0;   // cols_flat: rows of one step, RS x N a whole number of vectors
  std::int64_t slab_rows = 0;   // cols_*: rows (cols_flat: steps) one block adds
  std::int64_t tile_cols = 0;   // cols_tile: columns of a tile (a warp's width)
  bool vectors = false;         // cols_*: 16-byte loads (input aligned, rows a whole number of vectors)
  bool stacked = true;          // cols_tile: a block's 8 warps share a tile (else each owns one)
  std::int64_t groups = 0;      // arrival counters: outputs' groups that more than one block adds to
  std::int64_t partials = 0;    // partial sums in scratch

  SegmentedGeometry geometry() const;
};

inline constexpr int kSegmentedThreads = 256;
// Blocks per SM that keep HBM's pipe full (bytes in flight) at kSegmentedThreads a block.
inline constexpr std::int64_t kSegmentedBlocksPerSm = 8;
// Partials one finisher adds per output (segmented_complete.cuh: complete); more complete in two
// levels, and the scratch the plan sizes holds both.
inline constexpr std::int64_t kSegmentedFanIn = 32;

// The shape the kernels run for s: the same outputs and sums, along rows where that is the same
// array read the same way. A column sum of one column is the sum of one row (B x 1 columns run as
// 1 x B rows: rows_blocks spreads one long row over the machine, cols_flat cannot); a column sum of
// one row is a copy, as rows of one element are (1 x N columns run as N x 1 rows: rows_single).
Shape2D run_shape(Shape2D s);

// `aligned`: the input starts on a 16-byte boundary.
SegmentedLaunch plan_segmented(Shape2D s, std::size_t element_bytes, int sm_count, bool aligned);

// Counters (unsigned) first, then the partials (Acc), each 256-byte aligned.
std::size_t segmented_scratch_bytes(const SegmentedLaunch& l, std::size_t acc_bytes);
std::size_t segmented_partials_offset(const SegmentedLaunch& l);

}  // namespace rb::cuda
