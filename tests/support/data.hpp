#pragma once
// Test inputs and the one verification rule (bench/verify.hpp), for kernel and harness tests.
#include <cstdint>
#include <span>
#include <vector>

#include "bench/reference.hpp"
#include "bench/verify.hpp"

namespace rb::test {

// Seeded signed values of mixed magnitudes: sign * m * 2^e, m uniform in [1, 2), e uniform in
// [-8, 8]. Never all ones or zeros: indexing bugs change the sum.
std::vector<float> random_signed(std::int64_t n, std::uint64_t seed);
// Large values of both signs that cancel, plus small ones: naive float sums lose the small ones.
std::vector<float> ill_conditioned(std::int64_t n, std::uint64_t seed);

// The fp64 reference of x (bench/reference.cpp's compensated sum).
bench::Reference reference_of(std::span<const float> x);

}  // namespace rb::test

// EXPECT that `got` is the sum of `x` within the harness's tolerance for accumulation `acc`.
#define RB_EXPECT_SUM(got, x, acc)                                                           \
  do {                                                                                       \
    const auto rb_ref_ = ::rb::test::reference_of(x);                                        \
    const auto rb_v_ = ::rb::bench::verify((got), rb_ref_, (acc));                           \
    EXPECT_TRUE(rb_v_.ok) << "n = " << rb_ref_.n << ": " << rb_v_.message;                   \
  } while (0)
