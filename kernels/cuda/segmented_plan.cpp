#include "kernels/cuda/segmented_plan.hpp"

#include <algorithm>
#include <bit>
#include <numeric>

#include "kernels/cuda/layout.cuh"

namespace rb::cuda {
namespace {

constexpr std::int64_t kThreads = kSegmentedThreads;
constexpr std::int64_t kWarps = kThreads / 32;
// Rows up to this many bytes are staged in shared memory and added one per thread; a tile is at
// most kTileBytes (32 KiB: several blocks per SM stay resident).
constexpr std::int64_t kTileRowBytes = 128;
constexpr std::int64_t kTileBytes = 32 * 1024;
constexpr std::int64_t kBlocksPerSm = kSegmentedBlocksPerSm;
// cols_tile's blocks each read long slabs of one tile: two per SM fill the machine, and fewer,
// longer slabs leave fewer partials to complete.
constexpr std::int64_t kColsTileBlocksPerSm = 2;

std::int64_t pow2_floor(std::int64_t v) {
  return static_cast<std::int64_t>(std::bit_floor(static_cast<std::uint64_t>(v)));
}
std::int64_t pow2_ceil(std::int64_t v) {
  return static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(v)));
}

// Scratch of `groups` groups of outputs, each completed over `parts` blocks' partials of `width`
// outputs in two levels of at most kSegmentedFanIn (segmented_complete.cuh: complete): a counter
// per run and one for the runs; the partials, then the runs' partials.
void completion(SegmentedLaunch& l, std::int64_t groups, std::int64_t parts, std::int64_t width) {
  const std::int64_t runs = ceil_div(parts, kSegmentedFanIn);
  l.groups = groups * (runs + 1);
  l.partials = groups * (parts + runs) * width;
}

void plan_rows(SegmentedLaunch& l, Shape2D s, std::int64_t size, std::int64_t sms) {
  const std::int64_t row_bytes = s.cols * size;
  if (row_bytes <= kTileRowBytes) {
    l.plan = SegmentedPlan::rows_tile;
    l.tile_rows = std::clamp<std::int64_t>(pow2_floor(kTileBytes / row_bytes), 16, 4096);
    l.grid = std::clamp<std::int64_t>(ceil_div(s.rows, l.tile_rows), 1, sms * kBlocksPerSm);
    return;
  }
  // Lanes per row: about four 16-byte loads each, at least 4 lanes (64 contiguous bytes a load).
  const std::int64_t vectors = ceil_div(row_bytes, 16);
  const int lanes = static_cast<int>(std::clamp<std::int64_t>(pow2_ceil(ceil_div(vectors, 4)), 4, 32));
  const bool fills = s.rows * lanes >= sms * kBlocksPerSm * kThreads;
  if (row_bytes <= 4096 || fills) {
    l.plan = SegmentedPlan::rows_warp;
    l.lanes = lanes;
    l.grid = std::clamp<std::int64_t>(ceil_div(s.rows * lanes, kThreads), 1, sms * kBlocksPerSm * 2);
    return;
  }
  // Too few rows to fill the machine: several blocks per row, each at least 16 KiB of it.
  l.plan = SegmentedPlan::rows_blocks;
  l.parts = std::clamp<std::int64_t>(ceil_div(sms * kBlocksPerSm * 2, s.rows), 1,
                                     std::max<std::int64_t>(1, row_bytes / (16 * 1024)));
  l.grid = s.rows * l.parts;
  if (l.parts > 1) {
    l.groups = s.rows;
    l.partials = s.rows * l.parts;
  }
}

void plan_cols(SegmentedLaunch& l, Shape2D s, std::int64_t size, std::int64_t sms, bool aligned) {
  const std::int64_t per_vec = 16 / size;
  if (s.cols < 32 * per_vec) {
    // A step of RS rows is a whole number of vectors, at most one per thread.
    l.plan = SegmentedPlan::cols_flat;
    const std::int64_t unit = per_vec / std::gcd(s.cols, per_vec);
    l.step_rows = unit * std::max<std::int64_t>(1, kThreads * per_vec / (s.cols * unit));
    l.vectors = aligned;
    const std::int64_t steps = s.rows / l.step_rows;
    // Each block at least 4 steps, as many blocks as keep the machine busy: a thread's loads in
    // flight are few, so its steps are latency rounds. Their partials complete in two levels.
    l.grid = std::clamp<std::int64_t>(ceil_div(steps, 4), 1, sms * kBlocksPerSm);
    l.slab_rows = std::max<std::int64_t>(1, ceil_div(steps, l.grid));
    l.grid = std::max<std::int64_t>(1, ceil_div(steps, l.slab_rows));
    l.parts = l.grid;
    if (l.grid > 1) completion(l, 1, l.grid, s.cols);
    return;
  }
  l.plan = SegmentedPlan::cols_tile;
  l.vectors = aligned && s.cols % per_vec == 0;
  l.tile_cols = l.vectors ? 32 * per_vec : 32;
  const std::int64_t tiles = ceil_div(s.cols, l.tile_cols);
  if (s.rows < 4 * kWarps) {
    // Too few rows to keep 8 warps on one tile busy: each warp owns a tile over every row.
    l.stacked = false;
    l.slab_rows = s.rows;
    l.grid = ceil_div(tiles, kWarps);
    return;
  }
  // Slabs of at least 4 rows a warp; kColsTileBlocksPerSm blocks per SM.
  l.parts = std::clamp<std::int64_t>(ceil_div(sms * kColsTileBlocksPerSm, tiles), 1,
                                     std::max<std::int64_t>(1, s.rows / (4 * kWarps)));
  l.slab_rows = ceil_div(s.rows, l.parts);
  l.parts = ceil_div(s.rows, l.slab_rows);
  l.grid = tiles * l.parts;
  if (l.parts > 1) completion(l, tiles, l.parts, l.tile_cols);
}

}  // namespace

SegmentedGeometry SegmentedLaunch::geometry() const {
  SegmentedGeometry g{plan, static_cast<int>(std::min<std::int64_t>(grid, 0x7FFF'FFFF)), kSegmentedThreads, 0};
  switch (plan) {
    case SegmentedPlan::rows_tile: g.per_block = tile_rows; break;
    case SegmentedPlan::rows_blocks: g.per_block = parts; break;
    case SegmentedPlan::cols_flat: g.per_block = slab_rows * step_rows; break;
    case SegmentedPlan::cols_tile: g.per_block = slab_rows; break;
    default: break;
  }
  return g;
}

Shape2D run_shape(Shape2D s) {
  if (s.axis == Axis::cols && s.cols == 1) return {1, s.rows, Axis::rows};
  if (s.axis == Axis::cols && s.rows == 1) return {s.cols, 1, Axis::rows};
  return s;
}

SegmentedLaunch plan_segmented(Shape2D s, std::size_t element_bytes, int sm_count, bool aligned) {
  SegmentedLaunch l;
  if (s.outputs() <= 0 || s.summed() <= 0) return l;  // nothing to add (empty outputs are zeroed)
  const auto size = static_cast<std::int64_t>(element_bytes);
  const std::int64_t sms = std::max(sm_count, 1);
  if (s.axis == Axis::rows) plan_rows(l, s, size, sms);
  else plan_cols(l, s, size, sms, aligned);
  return l;
}

std::size_t segmented_partials_offset(const SegmentedLaunch& l) {
  return static_cast<std::size_t>(ceil_div(l.groups * 4, 256) * 256);
}

std::size_t segmented_scratch_bytes(const SegmentedLaunch& l, std::size_t acc_bytes) {
  return segmented_partials_offset(l) + static_cast<std::size_t>(l.partials) * acc_bytes;
}

const char* plan_name(SegmentedPlan p) {
  switch (p) {
    case SegmentedPlan::none: return "none";
    case SegmentedPlan::rows_tile: return "rows_tile";
    case SegmentedPlan::rows_warp: return "rows_warp";
    case SegmentedPlan::rows_blocks: return "rows_blocks";
    case SegmentedPlan::cols_flat: return "cols_flat";
    case SegmentedPlan::cols_tile: return "cols_tile";
  }
  return "?";
}

}  // namespace rb::cuda
