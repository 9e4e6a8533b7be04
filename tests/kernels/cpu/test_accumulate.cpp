#include <gtest/gtest.h>

#include "kernels/cpu/accumulate.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"
#include "tests/support/data.hpp"

namespace {

using rb::test::Acc;
using rb::test::call;

RB_SUM_TESTS(AccumulateF32, call<rb::cpu::accumulate_f32>, Acc::f32_sequential, "")
RB_SUM_TESTS(AccumulateF64, call<rb::cpu::accumulate_f64>, Acc::f64, "")

TEST(Accumulate, DroppedElementIsCaught) {
  // The tolerance must be able to fail: summing one element too few is detected.
  const auto x = rb::test::random_signed(33, 11);
  const auto ref = rb::test::reference_of(x);
  EXPECT_FALSE(rb::test::verify(rb::cpu::accumulate_f64(x.data(), 32), ref, Acc::f64).ok);
}

TEST(AccumulateF64, ExactWithOutliers) { rb::test::expect_exact_with_outliers(call<rb::cpu::accumulate_f64>); }

TEST(AccumulateF64, BeatsFloatOnIllConditionedData) {
  rb::test::expect_beats_float(call<rb::cpu::accumulate_f32>, call<rb::cpu::accumulate_f64>);
}

}  // namespace
