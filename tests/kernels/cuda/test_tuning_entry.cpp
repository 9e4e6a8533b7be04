// kernels/cuda/tuning_entry.hpp and tuning.cuh's tables on the host (no GPU needed): which
// compute capability gets which tuning entry and under which name, the sm_90 entry being exactly
// the H200's named shapes, and the generic entry within the limits its comment claims for every
// SM >= 7.0.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "kernels/cuda/tuning.cuh"
#include "kernels/cuda/tuning_entry.hpp"

namespace {

using rb::cuda::TuningEntry;
using rb::cuda::tuning_entry_for;
using rb::cuda::tuning_entry_name;

static_assert(tuning_entry_for(9, 0) == TuningEntry::sm90, "usable in constant expressions");

TEST(TuningEntry, OnlySm90GetsTheH200Entry) {
  EXPECT_EQ(tuning_entry_for(9, 0), TuningEntry::sm90);
  // Older, newer and neighbouring architectures: none is measured, all get the generic entry.
  for (const auto& [major, minor] : {std::pair{7, 0}, {7, 2}, {7, 5}, {8, 0}, {8, 6}, {8, 7}, {8, 9}, {9, 1},
                                     {10, 0}, {10, 3}, {11, 0}, {12, 0}, {12, 1}, {0, 0}}) {
    SCOPED_TRACE(testing::Message() << major << "." << minor);
    EXPECT_EQ(tuning_entry_for(major, minor), TuningEntry::generic);
  }
}

TEST(TuningEntry, NamesSayWhichEntryAndWhy) {
  EXPECT_EQ(tuning_entry_name(9, 0), "sm_90 (H200-measured)");
  EXPECT_EQ(tuning_entry_name(8, 0), "generic (no entry for sm_80)");
  EXPECT_EQ(tuning_entry_name(8, 6), "generic (no entry for sm_86)");
  EXPECT_EQ(tuning_entry_name(10, 0), "generic (no entry for sm_100)");
  EXPECT_EQ(tuning_entry_name(12, 0), "generic (no entry for sm_120)");
}

// The sm_90 entry is the H200's named shapes and thresholds, unchanged.
TEST(TuningEntry, Sm90EntryIsTheMeasuredTable) {
  using T = rb::cuda::OnepassSm90Tuning;
  EXPECT_TRUE((std::is_same_v<T::TinyShape, rb::cuda::LaunchShape<256, 4, 1>>));
  EXPECT_TRUE((std::is_same_v<T::SmallShape, rb::cuda::LaunchShape<512, 8, 1>>));
  EXPECT_TRUE((std::is_same_v<T::MidShape, rb::cuda::LaunchShape<256, 4, 4>>));
  EXPECT_TRUE((std::is_same_v<T::WideShape, rb::cuda::LaunchShape<256, 8, 4>>));
  EXPECT_TRUE((std::is_same_v<T::LargeShape, rb::cuda::LaunchShape<512, 8, 2>>));
  EXPECT_EQ(T::wide_min_n, std::int64_t{3} << 17);
  EXPECT_EQ(T::large_min_n, (std::int64_t{1} << 20) + 1);
  EXPECT_LT(T::SmallShape::tile_floats, T::wide_min_n);
  EXPECT_LT(T::wide_min_n, T::large_min_n);
  EXPECT_EQ(T::block_collect_min_n, (std::int64_t{1} << 22) + 1);
  EXPECT_TRUE((std::is_same_v<rb::cuda::ReadShape, T::LargeShape>));
}

// What the generic entry's comment promises on any SM >= 7.0 for each of its shapes: 256 threads,
// 4 loads in flight, at most 1024 threads per SM (sm_75's limit) and so at least 64 registers per
// thread from a 64K-register file.
template <class Shape>
void expect_fits_every_sm_from_70() {
  SCOPED_TRACE(testing::Message() << "t" << Shape::threads << "_u" << Shape::unroll << "_b" << Shape::blocks_per_sm);
  EXPECT_EQ(Shape::threads, 256);
  EXPECT_EQ(Shape::unroll, 4);
  EXPECT_LE(Shape::threads * Shape::blocks_per_sm, 1024);
  EXPECT_GE(65536 / (Shape::threads * Shape::blocks_per_sm), 64);
}

// ... and paths in order, FinishEarly only while its grid is one batch of slots (256 blocks).
TEST(TuningEntry, GenericEntryFitsEverySmFrom70) {
  using T = rb::cuda::OnepassGenericTuning;
  expect_fits_every_sm_from_70<T::TinyShape>();
  expect_fits_every_sm_from_70<T::SmallShape>();
  expect_fits_every_sm_from_70<T::MidShape>();
  expect_fits_every_sm_from_70<T::WideShape>();
  expect_fits_every_sm_from_70<T::LargeShape>();
  EXPECT_LE(T::TinyShape::tile_floats, T::SmallShape::tile_floats);
  EXPECT_LT(T::SmallShape::tile_floats, T::large_min_n);
  EXPECT_EQ(T::wide_min_n, T::large_min_n);  // no Wide path
  EXPECT_LE(T::large_min_n, T::block_collect_min_n);
  EXPECT_EQ(T::block_collect_min_n, 256 * T::LargeShape::tile_floats + 1);
  EXPECT_EQ(T::block_collect_min_n, (std::int64_t{1} << 20) + 1);
}

}  // namespace
