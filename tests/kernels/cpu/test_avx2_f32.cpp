#include <gtest/gtest.h>

#include "kernels/cpu/avx2.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"

namespace {

using rb::test::Acc;
using rb::test::call;
using rb::test::need_avx2;

RB_SUM_TESTS(Avx2F32, call<rb::cpu::avx2_f32>, Acc::f32_sequential, need_avx2())

TEST(Avx2F32, FloatChainsLoseOutliersLowBits) {
  // The counterpart of the Kahan/f64 outlier tests: a plain float sum is not exact there, so
  // those tests do test something.
  RB_SKIP_IF(need_avx2());
  const auto x = rb::test::small_integers(100, 100, 3);
  auto y = x;
  y[0] = 0x1p30f;
  double exact = 0;
  for (const float v : y) exact += v;
  EXPECT_NE(call<rb::cpu::avx2_f32>(y.data(), 100), exact);
}

}  // namespace
