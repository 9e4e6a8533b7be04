#include <gtest/gtest.h>

#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/avx512.hpp"
#include "kernels/cpu/read.hpp"
#include "kernels/cpu/threads.hpp"
#include "kernels/cpu/unrolled.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"
#include "tests/support/data.hpp"

namespace {

using rb::test::Acc;
using rb::cpu::Threads;
using rb::test::need_avx2;
using rb::test::need_avx512;
using rb::test::runtime_fn;

// 3 threads (more than this 2-core CI machine has, and odd) and a minimum chunk of 1 float, so
// that the split really happens at every size: chunks of 16, empty ones, unaligned starts.
constexpr int kThreads = 3;
constexpr std::int64_t kSplitAlways = 1;

namespace cpu = rb::cpu;
RB_SUM_TESTS(ThreadsUnrolled8F32, (runtime_fn<Threads<cpu::unrolled8_f32>>(kThreads, kSplitAlways)),
             Acc::f32_sequential, "")
RB_SUM_TESTS(ThreadsAvx2F32, (runtime_fn<Threads<cpu::avx2_f32>>(kThreads, kSplitAlways)),
             Acc::f32_sequential, need_avx2())
RB_SUM_TESTS(ThreadsAvx2Kahan, (runtime_fn<Threads<cpu::avx2_kahan>>(kThreads, kSplitAlways)),
             Acc::f32_tree, need_avx2())
RB_SUM_TESTS(ThreadsAvx2F64, (runtime_fn<Threads<cpu::avx2_f64>>(kThreads, kSplitAlways)),
             Acc::f64, need_avx2())
RB_SUM_TESTS(ThreadsAvx512F32, (runtime_fn<Threads<cpu::avx512_f32>>(kThreads, kSplitAlways)),
             Acc::f32_sequential, need_avx512())
RB_SUM_TESTS(ThreadsAvx512Kahan, (runtime_fn<Threads<cpu::avx512_kahan>>(kThreads, kSplitAlways)),
             Acc::f32_tree, need_avx512())
RB_SUM_TESTS(ThreadsAvx512F64, (runtime_fn<Threads<cpu::avx512_f64>>(kThreads, kSplitAlways)),
             Acc::f64, need_avx512())
RB_SUM_TESTS(ThreadsReadF32, (runtime_fn<Threads<cpu::read_f32>>(kThreads, kSplitAlways)),
             Acc::f32_sequential, "")

TEST(ThreadsAvx2Kahan, CompensationKeptAcrossChunks) {
  RB_SKIP_IF(need_avx2());
  rb::test::expect_exact_with_outliers(runtime_fn<Threads<cpu::avx2_kahan>>(kThreads, kSplitAlways));
  rb::test::expect_compensated_bound(runtime_fn<Threads<cpu::avx2_kahan>>(kThreads, kSplitAlways));
}

TEST(ThreadsAvx2, KahanAndF64BeatFloatOnIllConditionedData) {
  RB_SKIP_IF(need_avx2());
  for (const auto n : rb::test::kIllConditionedSizes) {
    const double naive = rb::test::ill_conditioned_error(runtime_fn<Threads<cpu::avx2_f32>>(kThreads, kSplitAlways), n);
    ASSERT_GT(naive, 0) << "n = " << n << ": the data no longer defeats a float sum";
    EXPECT_LT(rb::test::ill_conditioned_error(runtime_fn<Threads<cpu::avx2_kahan>>(kThreads, kSplitAlways), n), naive);
    EXPECT_LT(rb::test::ill_conditioned_error(runtime_fn<Threads<cpu::avx2_f64>>(kThreads, kSplitAlways), n), naive);
  }
}

TEST(Threads, ExactAtEveryThreadCount) {
  for (const int threads : {1, 2, 4, 5, 8}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    rb::test::expect_exact_every_size(runtime_fn<Threads<cpu::unrolled8_f64>>(threads, kSplitAlways), 600);
  }
}

TEST(Threads, DeterministicAcrossCalls) {
  // Partials are added in thread order: the same n and thread count give the same bits.
  Threads<cpu::unrolled8_f32> sum(kThreads, kSplitAlways);
  const auto x = rb::test::random_signed(1'000'003, 8);
  const double first = sum(x.data(), 1'000'003);
  for (int i = 0; i < 50; ++i) ASSERT_EQ(sum(x.data(), 1'000'003), first);
}

TEST(Threads, ReportsItsThreadCount) {
  EXPECT_EQ(Threads<cpu::unrolled8_f32>(5).threads(), 5);
  EXPECT_EQ(Threads<cpu::unrolled8_f32>().threads(), cpu::default_thread_count());
}

}  // namespace
