// kernels/cuda/segmented_plan.hpp on the host (no GPU needed): every plan is reached, and each keeps
// the invariants its kernel relies on, over shapes from 1 x 1 to beyond 2^31 elements.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "kernels/cuda/segmented_plan.hpp"

namespace {

using rb::cuda::Axis;
using rb::cuda::SegmentedLaunch;
using rb::cuda::SegmentedPlan;
using rb::cuda::Shape2D;

constexpr std::int64_t kMaxGrid = 0x7FFF'FFFF;

void expect_sound(const SegmentedLaunch& l, Shape2D s, std::int64_t size) {
  const std::int64_t per_vec = 16 / size;
  ASSERT_GE(l.grid, 1);
  EXPECT_LE(l.grid, kMaxGrid);
  switch (l.plan) {
    case SegmentedPlan::rows_tile:
      EXPECT_EQ(l.tile_rows % 16, 0);  // every tile starts on a 16-byte boundary
      EXPECT_LE(l.tile_rows * s.cols * size, 32 * 1024);
      break;
    case SegmentedPlan::rows_warp:
      EXPECT_TRUE(l.lanes == 4 || l.lanes == 8 || l.lanes == 16 || l.lanes == 32);
      break;
    case SegmentedPlan::rows_blocks:
      EXPECT_EQ(l.grid, s.rows * l.parts);
      if (l.parts > 1) {
        EXPECT_EQ(l.partials, s.rows * l.parts);
      }
      break;
    case SegmentedPlan::cols_flat:
      EXPECT_EQ(l.step_rows * s.cols % per_vec, 0);  // a step is whole vectors
      EXPECT_LE(l.step_rows * s.cols / per_vec, 256);  // at most one per thread
      EXPECT_GE(l.grid * l.slab_rows, s.rows / l.step_rows);  // every whole step is some block's
      EXPECT_LT((l.grid - 1) * l.slab_rows, std::max<std::int64_t>(1, s.rows / l.step_rows));  // no idle block
      if (l.grid > 1) {
        EXPECT_GE(l.partials, l.grid * s.cols);
      }
      break;
    case SegmentedPlan::cols_tile:
      EXPECT_GE(l.parts * l.slab_rows, s.rows);
      EXPECT_LT((l.parts - 1) * l.slab_rows, s.rows);
      if (l.vectors) {
        EXPECT_EQ(s.cols % per_vec, 0);
      }
      if (l.parts > 1) {
        EXPECT_GE(l.partials, l.grid * l.tile_cols);  // every block's, then the runs' (two levels)
      }
      if (!l.stacked) {  // a tile per warp covers every column
        EXPECT_GE(l.grid * 8 * l.tile_cols, s.cols);
      }
      break;
    case SegmentedPlan::none: ADD_FAILURE() << "no plan for a non-empty shape"; break;
  }
  EXPECT_GE(rb::cuda::segmented_partials_offset(l), static_cast<std::size_t>(l.groups) * 4);
}

TEST(SegmentedPlan, EveryPlanReachedAndSound) {
  const std::vector<std::int64_t> lengths = {1, 2, 3, 4, 5, 7, 8, 31, 32, 33, 64, 127, 128, 129, 255, 256, 257,
                                             1000, 1024, 4096, 4097, 65536, 1 << 20, (1 << 20) + 3, 1 << 28};
  for (const std::int64_t size : {4, 2}) {
    std::set<SegmentedPlan> seen;
    for (const Axis axis : {Axis::rows, Axis::cols}) {
      for (const std::int64_t n : lengths) {
        for (const std::int64_t b : lengths) {
          if (b * n > (std::int64_t{1} << 32)) continue;
          const Shape2D s{b, n, axis};
          for (const bool aligned : {true, false}) {
            SCOPED_TRACE(testing::Message() << b << " x " << n << (axis == Axis::cols ? " cols" : " rows") << ", "
                                            << size << "-byte elements, aligned " << aligned);
            const SegmentedLaunch l = rb::cuda::plan_segmented(s, size, 132, aligned);
            expect_sound(l, s, size);
            seen.insert(l.plan);
          }
        }
      }
    }
    EXPECT_EQ(seen.size(), 5u) << size << "-byte elements";
  }
}

// run_shape keeps what is summed: the same outputs, each the same length, over the same array
// read in the same order; only a shape that is the same along rows changes axis.
TEST(SegmentedPlan, RunShapeKeepsOutputsAndSums) {
  for (const std::int64_t b : {1, 2, 7, 1 << 20}) {
    for (const std::int64_t n : {1, 2, 7, 1 << 20}) {
      for (const Axis axis : {Axis::rows, Axis::cols}) {
        const Shape2D s{b, n, axis};
        SCOPED_TRACE(testing::Message() << b << " x " << n << (axis == Axis::cols ? " cols" : " rows"));
        const Shape2D r = rb::cuda::run_shape(s);
        EXPECT_EQ(r.outputs(), s.outputs());
        EXPECT_EQ(r.summed(), s.summed());
        EXPECT_EQ(r.elements(), s.elements());
        const bool one_column_or_row = axis == Axis::cols && (n == 1 || b == 1);
        EXPECT_EQ(r.axis, one_column_or_row ? Axis::rows : axis);
        EXPECT_EQ(rb::cuda::run_shape(r), r);
      }
    }
  }
  EXPECT_EQ(rb::cuda::plan_segmented(rb::cuda::run_shape({1 << 24, 1, Axis::cols}), 4, 132, true).plan,
            SegmentedPlan::rows_blocks);
  EXPECT_EQ(rb::cuda::plan_segmented(rb::cuda::run_shape({1, 1 << 24, Axis::cols}), 2, 132, true).plan,
            SegmentedPlan::rows_tile);
}

TEST(SegmentedPlan, EmptyShapesLaunchNothing) {
  for (const Axis axis : {Axis::rows, Axis::cols}) {
    EXPECT_EQ(rb::cuda::plan_segmented({0, 7, axis}, 4, 132, true).plan, SegmentedPlan::none);
    EXPECT_EQ(rb::cuda::plan_segmented({7, 0, axis}, 4, 132, true).plan, SegmentedPlan::none);
  }
}

}  // namespace
