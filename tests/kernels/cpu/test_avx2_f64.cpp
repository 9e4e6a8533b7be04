#include <gtest/gtest.h>

#include "kernels/cpu/avx2.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"

namespace {

using rb::test::Acc;
using rb::test::call;
using rb::test::need_avx2;

RB_SUM_TESTS(Avx2F64, call<rb::cpu::avx2_f64>, Acc::f64, need_avx2())

TEST(Avx2F64, ExactWithOutliers) {
  RB_SKIP_IF(need_avx2());
  rb::test::expect_exact_with_outliers(call<rb::cpu::avx2_f64>);
}

TEST(Avx2F64, BeatsFloatOnIllConditionedData) {
  RB_SKIP_IF(need_avx2());
  for (const auto n : rb::test::kIllConditionedSizes) {
    const double naive = rb::test::ill_conditioned_error(call<rb::cpu::avx2_f32>, n);
    ASSERT_GT(naive, 0) << "n = " << n << ": the data no longer defeats a float sum";
    EXPECT_LT(rb::test::ill_conditioned_error(call<rb::cpu::avx2_f64>, n), naive) << "n = " << n;
  }
}

}  // namespace
