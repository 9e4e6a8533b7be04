#include <gtest/gtest.h>

#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/avx512.hpp"
#include "kernels/cpu/read.hpp"
#include "kernels/cpu/threads.hpp"
#include "kernels/cpu/unrolled.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"
#include "tests/support/data.hpp"

namespace {

namespace cpu = rb::cpu;
using cpu::Threads;
using rb::test::Acc;
using rb::test::need_avx2;
using rb::test::need_avx512;

// 3 threads (more than this 2-core CI machine has, and odd) and a minimum chunk of 1 float, so
// that the split really happens at every size: chunks of 16, empty ones, unaligned starts.
constexpr int kThreads = 3;
constexpr std::int64_t kSplitAlways = 1;

// Kernel on a pool of `threads` that splits at every size.
template <auto Kernel>
rb::test::SumFn split(int threads = kThreads) {
  return rb::test::runtime_fn<Threads<Kernel>>(threads, kSplitAlways);
}

RB_SUM_TESTS(ThreadsUnrolled8F32, split<cpu::unrolled8_f32>(), Acc::f32_sequential, "")
RB_SUM_TESTS(ThreadsAvx2F32, split<cpu::avx2_f32>(), Acc::f32_sequential, need_avx2())
RB_SUM_TESTS(ThreadsAvx2Kahan, split<cpu::avx2_kahan>(), Acc::f32_tree, need_avx2())
RB_SUM_TESTS(ThreadsAvx2F64, split<cpu::avx2_f64>(), Acc::f64, need_avx2())
RB_SUM_TESTS(ThreadsAvx512F32, split<cpu::avx512_f32>(), Acc::f32_sequential, need_avx512())
RB_SUM_TESTS(ThreadsAvx512Kahan, split<cpu::avx512_kahan>(), Acc::f32_tree, need_avx512())
RB_SUM_TESTS(ThreadsAvx512F64, split<cpu::avx512_f64>(), Acc::f64, need_avx512())
RB_SUM_TESTS(ThreadsReadF32, split<cpu::read_f32>(), Acc::f32_sequential, "")

TEST(ThreadsAvx2Kahan, CompensationKeptAcrossChunks) {
  RB_SKIP_IF(need_avx2());
  rb::test::expect_exact_with_outliers(split<cpu::avx2_kahan>());
  rb::test::expect_compensated_bound(split<cpu::avx2_kahan>());
}

TEST(ThreadsAvx2, KahanAndF64BeatFloatOnIllConditionedData) {
  RB_SKIP_IF(need_avx2());
  rb::test::expect_beats_float(split<cpu::avx2_f32>(), split<cpu::avx2_kahan>());
  rb::test::expect_beats_float(split<cpu::avx2_f32>(), split<cpu::avx2_f64>());
}

TEST(Threads, ExactAtEveryThreadCount) {
  for (const int threads : {1, 2, 4, 5, 8}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    rb::test::expect_exact_every_size(split<cpu::unrolled8_f64>(threads), 600);
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
