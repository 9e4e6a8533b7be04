#include <gtest/gtest.h>

#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/pstl.hpp"
#include "kernels/cpu/unrolled.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"
#include "tests/support/data.hpp"

namespace {

namespace cpu = rb::cpu;
using cpu::StdPar;
using rb::test::Acc;
using rb::test::call;

std::string need_tbb() { return cpu::pstl_unavailable(); }
std::string need_tbb_avx2() { return need_tbb().empty() ? rb::test::need_avx2() : need_tbb(); }

// Blocks of at least 1 float: up to kMaxPstlBlocks blocks at every size, so TBB really splits.
constexpr std::int64_t kSplitAlways = 1;

RB_SUM_TESTS(StdReducePar, call<cpu::std_reduce_par>, Acc::f32_sequential, need_tbb())
RB_SUM_TESTS(StdReduceParUnseq, call<cpu::std_reduce_par_unseq>, Acc::f32_sequential, need_tbb())
RB_SUM_TESTS(StdParUnrolled8F64, rb::test::runtime_fn<StdPar<cpu::unrolled8_f64>>(kSplitAlways), Acc::f64,
             need_tbb())
RB_SUM_TESTS(StdParAvx2F32, rb::test::runtime_fn<StdPar<cpu::avx2_f32>>(kSplitAlways), Acc::f32_sequential,
             need_tbb_avx2())

TEST(StdPar, DeterministicAcrossCalls) {
  // Block partials are added in block order, whatever thread summed which block.
  RB_SKIP_IF(need_tbb());
  StdPar<cpu::unrolled8_f32> sum(1000);
  const auto x = rb::test::random_signed(1'000'003, 8);
  const double first = sum(x.data(), 1'000'003);
  for (int i = 0; i < 50; ++i) ASSERT_EQ(sum(x.data(), 1'000'003), first);
}

TEST(StdPar, ReportsTbbConcurrency) {
  RB_SKIP_IF(need_tbb());
  EXPECT_EQ(StdPar<cpu::unrolled8_f32>().threads(), cpu::pstl_threads());
  EXPECT_GE(cpu::pstl_threads(), 1);
  EXPECT_EQ(cpu::StdReducePar().threads(), cpu::pstl_threads());
}

}  // namespace
