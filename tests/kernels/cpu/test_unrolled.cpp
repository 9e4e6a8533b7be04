#include <gtest/gtest.h>

#include "kernels/cpu/unrolled.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"

namespace {

using rb::test::Acc;
using rb::test::call;

RB_SUM_TESTS(Unrolled8F32, call<rb::cpu::unrolled8_f32>, Acc::f32_sequential, "")
RB_SUM_TESTS(Unrolled8F64, call<rb::cpu::unrolled8_f64>, Acc::f64, "")

TEST(Unrolled8F64, ExactWithOutliers) { rb::test::expect_exact_with_outliers(call<rb::cpu::unrolled8_f64>); }

TEST(Unrolled8F64, BeatsFloatOnIllConditionedData) {
  rb::test::expect_beats_float(call<rb::cpu::unrolled8_f32>, call<rb::cpu::unrolled8_f64>);
}

}  // namespace
