#include <gtest/gtest.h>

#include "kernels/cpu/avx512.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"

namespace {

using rb::test::Acc;
using rb::test::call;
using rb::test::need_avx512;

RB_SUM_TESTS(Avx512Kahan, call<rb::cpu::avx512_kahan>, Acc::f32_tree, need_avx512())

TEST(Avx512Kahan, ExactWithOutliers) {
  RB_SKIP_IF(need_avx512());
  rb::test::expect_exact_with_outliers(call<rb::cpu::avx512_kahan>);
}

TEST(Avx512Kahan, ErrorBoundIndependentOfN) {
  RB_SKIP_IF(need_avx512());
  rb::test::expect_compensated_bound(call<rb::cpu::avx512_kahan>);
}

TEST(Avx512Kahan, BeatsFloatOnIllConditionedData) {
  RB_SKIP_IF(need_avx512());
  for (const auto n : rb::test::kIllConditionedSizes) {
    const double naive = rb::test::ill_conditioned_error(call<rb::cpu::avx512_f32>, n);
    ASSERT_GT(naive, 0) << "n = " << n << ": the data no longer defeats a float sum";
    EXPECT_LT(rb::test::ill_conditioned_error(call<rb::cpu::avx512_kahan>, n), naive) << "n = " << n;
  }
}

}  // namespace
