#include <gtest/gtest.h>

#include "kernels/cpu/accumulate.hpp"
#include "tests/support/data.hpp"

namespace {

using rb::bench::Accumulation;

TEST(Accumulate, RandomOddSizes) {
  for (const std::int64_t n : {0, 1, 31, 33, 1023, 4099, 100'003}) {
    const auto x = rb::test::random_signed(n, 7 + static_cast<std::uint64_t>(n));
    RB_EXPECT_SUM(rb::cpu::accumulate_f32(x.data(), n), x, Accumulation::f32_sequential);
    RB_EXPECT_SUM(rb::cpu::accumulate_f64(x.data(), n), x, Accumulation::f64);
  }
}

TEST(Accumulate, OffsetStart) {
  const auto x = rb::test::random_signed(1001, 3);
  for (int offset = 1; offset <= 3; ++offset) {
    const std::span<const float> tail(x.data() + offset, x.size() - offset);
    RB_EXPECT_SUM(rb::cpu::accumulate_f64(tail.data(), static_cast<std::int64_t>(tail.size())), tail,
                  Accumulation::f64);
  }
}

TEST(Accumulate, DroppedElementIsCaught) {
  // The tolerance must be able to fail: summing one element too few is detected.
  const auto x = rb::test::random_signed(33, 11);
  const auto ref = rb::test::reference_of(x);
  EXPECT_FALSE(rb::bench::verify(rb::cpu::accumulate_f64(x.data(), 32), ref, Accumulation::f64).ok);
}

}  // namespace
