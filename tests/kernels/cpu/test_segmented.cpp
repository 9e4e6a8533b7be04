// kernels/cpu/segmented.hpp: every output of rows and columns of B x N, f32, f16 and bf16, on pools of
// 1 to 7 threads (more shares than rows or columns included): exactly the integer sums on integer
// data, within the rounding bound of an fp64 reference on random data, the same bits twice.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/dtype.hpp"
#include "kernels/cpu/accumulate.hpp"
#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/segmented.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"
#include "tests/support/typed_reference.hpp"

namespace {

using rb::cpu::SegmentedThreads;

struct Shape {
  std::int64_t b, n;
};
constexpr Shape kShapes[] = {{0, 5}, {5, 0}, {1, 1},   {1, 1000},  {1000, 1}, {3, 7},   {7, 3},  {2, 64},
                             {64, 2}, {33, 129}, {129, 33}, {100, 1024}, {1024, 100}, {5, 4097}, {4097, 5}};

// Each output's fp64 sum and sum|x| along `rows` (true) or columns.
template <class T>
void reference(const std::vector<T>& x, Shape s, bool rows, std::vector<double>& sum, std::vector<double>& abs) {
  sum.assign(static_cast<std::size_t>(rows ? s.b : s.n), 0.0);
  abs.assign(sum.size(), 0.0);
  for (std::int64_t r = 0; r < s.b; ++r) {
    for (std::int64_t c = 0; c < s.n; ++c) {
      const double v = rb::widen(x[static_cast<std::size_t>(r * s.n + c)]);
      sum[static_cast<std::size_t>(rows ? r : c)] += v;
      abs[static_cast<std::size_t>(rows ? r : c)] += std::fabs(v);
    }
  }
}

// Every shape, both axes, on `threads` threads: integer data exact, random data within
// (summed + 8) x 2^-24 x sum|x| per output, two calls the same bits.
template <auto Kernel>
void expect_segmented(int threads) {
  using T = typename SegmentedThreads<Kernel>::element_type;
  SegmentedThreads<Kernel> sums(threads);
  for (const Shape s : kShapes) {
    for (const bool integers : {true, false}) {
      const std::vector<T> x = integers ? rb::test::small_integers<T>(s.b * s.n, 7)
                                        : rb::test::random_elements<T>(s.b * s.n, 11);
      for (const bool rows : {true, false}) {
        SCOPED_TRACE(testing::Message() << s.b << " x " << s.n << (rows ? " rows" : " cols") << ", " << threads
                                        << " threads, " << (integers ? "integers" : "random"));
        std::vector<double> want, abs;
        reference(x, s, rows, want, abs);
        std::vector<float> got(want.size(), std::nanf("")), again(want.size(), std::nanf(""));
        for (std::vector<float>* out : {&got, &again}) {
          if (rows) sums.rows(x.data(), s.b, s.n, out->data());
          else sums.cols(x.data(), s.b, s.n, out->data());
        }
        if (!got.empty()) {  // memcmp takes no null pointer, even for 0 bytes
          EXPECT_EQ(std::memcmp(got.data(), again.data(), got.size() * sizeof(float)), 0) << "two calls differ";
        }
        const double summed = static_cast<double>(rows ? s.n : s.b);
        for (std::size_t o = 0; o < got.size(); ++o) {
          const double allowed = integers ? 0.0 : (summed + 8) * 0x1p-24 * abs[o];
          ASSERT_LE(std::fabs(got[o] - want[o]), allowed) << "output " << o << ": got " << got[o] << ", expected "
                                                          << want[o];
        }
      }
    }
  }
}

TEST(CpuSegmented, AccumulateF32EveryShapeAndThreadCount) {
  for (const int threads : {1, 2, 3, 7}) expect_segmented<rb::cpu::accumulate_f32>(threads);
}

TEST(CpuSegmented, AccumulateSixteenBitEveryShapeAndThreadCount) {
  for (const int threads : {1, 3}) {
    expect_segmented<rb::cpu::accumulate_f16>(threads);
    expect_segmented<rb::cpu::accumulate_bf16>(threads);
  }
}

TEST(CpuSegmented, Avx2EveryShape) {
  RB_SKIP_IF(rb::test::need_avx2());
  expect_segmented<rb::cpu::avx2_f32>(3);
  expect_segmented<rb::cpu::avx2_bf16>(3);
}

TEST(CpuSegmented, Avx2F16EveryShape) {
  RB_SKIP_IF(rb::test::need_avx2_f16c());
  expect_segmented<rb::cpu::avx2_f16>(3);
}

}  // namespace
