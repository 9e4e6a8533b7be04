#include <gtest/gtest.h>

#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/openmp.hpp"
#include "kernels/cpu/unrolled.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"

namespace {

namespace cpu = rb::cpu;
using cpu::OpenMP;
using rb::test::Acc;

std::string need_openmp() { return cpu::openmp_unavailable(); }
std::string need_openmp_avx2() { return need_openmp().empty() ? rb::test::need_avx2() : need_openmp(); }

// A team of 3 and a minimum chunk of 1 float: the split happens at every size (test_threads.cpp).
constexpr int kThreads = 3;
constexpr std::int64_t kSplitAlways = 1;

template <auto Kernel>
rb::test::SumFn split() {
  return rb::test::runtime_fn<OpenMP<Kernel>>(kThreads, kSplitAlways);
}

RB_SUM_TESTS(OpenMPUnrolled8F32, split<cpu::unrolled8_f32>(), Acc::f32_sequential, need_openmp())
RB_SUM_TESTS(OpenMPAvx2F32, split<cpu::avx2_f32>(), Acc::f32_sequential, need_openmp_avx2())
RB_SUM_TESTS(OpenMPAvx2F64, split<cpu::avx2_f64>(), Acc::f64, need_openmp_avx2())

TEST(OpenMPAvx2, F64BeatsFloatOnIllConditionedData) {
  RB_SKIP_IF(need_openmp_avx2());
  rb::test::expect_beats_float(split<cpu::avx2_f32>(), split<cpu::avx2_f64>());
}

TEST(OpenMP, ReportsItsTeamSize) {
  RB_SKIP_IF(need_openmp());
  EXPECT_EQ(OpenMP<cpu::unrolled8_f32>(5).threads(), 5);
  EXPECT_GE(OpenMP<cpu::unrolled8_f32>().threads(), 1);
}

}  // namespace
