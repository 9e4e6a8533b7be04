#include <gtest/gtest.h>

#include "kernels/cpu/parallel.hpp"

namespace {

using rb::cpu::chunk;
constexpr std::int64_t kChunkAlign = rb::cpu::kChunkAlignOf<float>;
using rb::cpu::parts_for;

TEST(Parallel, ChunksTileTheRangeOnAlignedBoundaries) {
  for (const int parts : {1, 2, 3, 4, 7, 16, 256}) {
    for (std::int64_t n = 0; n <= 5000; n += (n < 300 ? 1 : 97)) {
      std::int64_t next = 0;
      for (int i = 0; i < parts; ++i) {
        const auto r = chunk(n, parts, i);
        ASSERT_EQ(r.begin, next) << "n = " << n << ", parts = " << parts << ", i = " << i;
        ASSERT_LE(r.begin, r.end);
        if (r.begin < n) {
          ASSERT_EQ(r.begin % kChunkAlign, 0);
        }
        next = r.end;
      }
      ASSERT_EQ(next, n) << "n = " << n << ", parts = " << parts;
    }
  }
}

TEST(Parallel, ChunksAreBalancedForLargeN) {
  const std::int64_t n = (std::int64_t{1} << 28) + 3;
  for (const int parts : {2, 3, 16}) {
    for (int i = 0; i + 1 < parts; ++i) {
      const auto r = chunk(n, parts, i);
      EXPECT_LE(r.end - r.begin - n / parts, kChunkAlign);
    }
  }
}

TEST(Parallel, PartsRespectMinimumChunkAndThreads) {
  EXPECT_EQ(parts_for(0, 8, 1000), 1);
  EXPECT_EQ(parts_for(1999, 8, 1000), 1);
  EXPECT_EQ(parts_for(2000, 8, 1000), 2);
  EXPECT_EQ(parts_for(1'000'000, 8, 1000), 8);
  EXPECT_EQ(parts_for(5, 3, 1), 3);
  EXPECT_EQ(parts_for(5, 3, 0), 3);
  EXPECT_EQ(parts_for(5, 0, 1), 1);
}

}  // namespace
