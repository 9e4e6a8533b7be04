// The AVX2 and AVX-512 kernels differ only in register width, so each test is written once and
// instantiated per kernel; ctest names say which ran, e.g. Avx/AvxSum.LargeOddSizes/avx512_kahan.
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/avx512.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"

namespace {

using rb::test::Acc;
using rb::test::call;
using rb::test::SumFn;

// One kernel under test; `baseline` is the float kernel of the same ISA, the one the accurate
// kernels must beat.
struct Kernel {
  const char* name;
  SumFn sum;
  Acc acc;
  SumFn baseline;
  std::string (*why_not)();
};

// gtest numbers the instances (Avx/AvxSum.NonFinite/3) and prints this next to the number;
// CMake's test discovery turns the pair into the ctest name Avx/AvxSum.NonFinite/avx512_f32.
void PrintTo(const Kernel& k, std::ostream* os) { *os << k.name; }

const Kernel kAvx2F32{"avx2_f32", call<rb::cpu::avx2_f32>, Acc::f32_sequential,
                      call<rb::cpu::avx2_f32>, rb::test::need_avx2};
const Kernel kAvx2F64{"avx2_f64", call<rb::cpu::avx2_f64>, Acc::f64, call<rb::cpu::avx2_f32>,
                      rb::test::need_avx2};
const Kernel kAvx2Kahan{"avx2_kahan", call<rb::cpu::avx2_kahan>, Acc::f32_tree,
                        call<rb::cpu::avx2_f32>, rb::test::need_avx2};
const Kernel kAvx512F32{"avx512_f32", call<rb::cpu::avx512_f32>, Acc::f32_sequential,
                        call<rb::cpu::avx512_f32>, rb::test::need_avx512};
const Kernel kAvx512F64{"avx512_f64", call<rb::cpu::avx512_f64>, Acc::f64,
                        call<rb::cpu::avx512_f32>, rb::test::need_avx512};
const Kernel kAvx512Kahan{"avx512_kahan", call<rb::cpu::avx512_kahan>, Acc::f32_tree,
                          call<rb::cpu::avx512_f32>, rb::test::need_avx512};

// Skipping in SetUp covers every test below; on a CPU without the ISA the kernel dies with SIGILL.
class AvxTest : public ::testing::TestWithParam<Kernel> {
 protected:
  void SetUp() override { RB_SKIP_IF(GetParam().why_not()); }
};

// The RB_SUM_TESTS sweep (sum_checks.hpp) as parameterized tests; keep the two in step.
class AvxSum : public AvxTest {};
INSTANTIATE_TEST_SUITE_P(Avx, AvxSum,
                         ::testing::Values(kAvx2F32, kAvx2F64, kAvx2Kahan, kAvx512F32, kAvx512F64,
                                           kAvx512Kahan));

TEST_P(AvxSum, RandomEverySizeAndOffset) {
  rb::test::expect_sum_every_size(GetParam().sum, GetParam().acc);
}

TEST_P(AvxSum, ExactEverySizeAndOffset) { rb::test::expect_exact_every_size(GetParam().sum); }

TEST_P(AvxSum, LargeOddSizes) { rb::test::expect_large_sizes(GetParam().sum, GetParam().acc); }

TEST_P(AvxSum, NonFinite) { rb::test::expect_non_finite(GetParam().sum); }

class AvxFloat : public AvxTest {};
INSTANTIATE_TEST_SUITE_P(Avx, AvxFloat, ::testing::Values(kAvx2F32, kAvx512F32));

TEST_P(AvxFloat, FloatChainsLoseOutliersLowBits) {
  // The counterpart of the Kahan/f64 outlier tests: a plain float sum is not exact there, so
  // those tests do test something.
  auto y = rb::test::small_integers(100, 100, 3);
  y[0] = 0x1p30f;
  double exact = 0;
  for (const float v : y) exact += v;
  EXPECT_NE(GetParam().sum(y.data(), 100), exact);
}

// The kernels that promise more than float accuracy: a double accumulator or a compensated sum.
class AvxAccurate : public AvxTest {};
INSTANTIATE_TEST_SUITE_P(Avx, AvxAccurate,
                         ::testing::Values(kAvx2F64, kAvx2Kahan, kAvx512F64, kAvx512Kahan));

TEST_P(AvxAccurate, ExactWithOutliers) { rb::test::expect_exact_with_outliers(GetParam().sum); }

TEST_P(AvxAccurate, BeatsFloatOnIllConditionedData) {
  for (const auto n : rb::test::kIllConditionedSizes) {
    const double naive = rb::test::ill_conditioned_error(GetParam().baseline, n);
    ASSERT_GT(naive, 0) << "n = " << n << ": the data no longer defeats a float sum";
    EXPECT_LT(rb::test::ill_conditioned_error(GetParam().sum, n), naive) << "n = " << n;
  }
}

class AvxKahan : public AvxTest {};
INSTANTIATE_TEST_SUITE_P(Avx, AvxKahan, ::testing::Values(kAvx2Kahan, kAvx512Kahan));

TEST_P(AvxKahan, ErrorBoundIndependentOfN) {
  rb::test::expect_compensated_bound(GetParam().sum);
}

}  // namespace
