// The stopping rule (bench/sampling.hpp): its statistics against values computed by hand, and its
// decisions on sample streams whose answer is known.
#include "bench/sampling.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace {

using rb::bench::Sampler;
using rb::bench::StopRule;

TEST(Sampling, MedianIntervalRanksMatchTheBinomial) {
  // 2 P(B <= j-1) <= 0.05 < 2 P(B <= j) for B ~ Binomial(k, 1/2), worked out by hand:
  // k = 6: P(B = 0) = 1/64 -> j = 1; k = 10: P(B <= 1) = 11/1024, P(B <= 2) = 56/1024 -> j = 2;
  // k = 20: P(B <= 5) = 0.0207, P(B <= 6) = 0.0577 -> j = 6.
  EXPECT_EQ(rb::bench::median_ci_rank(5), 0);
  EXPECT_EQ(rb::bench::median_ci_rank(6), 1);
  EXPECT_EQ(rb::bench::median_ci_rank(10), 2);
  EXPECT_EQ(rb::bench::median_ci_rank(20), 6);
  // Past the exact computation the normal approximation continues without a jump.
  const auto exact = rb::bench::median_ci_rank(1000), approx = rb::bench::median_ci_rank(1001);
  EXPECT_NEAR(static_cast<double>(approx), static_cast<double>(exact), 1.0);
  EXPECT_NEAR(static_cast<double>(exact), (1000 - 1.96 * std::sqrt(1000.0)) / 2, 1.5);
}

TEST(Sampling, StudentTQuantiles) {
  EXPECT_NEAR(rb::bench::student_t975(1), 12.706, 1e-3);
  EXPECT_NEAR(rb::bench::student_t975(10), 2.228, 1e-3);
  EXPECT_NEAR(rb::bench::student_t975(11), 2.201, 1e-3);
  EXPECT_NEAR(rb::bench::student_t975(30), 2.042, 1e-3);
  EXPECT_NEAR(rb::bench::student_t975(1000), 1.962, 1e-3);
}

TEST(Sampling, StatisticsOfAKnownSet) {
  Sampler s(StopRule{});
  for (double v : {5.0, 1.0, 4.0, 2.0, 3.0, 10.0, 6.0, 7.0, 9.0, 8.0, 11.0}) s.add(v);
  const auto st = s.stats();
  EXPECT_EQ(st.count, 11);
  EXPECT_DOUBLE_EQ(st.mean, 6.0);
  EXPECT_DOUBLE_EQ(st.median, 6.0);
  EXPECT_DOUBLE_EQ(st.min, 1.0);
  EXPECT_DOUBLE_EQ(st.max, 11.0);
  EXPECT_DOUBLE_EQ(st.p10, 2.0);  // position 0.1 * 10 = 1 of the sorted 1..11
  EXPECT_DOUBLE_EQ(st.p90, 10.0);
  // k = 11: j = 2, the interval [x(2), x(10)] = [2, 10]: half-width 4 of 6. The mean's: s = sqrt(11),
  // t(10) = 2.228: 2.228 * sqrt(11) / sqrt(11) / 6.
  EXPECT_NEAR(s.median_precision(), 4.0 / 6.0, 1e-12);
  EXPECT_NEAR(s.mean_precision(), 2.228 / 6.0, 1e-9);
  EXPECT_NEAR(st.precision, 2.228 / 6.0, 1e-9);
  EXPECT_FALSE(st.target_met);
}

TEST(Sampling, FewSamplesHaveNoPrecision) {
  Sampler s(StopRule{});
  s.add(1.0);
  EXPECT_TRUE(std::isinf(s.precision()));
  s.add(1.0);
  EXPECT_EQ(s.mean_precision(), 0.0);  // two equal samples: a mean interval of width 0
  EXPECT_TRUE(std::isinf(s.median_precision()));
}

// Stops at min_samples when the samples agree, not before.
TEST(Sampling, QuietStreamStopsAtMinSamples) {
  StopRule rule;
  rule.min_samples = 10;
  Sampler s(rule);
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(1.0, 0.0005);
  int k = 0;
  do {
    s.add(noise(rng));
    ++k;
  } while (!s.done(0.0));
  EXPECT_EQ(k, 10);
  EXPECT_TRUE(s.stats().target_met);
}

// 5% of the samples 10x slower (a preempted thread): the mean's interval stays wide, the median's
// closes, and the rule stops with the target met. (min_samples 60: with fewer, the first samples may
// hold no outlier yet and the mean's interval closes on them.)
TEST(Sampling, OutliersStopOnTheMedian) {
  StopRule rule;
  rule.min_samples = 60;
  Sampler s(rule);
  std::mt19937_64 rng(11);
  std::normal_distribution<double> noise(1.0, 0.01);
  std::bernoulli_distribution late(0.05);
  while (!s.done(0.0)) s.add(late(rng) ? 10.0 : noise(rng));
  EXPECT_TRUE(s.stats().target_met);
  EXPECT_LE(s.median_precision(), rule.target);
  EXPECT_GT(s.mean_precision(), rule.target);
  EXPECT_NEAR(s.stats().median, 1.0, 0.01);
}

// Two equally likely speeds 10% apart: the median's interval spans the gap, the mean's closes, and
// the rule mostly stops on the mean. Over 100 seeds: the rule tests after every sample, and an
// imbalance between the modes that passes 1.96 sigma at one of those tests closes the median's
// interval early (17 of these 100 seeds); every stop on the mean lands near 1.05.
TEST(Sampling, TwoModesStopOnTheMean) {
  StopRule rule;
  rule.min_samples = 60;
  int on_the_median = 0;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    Sampler s(rule);
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution fast(0.5);
    std::normal_distribution<double> jitter(0.0, 0.002);
    while (!s.done(0.0)) s.add((fast(rng) ? 1.0 : 1.1) + jitter(rng));
    EXPECT_TRUE(s.stats().target_met) << seed;
    if (s.mean_precision() > rule.target) ++on_the_median;
    else EXPECT_NEAR(s.stats().mean, 1.05, 0.02) << seed;
  }
  EXPECT_LE(on_the_median, 25);
}

// Noise the target cannot reach: the caps stop it, and it says the target was missed.
TEST(Sampling, CapsStopANoisyStreamAndReportTheMiss) {
  StopRule rule;
  rule.max_samples = 40;
  Sampler s(rule);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> wide(0.5, 1.5);
  while (!s.done(0.0)) s.add(wide(rng));
  EXPECT_EQ(s.count(), 40);
  EXPECT_FALSE(s.stats().target_met);
  EXPECT_GT(s.stats().precision, 0.005);

  const auto one_sample_after = [](double wall) {
    Sampler timed(StopRule{});
    timed.add(1.0);
    return timed.done(wall);
  };
  EXPECT_FALSE(one_sample_after(0.1));
  EXPECT_FALSE(one_sample_after(0.2));  // past max_seconds, but three samples of 0.2 s fit in the timeout
  EXPECT_TRUE(one_sample_after(0.4));   // three of 0.4 s do not
  EXPECT_FALSE(Sampler(StopRule{}).done(1e9));  // never before the first sample

  StopRule hard;
  hard.timeout_seconds = hard.max_seconds;  // a timeout at max_time: max_time is a hard cap
  Sampler capped(hard);
  capped.add(1.0);
  EXPECT_TRUE(capped.done(0.2));
}

// The projection, worked by hand. Ten samples alternating 1.00 and 1.02: mean 1.01, s = 0.010541,
// cv = 0.010437. The mean's count: t(0.975, 19) cv / sqrt(20) = 2.093 * 0.010437 / 4.472 =
// 0.00489 <= 0.005, and at 19 samples t(0.975, 18) cv / sqrt(19) = 0.00503 > 0.005: 20. The
// median's: rank 2 of 10, [1.00, 1.02], precision 0.0099, 10 (0.0099 / 0.005)^2 -> 40. The
// smaller: 20.
TEST(Sampling, ProjectedSamplesWorkedByHand) {
  Sampler s(StopRule{});
  EXPECT_TRUE(std::isinf(s.projected_samples()));
  for (int i = 0; i < 10; ++i) s.add(i % 2 ? 1.02 : 1.0);
  EXPECT_EQ(s.projected_samples(), 20);
  StopRule loose;
  loose.target = 0.05;  // already met: never below the samples taken or min_samples
  Sampler met(loose);
  for (int i = 0; i < 12; ++i) met.add(i % 2 ? 1.02 : 1.0);
  EXPECT_EQ(met.projected_samples(), 12);
}

// Past max_time the rule goes on only for a target in reach. Samples of 10 ms with 1.5% noise need
// about (1.96 * 0.015 / 0.005)^2 = 35 samples, 0.35 s: the target is met past max_time and before
// the timeout. With 10% noise they need about 1540 (15 s): the rule stops at max_time.
TEST(Sampling, MaxTimeGivesWayToATargetInReach) {
  const auto run = [](double noise, std::uint64_t seed) {
    Sampler s(StopRule{});
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> jitter(0.0, noise);
    while (!s.done(0.01 * static_cast<double>(s.count()))) s.add(0.01 * (1 + jitter(rng)));
    return s;
  };
  int extended = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const Sampler near = run(0.015, seed);
    EXPECT_TRUE(near.stats().target_met) << seed;
    if (near.count() > 20) ++extended;  // past max_time (20 samples of 10 ms)
    EXPECT_LT(near.count(), 100) << seed;  // within the timeout
    const Sampler far = run(0.10, seed);
    EXPECT_FALSE(far.stats().target_met) << seed;
    EXPECT_EQ(far.count(), 20) << seed;  // stopped at max_time
  }
  EXPECT_GE(extended, 10);  // most seeds had not met the target by max_time
}

// However the projection errs, the timeout ends the sampling.
TEST(Sampling, TheTimeoutEndsEverySampling) {
  StopRule rule;
  rule.timeout_seconds = 0.5;
  Sampler s(rule);
  std::mt19937_64 rng(7);
  std::normal_distribution<double> jitter(0.0, 0.012);  // projected about 0.4 s: in reach, then not met
  while (!s.done(0.01 * static_cast<double>(s.count()))) s.add(0.01 * (1 + jitter(rng)));
  EXPECT_LE(s.count(), 50);
}

}  // namespace
