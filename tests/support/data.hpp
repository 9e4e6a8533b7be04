#pragma once
// Test inputs and the accuracy rule (bench/detail/verify.hpp), for kernel and harness tests.
#include <cstdint>
#include <span>
#include <vector>

#include "bench/detail/reference.hpp"
#include "bench/detail/verify.hpp"

namespace rb::test {

// Seeded signed values of mixed magnitudes: sign * m * 2^e, m uniform in [1, 2), e uniform in
// [-8, 8]. Never all ones or zeros: indexing bugs change the sum.
std::vector<float> random_signed(std::int64_t n, std::uint64_t seed);
// Large values of both signs that cancel, plus small ones: naive float sums lose the small ones.
std::vector<float> ill_conditioned(std::int64_t n, std::uint64_t seed);

// The fp64 reference of x (bench/detail/reference.cpp's compensated sum).
bench::Reference reference_of(std::span<const float> x);

// How the kernel tests bound a sum of n values: a float tree (8 log2 n float levels), one float
// chain (8 (n - 1) additions) or double accumulation (8 (n - 1) double additions). The factor 8
// leaves room for what a kernel adds beyond a pure tree or chain (lanes, tails, completions):
// these tests look for wrong elements at small odd sizes, where any such bug is far above it.
// The harness states each backend's real structure instead (bench/api/summation.hpp).
enum class Acc { f32_tree, f32_sequential, f64 };
bench::Structure structure(Acc acc, std::int64_t n);
inline bench::Verdict verify(double got, const bench::Reference& ref, Acc acc) {
  return bench::check_accuracy(got, ref, structure(acc, ref.n));
}

}  // namespace rb::test

// EXPECT that `got` is the sum of `x` within the bound of `acc` (an rb::test::Acc).
#define RB_EXPECT_SUM(got, x, acc)                                                                     \
  do {                                                                                                 \
    const auto rb_ref_ = ::rb::test::reference_of(x);                                                  \
    const auto rb_v_ = ::rb::test::verify((got), rb_ref_, (acc));                                       \
    EXPECT_TRUE(rb_v_.ok) << "n = " << rb_ref_.n << ": " << rb_v_.message;                             \
  } while (0)
