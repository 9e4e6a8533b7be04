#include <gtest/gtest.h>

#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/openmp.hpp"
#include "kernels/cpu/unrolled.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"

namespace {

using rb::test::Acc;
using rb::cpu::OpenMP;
using rb::test::need_avx2;
using rb::test::runtime_fn;
namespace cpu = rb::cpu;

std::string need_openmp() { return cpu::openmp_unavailable(); }
std::string need_openmp_avx2() { return need_openmp().empty() ? need_avx2() : need_openmp(); }

// A team of 3 and a minimum chunk of 1 float: the split happens at every size (test_threads.cpp).
constexpr int kThreads = 3;
constexpr std::int64_t kSplitAlways = 1;

RB_SUM_TESTS(OpenMPUnrolled8F32, (runtime_fn<OpenMP<cpu::unrolled8_f32>>(kThreads, kSplitAlways)),
             Acc::f32_sequential, need_openmp())
RB_SUM_TESTS(OpenMPAvx2F32, (runtime_fn<OpenMP<cpu::avx2_f32>>(kThreads, kSplitAlways)),
             Acc::f32_sequential, need_openmp_avx2())
RB_SUM_TESTS(OpenMPAvx2F64, (runtime_fn<OpenMP<cpu::avx2_f64>>(kThreads, kSplitAlways)),
             Acc::f64, need_openmp_avx2())

TEST(OpenMPAvx2, F64BeatsFloatOnIllConditionedData) {
  RB_SKIP_IF(need_openmp_avx2());
  for (const auto n : rb::test::kIllConditionedSizes) {
    const double naive = rb::test::ill_conditioned_error(runtime_fn<OpenMP<cpu::avx2_f32>>(kThreads, kSplitAlways), n);
    ASSERT_GT(naive, 0) << "n = " << n;
    EXPECT_LT(rb::test::ill_conditioned_error(runtime_fn<OpenMP<cpu::avx2_f64>>(kThreads, kSplitAlways), n), naive);
  }
}

TEST(OpenMP, ReportsItsTeamSize) {
  RB_SKIP_IF(need_openmp());
  EXPECT_EQ(OpenMP<cpu::unrolled8_f32>(5).threads(), 5);
  EXPECT_GE(OpenMP<cpu::unrolled8_f32>().threads(), 1);
}

}  // namespace
