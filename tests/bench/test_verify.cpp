// The checks (bench/detail/verify.hpp) against summation orders simulated on the host: a bound
// must hold for a correct order with the structure it states, and fail for a wrong one.
#include "bench/detail/verify.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "bench/detail/exact_data.hpp"
#include "common/synth.hpp"
#include "tests/support/data.hpp"

namespace {

using namespace rb::bench;

// P accumulators of type T, element i into accumulator i % P (a grid-stride kernel's order),
// then a pairwise tree over them.
template <class T>
T strided_sum(const std::vector<float>& x, std::int64_t n, std::int64_t p) {
  std::vector<T> acc(static_cast<std::size_t>(p), T(0));
  for (std::int64_t i = 0; i < n; ++i)
    acc[static_cast<std::size_t>(i % p)] += static_cast<T>(x[static_cast<std::size_t>(i)]);
  for (std::size_t width = 1; width < acc.size(); width *= 2) {
    for (std::size_t k = 0; k + width < acc.size(); k += 2 * width) acc[k] += acc[k + width];
  }
  return acc[0];
}

Structure strided_structure(Accumulator acc, std::int64_t n, std::int64_t p) {
  return {acc, (n + p - 1) / p, tree_depth(p), 0, acc != Accumulator::f64};
}

std::vector<float> synthetic(rb::synth::Dist dist, std::int64_t n, std::uint64_t seed = 7) {
  std::vector<float> x(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = rb::synth::value(dist, seed, i);
  return x;
}

// The rule before the stated structures: 8 u d sum|x| (+ u32 |ref| for float results), with
// d = log2 n for every float tree or blocked kernel and d = n - 1 for double accumulators.
double old_rule(const rb::bench::Reference& ref, bool f64) {
  const double d = f64 ? static_cast<double>(ref.n - 1) : std::ceil(std::log2(static_cast<double>(ref.n)));
  return 8 * (f64 ? 0x1p-53 : 0x1p-24) * d * ref.sum_abs + (f64 ? 0.0 : 0x1p-24 * std::fabs(ref.sum));
}

TEST(Accuracy, TreeSumOfSignedDataPasses) {
  for (const std::int64_t n : {1, 2, 31, 33, 4097, 100'001, 1 << 20}) {
    const auto x = rb::test::random_signed(n, 99 + static_cast<std::uint64_t>(n));
    const auto v = check_accuracy(strided_sum<float>(x, n, 1024), rb::test::reference_of(x),
                                  strided_structure(Accumulator::f32, n, 1024));
    EXPECT_TRUE(v.ok) << n << ": " << v.message;
    ASSERT_TRUE(v.rel_tol.has_value());
  }
}

TEST(Accuracy, SignedDataSummingToNearZeroDoesNotFailSpuriously) {
  // x, -x interleaved with a tiny residue: |ref| ~ 1e-3 while sum|x| ~ 1e5. A bound relative to
  // |ref| would reject any float summation; ours scales with sum|x|.
  auto x = rb::test::random_signed(50'000, 3);
  const auto half = x;
  x.insert(x.end(), half.begin(), half.end());
  for (std::size_t i = half.size(); i < x.size(); ++i) x[i] = -x[i];
  x.push_back(1e-3f);
  const auto ref = rb::test::reference_of(x);
  EXPECT_NEAR(ref.sum, 1e-3, 1e-9);
  const auto n = static_cast<std::int64_t>(x.size());
  const auto v = check_accuracy(strided_sum<float>(x, n, 64), ref, strided_structure(Accumulator::f32, n, 64));
  EXPECT_TRUE(v.ok) << v.message;
}

// log2(n) is not the depth of a grid-stride kernel: each of its P threads adds n / P values in
// a chain. On constant input (a structured file) the correct strided sum exceeds the old
// log2(n) rule by 14x and stays inside the bound of its stated structure.
TEST(Accuracy, LongChainsOnConstantInputPassTheirStatedBound) {
  const std::int64_t n = (std::int64_t{1} << 22) + 1, p = 256;
  const std::vector<float> x(static_cast<std::size_t>(n), 0.1f);
  const auto ref = rb::test::reference_of(x);
  const float got = strided_sum<float>(x, n, p);
  EXPECT_GT(std::fabs(got - ref.sum), old_rule(ref, false)) << "the old rule would have failed a correct kernel";
  const auto v = check_accuracy(got, ref, strided_structure(Accumulator::f32, n, p));
  EXPECT_TRUE(v.ok) << v.message;
}

// A row that states double accumulation must not pass with float accumulation. On signed
// uniform data at 2^22 + 1 a 16-lane float sum is 1.1e-9 sum|x| off: inside the old double rule
// (8 u64 (n - 1) = 3.7e-9), 37x outside the stated 16-lane double structure.
TEST(Accuracy, DoubleStructureRejectsFloatAccumulation) {
  const std::int64_t n = (std::int64_t{1} << 22) + 1, p = 16;
  const auto x = synthetic(rb::synth::Dist::uniform, n);
  const auto ref = rb::test::reference_of(x);
  const double in_float = strided_sum<float>(x, n, p);
  const auto structure = strided_structure(Accumulator::f64, n, p);
  EXPECT_LT(std::fabs(in_float - ref.sum), old_rule(ref, true)) << "the old rule would have passed it";
  EXPECT_FALSE(check_accuracy(in_float, ref, structure).ok);
  const auto v = check_accuracy(strided_sum<double>(x, n, p), ref, structure);
  EXPECT_TRUE(v.ok) << v.message;
}

// A float chain of 2^23 or more has no rounding bound below sum|x|, and one of 2^18 only a bound
// above 1% of sum|x| (kMaxRelativeBound): both rows report none (no rel_tol, so they are never
// counted as within a bound) instead of a tolerance that 0.0 or a wrong second digit would meet.
TEST(Accuracy, NoBoundIsReportedAsNone) {
  rb::bench::Reference ref;
  ref.n = std::int64_t{1} << 28;
  ref.sum = 20.0;
  ref.sum_abs = 20.0;
  const auto v = check_accuracy(0.0, ref, {Accumulator::f32, ref.n, 0, 0, true});
  EXPECT_TRUE(v.ok);
  EXPECT_FALSE(v.rel_tol.has_value());
  EXPECT_FALSE(rb::bench::accuracy_bound({Accumulator::f32, std::int64_t{1} << 24, 0, 0, true}, 1, 1).has_value());
  EXPECT_FALSE(rb::bench::accuracy_bound({Accumulator::f32, std::int64_t{1} << 23, 0, 0, true}, 1, 1).has_value());
  // gamma(2^18) = 2^18 u32 / (1 - 2^18 u32) = 1.56%: vacuous; gamma(2^17) = 0.78%: a bound.
  EXPECT_FALSE(rb::bench::accuracy_bound({Accumulator::f32, std::int64_t{1} << 18, 0, 0, true}, 1, 1).has_value());
  const auto below = rb::bench::accuracy_bound({Accumulator::f32, std::int64_t{1} << 17, 0, 0, true}, 1, 1);
  ASSERT_TRUE(below.has_value());
  EXPECT_LT(*below, rb::bench::kMaxRelativeBound);
  EXPECT_GT(*below, 0.007);
  EXPECT_TRUE(rb::bench::accuracy_bound({Accumulator::f64, ref.n, 0, 0, false}, 1, 1).has_value());
  // A row whose bound is vacuous is judged without one: 10% off passes the accuracy check (the
  // exact check and the per-call check still judge it) and reports no rel_tol.
  ref.n = std::int64_t{1} << 18;
  const auto vac = check_accuracy(18.0, ref, {Accumulator::f32, ref.n, 0, 0, true});
  EXPECT_TRUE(vac.ok);
  EXPECT_FALSE(vac.rel_tol.has_value());
}

TEST(Accuracy, BoundsOrderByAccumulator) {
  const Structure f32{Accumulator::f32, 1000, 10, 0, true};
  Structure kahan = f32, f64 = f32;
  kahan.acc = Accumulator::f32_compensated;
  f64.acc = Accumulator::f64;
  f64.float_result = false;
  const auto b = [](const Structure& s) { return *rb::bench::accuracy_bound(s, 1.0, 100.0); };
  EXPECT_LT(b(f64), b(kahan));
  EXPECT_LT(b(kahan), b(f32));
  EXPECT_FALSE(rb::bench::accuracy_bound({Accumulator::none}, 1.0, 1.0).has_value());
}

// A 16-bit accumulator: u = 2^-11 (f16) or 2^-8 (bf16) leaves a bound only for the shortest
// chains; an infinite f16 result is its overflow where sum|x| passes 65504, and a failure where
// it cannot have overflowed or where the accumulator is a float's.
TEST(Accuracy, SixteenBitAccumulators) {
  EXPECT_EQ(rb::bench::unit_roundoff(Accumulator::f16), 0x1p-11);
  EXPECT_EQ(rb::bench::unit_roundoff(Accumulator::bf16), 0x1p-8);
  EXPECT_TRUE(rb::bench::accuracy_bound({Accumulator::f16, 8, 0, 0, false}, 1, 1).has_value());
  EXPECT_FALSE(rb::bench::accuracy_bound({Accumulator::f16, 4096, 0, 0, false}, 1, 1).has_value());
  EXPECT_TRUE(rb::bench::accuracy_bound({Accumulator::bf16, 2, 0, 0, false}, 1, 1).has_value());
  EXPECT_FALSE(rb::bench::accuracy_bound({Accumulator::bf16, 3, 0, 0, false}, 1, 1).has_value());
  const double inf = std::numeric_limits<double>::infinity();
  rb::bench::Reference ref;
  ref.n = std::int64_t{1} << 20;
  ref.sum = 524288.0;
  ref.sum_abs = 524288.0;
  const Structure f16{Accumulator::f16, ref.n / 1024, 64, 0, false};
  const auto overflow = check_accuracy(inf, ref, f16);
  EXPECT_TRUE(overflow.ok);
  EXPECT_EQ(overflow.rel_err, inf);
  EXPECT_FALSE(overflow.rel_tol.has_value());
  EXPECT_FALSE(check_accuracy(-std::numeric_limits<double>::quiet_NaN(), ref, f16).ok);
  EXPECT_FALSE(check_accuracy(inf, ref, {Accumulator::f32, ref.n / 1024, 64, 0, true}).ok);
  EXPECT_FALSE(check_accuracy(inf, ref, {Accumulator::bf16, ref.n / 1024, 64, 0, false}).ok) << "bf16 reaches 3e38";
  ref.sum = ref.sum_abs = 60000.0;  // below 65504: no partial sum can overflow
  EXPECT_FALSE(check_accuracy(inf, ref, f16).ok);
}

// A float sum rounded once more to a 16-bit result (torch.sum of a bf16 tensor): u16 |ref| more.
TEST(Accuracy, SixteenBitResultAddsItsRounding) {
  Structure s{Accumulator::f32, 100, 10, 0, false};
  const double plain = *rb::bench::accuracy_bound(s, 50.0, 100.0);
  s.result_u = 0x1p-8;
  const double rounded = *rb::bench::accuracy_bound(s, 50.0, 100.0);
  EXPECT_NEAR(rounded - plain, 0x1p-8 * (50.0 + plain), 1e-12);
  EXPECT_NE(rb::bench::describe(s).find("bf16 result"), std::string::npos);
  EXPECT_EQ(rb::bench::exact_data_for(s), rb::bench::ExactData::sparse) << "the dense sum is not exact in bf16";
  s.result_u = 0;
  EXPECT_EQ(rb::bench::exact_data_for(s), rb::bench::ExactData::dense);
  // An f16 result overflows where the sum passes 65504, not where only sum|x| does.
  s.result_u = 0x1p-11;
  rb::bench::Reference ref;
  ref.n = 1 << 20;
  ref.sum = ref.sum_abs = 70000.0;
  EXPECT_TRUE(check_accuracy(std::numeric_limits<double>::infinity(), ref, s).ok);
  ref.sum = 1000.0;
  EXPECT_FALSE(check_accuracy(std::numeric_limits<double>::infinity(), ref, s).ok);
}

// The exact check needs no bound: any order sums the integers exactly, and one element dropped
// or counted twice changes the integer at every n (a bound would hide one uniform value in 10^6).
TEST(Exact, AnyOrderSumsTheIntegersExactlyAndOneElementFails) {
  for (const std::int64_t n :
       {std::int64_t{33}, std::int64_t{4097}, (std::int64_t{1} << 20) + 1, (std::int64_t{1} << 24) + 1}) {
    const auto x = synthetic(rb::synth::Dist::integers, n);
    const auto ref = rb::test::reference_of(x);
    ASSERT_EQ(ref.sum, std::round(ref.sum));
    for (const std::int64_t p : {1, 7, 256}) {
      EXPECT_TRUE(check_exact(strided_sum<float>(x, n, p), ref).ok) << n << " " << p;
      EXPECT_TRUE(check_exact(strided_sum<double>(x, n, p), ref).ok) << n << " " << p;
    }
    EXPECT_FALSE(check_exact(strided_sum<float>(x, n - 1, 256), ref).ok) << n;
    EXPECT_FALSE(check_exact(strided_sum<float>(x, n, 256) + x[static_cast<std::size_t>(n / 2)], ref).ok) << n;
    EXPECT_NE(check_exact(0.0, ref).message.find("exact check failed"), std::string::npos);
  }
}

TEST(Accuracy, RelativeErrorAndMessage) {
  const auto x = rb::test::random_signed(1000, 8);
  const auto ref = rb::test::reference_of(x);
  const auto v = check_accuracy(ref.sum + 1.0, ref, {Accumulator::f32, 1, 10, 0, true});
  EXPECT_FALSE(v.ok);
  EXPECT_NEAR(v.rel_err, 1.0 / ref.sum_abs, 1e-12);
  EXPECT_NE(v.message.find("expected"), std::string::npos);
  EXPECT_NE(v.message.find("chain 1 + tree 10"), std::string::npos);
  ASSERT_TRUE(v.rel_tol.has_value());
  EXPECT_GT(*v.rel_tol, 0.0);
}

TEST(Accuracy, NonFiniteMustMatchInKind) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const Structure tree{Accumulator::f32, 1, 4, 0, true};
  rb::bench::Reference ref;
  ref.n = 10;
  ref.nan = 1;
  EXPECT_TRUE(check_accuracy(nan, ref, tree).ok);
  EXPECT_EQ(check_accuracy(nan, ref, tree).rel_tol, 0.0);  // checked, so counted as within its bound
  EXPECT_FALSE(check_accuracy(inf, ref, tree).ok);
  EXPECT_FALSE(check_accuracy(1.0, ref, tree).ok);
  ref.nan = 0;
  ref.pos_inf = 2;
  EXPECT_TRUE(check_accuracy(inf, ref, tree).ok);
  EXPECT_FALSE(check_accuracy(-inf, ref, tree).ok);
  EXPECT_FALSE(check_accuracy(nan, ref, tree).ok);
  ref.pos_inf = 0;  // finite reference: a NaN result (e.g. an unwritten, poisoned slot) fails
  ref.sum = 1.0;
  ref.sum_abs = 1.0;
  const auto v = check_accuracy(nan, ref, tree);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("NaN"), std::string::npos);
  // ...even where the structure has no bound.
  EXPECT_FALSE(check_accuracy(nan, ref, {Accumulator::f32, std::int64_t{1} << 30, 0, 0, true}).ok);
}

// A binned accumulator (CUB's RFA) may lose addends far below the largest |x|: its bound scales
// with n max|x|, not with the chain. Measured on the H200 (CCCL 3.4.2, gpu_to_gpu): the harmonic
// sum at 2^30 came out 20.2557 against 21.3716, inside that bound; -1.7e33 for integers summing to
// 2 is not.
TEST(Accuracy, BinnedBoundScalesWithTheLargestElement) {
  Structure rfa{Accumulator::binned};
  rfa.binned_loss = 0x1p-26;
  const double n = 0x1p30, sum = 21.371631147794233, sum_abs = sum, max_abs = 1.0;
  rb::bench::Reference ref;
  ref.n = static_cast<std::int64_t>(n);
  ref.sum = sum;
  ref.sum_abs = sum_abs;
  ref.max_abs = max_abs;
  // 16 of 21.37 is no bound (above kMaxRelativeBound sum|x|): reported as none.
  EXPECT_TRUE(check_accuracy(20.255701065063477, ref, rfa).ok);
  EXPECT_FALSE(check_accuracy(20.255701065063477, ref, rfa).rel_tol.has_value());
  EXPECT_FALSE(rb::bench::accuracy_bound(rfa, sum, sum_abs, n * max_abs).has_value());
  EXPECT_FALSE(rb::bench::accuracy_bound(rfa, sum, sum_abs).has_value());  // needs n max|x|
  ref.sum = 2.0;
  ref.sum_abs = 4.5 * n;
  ref.max_abs = 8.0;
  EXPECT_FALSE(check_accuracy(-1.6868146216501806e33, ref, rfa).ok);
  EXPECT_TRUE(check_accuracy(2.0, ref, rfa).ok);
  EXPECT_FALSE(check_accuracy(2.0 + 600.0, ref, rfa).ok);  // 2^30 x 8 x 2^-26 = 128 allowed
  EXPECT_NEAR(*rb::bench::accuracy_bound(rfa, 2.0, ref.sum_abs, n * 8.0), 128.0, 1e-3);
}

// Two orders of the same random floats differ in their last bits; a promise of run_to_run must
// catch that, and no promise must not.
TEST(Repeat, DifferentBitsFailOnlyAPromise) {
  using rb::bench::Determinism;
  using rb::bench::check_repeatable;
  const auto x = rb::test::random_signed(100'003, 3);
  const double a = strided_sum<float>(x, 100'003, 7), b = strided_sum<float>(x, 100'003, 64);
  ASSERT_NE(a, b) << "the two orders happen to agree: pick another seed";
  EXPECT_FALSE(check_repeatable(a, b, Determinism::run_to_run).ok);
  EXPECT_FALSE(check_repeatable(a, b, Determinism::gpu_to_gpu).ok);
  EXPECT_NE(check_repeatable(a, b, Determinism::run_to_run).message.find("promises run_to_run"), std::string::npos);
  const auto none = check_repeatable(a, b, Determinism::not_guaranteed);
  EXPECT_TRUE(none.ok);
  EXPECT_FALSE(none.repeatable);
  EXPECT_TRUE(check_repeatable(a, a, Determinism::gpu_to_gpu).repeatable);
  // Bits, not values: -0 and +0 compare equal but are different sums.
  EXPECT_FALSE(check_repeatable(0.0, -0.0, Determinism::run_to_run).ok);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(check_repeatable(nan, -nan, Determinism::run_to_run).ok);  // NaN is NaN, whatever its payload
}

// The per-call check: every call within the bound, and the warm-up's bits where promised.
TEST(Calls, EveryCallIsCheckedAgainstBoundAndPromise) {
  using rb::bench::check_calls;
  using rb::bench::Determinism;
  const auto x = rb::test::random_signed(100'003, 11);
  const auto ref = rb::test::reference_of(x);
  const auto s = strided_structure(Accumulator::f32, 100'003, 64);
  const double good = strided_sum<float>(x, 100'003, 64), other = strided_sum<float>(x, 100'003, 32);
  ASSERT_NE(good, other) << "the two orders agree: pick another seed";
  std::vector<double> calls(40, good);
  auto v = check_calls(good, calls, ref, s, Determinism::run_to_run);
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.checked, 40);
  EXPECT_EQ(v.wrong, 0);
  EXPECT_TRUE(v.repeatable);
  ASSERT_TRUE(v.worst.rel_tol.has_value());
  // One call in 40 from another order: fine without a promise, wrong under one.
  calls[17] = other;
  v = check_calls(good, calls, ref, s, Determinism::not_guaranteed);
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_FALSE(v.repeatable);
  EXPECT_EQ(v.differed, 1);
  v = check_calls(good, calls, ref, s, Determinism::run_to_run);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.wrong, 1);
  EXPECT_NE(v.message.find("timed call 18 of 40"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("promises run_to_run"), std::string::npos) << v.message;
  // One call outside the bound fails without a promise too, and reports the worst error.
  calls[17] = good;
  calls[33] = ref.sum + 0.1 * ref.sum_abs;
  v = check_calls(good, calls, ref, s, Determinism::not_guaranteed);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.wrong, 1);
  EXPECT_NEAR(v.worst.rel_err, 0.1, 1e-6);
  EXPECT_NE(v.message.find("outside the stated bound"), std::string::npos) << v.message;
  // A NaN (an unwritten, poisoned slot) on one call fails.
  calls[33] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(check_calls(good, calls, ref, s, Determinism::not_guaranteed).ok);
  // A wrong warm-up call fails even when every later call repeats it.
  const double off = ref.sum + 0.1 * ref.sum_abs;
  EXPECT_FALSE(check_calls(off, std::vector<double>(5, off), ref, s, Determinism::run_to_run).ok);
}

}  // namespace
