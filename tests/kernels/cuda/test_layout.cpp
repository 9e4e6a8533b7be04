// kernels/cuda/layout.cuh on the host (no GPU needed): the head/body/tail split covers x[0, n)
// exactly once with a 16-byte aligned body at every start alignment, and EvenShare hands out the
// body in contiguous, row-aligned chunks that differ by at most one row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/cuda/layout.cuh"

namespace {

using rb::cuda::EvenShare;
using rb::cuda::Split;

TEST(Layout, SplitCoversEveryElementOnceWithAnAlignedBody) {
  alignas(16) static float buffer[64 + 3];
  for (int offset = 0; offset < 4; ++offset) {
    const float* x = buffer + offset;
    for (std::int64_t n = 0; n <= 64; ++n) {
      SCOPED_TRACE(testing::Message() << "offset " << offset << ", n " << n);
      const Split s = rb::cuda::split_aligned(x, n);
      EXPECT_EQ(s.head, x);
      EXPECT_EQ(reinterpret_cast<const float*>(s.body), x + s.head_n);
      EXPECT_EQ(s.tail, x + s.head_n + 4 * s.body_n);
      EXPECT_EQ(s.head_n + 4 * s.body_n + s.tail_n, n);
      EXPECT_LE(s.head_n, 3);
      EXPECT_LE(s.tail_n, 3);
      if (s.body_n > 0) {
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(s.body) % 16, 0u);
      }
      if (n >= 3) {
        EXPECT_EQ(s.head_n, (4 - offset) % 4);
      }
    }
  }
  EXPECT_EQ(rb::cuda::split_aligned(nullptr, 0).body_n, 0);
  EXPECT_THROW(rb::cuda::split_aligned(buffer, -1), std::invalid_argument);
}

TEST(Layout, EdgeHandsEachHeadAndTailFloatToOneThread) {
  alignas(16) static const float buffer[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const Split s = rb::cuda::split_aligned(buffer + 1, 10);  // 3 head floats, 1 float4, 3 tail floats
  ASSERT_EQ(s.head_n, 3);
  ASSERT_EQ(s.body_n, 1);
  ASSERT_EQ(s.tail_n, 3);
  std::vector<float> edges;
  for (int t = 0; t < 32; ++t) edges.push_back(s.edge(t));
  const std::vector<float> want = {2, 3, 4, 9, 10, 11};
  EXPECT_TRUE(std::equal(want.begin(), want.end(), edges.begin()));
  EXPECT_TRUE(std::all_of(edges.begin() + 6, edges.end(), [](float v) { return v == 0.0f; }));
}

TEST(Layout, EvenShareIsContiguousRowAlignedAndBalanced) {
  for (const int row : {32, 256, 1024}) {
    for (const int grid : {1, 2, 7, 528, 1056}) {
      for (const std::int64_t items :
           {std::int64_t{0}, std::int64_t{1}, std::int64_t{row} - 1, std::int64_t{row} * grid,
            std::int64_t{row} * grid + 1, std::int64_t{row} * grid * 3 - 5, (std::int64_t{1} << 31) + 7}) {
        SCOPED_TRACE(testing::Message() << "row " << row << ", grid " << grid << ", items " << items);
        const EvenShare share = EvenShare::make(items, row, grid);
        std::int64_t expect_begin = 0, fewest = items, most = 0;
        for (int b = 0; b < grid; ++b) {
          const auto r = share.block(b);
          ASSERT_EQ(r.begin, expect_begin);
          ASSERT_LE(r.begin, r.end);
          if (r.begin < items) {
            ASSERT_EQ(r.begin % row, 0);
          }
          const std::int64_t rows = rb::cuda::ceil_div(r.end - r.begin, row);
          fewest = std::min(fewest, rows);
          most = std::max(most, rows);
          expect_begin = r.end;
        }
        EXPECT_EQ(expect_begin, items);
        EXPECT_LE(most - fewest, 1);
      }
    }
  }
}

// The same split for other element types: 16 / sizeof(T) elements per vector, a head and a tail
// of fewer than that, at every element offset.
template <class T>
void expect_split_covers_every_element_once() {
  using S = rb::cuda::SplitOf<T>;
  constexpr int kPerVec = S::kPerVec;
  static_assert(kPerVec * sizeof(T) == 16);
  alignas(16) static T buffer[80 + 8];
  for (int offset = 0; offset < kPerVec; ++offset) {
    const T* x = buffer + offset;
    for (std::int64_t n = 0; n <= 80; ++n) {
      SCOPED_TRACE(testing::Message() << sizeof(T) << "-byte elements, offset " << offset << ", n " << n);
      const S s = rb::cuda::split_aligned(x, n);
      EXPECT_EQ(s.head, x);
      EXPECT_EQ(reinterpret_cast<const T*>(s.body), x + s.head_n);
      EXPECT_EQ(s.tail, x + s.head_n + kPerVec * s.body_n);
      EXPECT_EQ(s.head_n + kPerVec * s.body_n + s.tail_n, n);
      EXPECT_LT(s.head_n, kPerVec);
      EXPECT_LT(s.tail_n, kPerVec);
      if (s.body_n > 0) {
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(s.body) % 16, 0u);
      }
      if (n >= kPerVec - 1) {
        EXPECT_EQ(s.head_n, (kPerVec - offset) % kPerVec);
      }
    }
  }
  if constexpr (sizeof(T) > 1) {
    const auto* odd = reinterpret_cast<const T*>(reinterpret_cast<const unsigned char*>(buffer) + 1);
    EXPECT_THROW(rb::cuda::split_aligned(odd, 4), std::invalid_argument);
  }
}

TEST(Layout, TypedSplitCoversEveryElementOnceWithAnAlignedBody) {
  expect_split_covers_every_element_once<std::uint16_t>();  // f16 and bf16: their bits
  expect_split_covers_every_element_once<double>();
  expect_split_covers_every_element_once<std::int32_t>();
}

TEST(Layout, WorkSizedGrid) {
  EXPECT_EQ(rb::cuda::work_sized_grid(0, 4096, 528), 1);
  EXPECT_EQ(rb::cuda::work_sized_grid(4096, 4096, 528), 1);
  EXPECT_EQ(rb::cuda::work_sized_grid(4097, 4096, 528), 2);
  EXPECT_EQ(rb::cuda::work_sized_grid(std::int64_t{1} << 40, 4096, 528), 528);
}

}  // namespace
