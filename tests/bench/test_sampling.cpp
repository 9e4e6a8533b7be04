// The stopping rule (bench/sampling.hpp): its statistics against values computed by hand, its
// decisions on sample streams whose answer is known, and the coverage of the interval it reports
// on simulated timings.
#include "bench/repetitions.hpp"
#include "bench/sampling.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

namespace {

using rb::bench::Sampler;
using rb::bench::StopRule;
using rb::bench::RunInterval;
using rb::bench::SampleStats;

// The rule with room past max_time (timeout 1 s): the default's timeout equals its max_time, a
// hard cap, so the projection's "in reach" needs a larger --timeout to act.
StopRule in_reach_rule() {
  StopRule r;
  r.timeout_seconds = 1.0;
  return r;
}

TEST(Sampling, MedianIntervalRanksMatchTheBinomial) {
  // 2 P(B <= j-1) <= 0.05 < 2 P(B <= j) for B ~ Binomial(k, 1/2), worked out by hand:
  // k = 6: P(B = 0) = 1/64 -> j = 1; k = 10: P(B <= 1) = 11/1024, P(B <= 2) = 56/1024 -> j = 2;
  // k = 20: P(B <= 5) = 0.0207, P(B <= 6) = 0.0577 -> j = 6.
  EXPECT_EQ(rb::bench::median_ci_rank(5), 0);
  EXPECT_EQ(rb::bench::median_ci_rank(6), 1);
  EXPECT_EQ(rb::bench::median_ci_rank(10), 2);
  EXPECT_EQ(rb::bench::median_ci_rank(20), 6);
  EXPECT_EQ(rb::bench::kFirstInterval, 6);
  // At 99.9%: k = 10: 2 / 1024 > 0.001 -> none; k = 11: 2 / 2048 -> j = 1; k = 20: P(B <= 2) =
  // 211 / 2^20 = 0.0002, P(B <= 3) = 1351 / 2^20 = 0.0013 -> j = 3.
  EXPECT_EQ(rb::bench::median_ci_rank_999(10), 0);
  EXPECT_EQ(rb::bench::median_ci_rank_999(11), 1);
  EXPECT_EQ(rb::bench::median_ci_rank_999(20), 3);
  // Past the exact computation the normal approximation continues without a jump.
  const auto exact = rb::bench::median_ci_rank(1000), approx = rb::bench::median_ci_rank(1001);
  EXPECT_NEAR(static_cast<double>(approx), static_cast<double>(exact), 1.0);
  EXPECT_NEAR(static_cast<double>(exact), (1000 - 1.96 * std::sqrt(1000.0)) / 2, 1.5);
  const auto exact999 = rb::bench::median_ci_rank_999(1000), approx999 = rb::bench::median_ci_rank_999(1001);
  EXPECT_NEAR(static_cast<double>(approx999), static_cast<double>(exact999), 1.0);
  EXPECT_NEAR(static_cast<double>(exact999), (1000 - 3.29 * std::sqrt(1000.0)) / 2, 1.5);
}

TEST(Sampling, StudentTQuantiles) {
  EXPECT_NEAR(rb::bench::student_t975(1), 12.706, 1e-3);
  EXPECT_NEAR(rb::bench::student_t975(10), 2.228, 1e-3);
  EXPECT_NEAR(rb::bench::student_t975(11), 2.201, 1e-3);
  EXPECT_NEAR(rb::bench::student_t975(30), 2.042, 1e-3);
  EXPECT_NEAR(rb::bench::student_t975(1000), 1.962, 1e-3);
}

TEST(Sampling, StatisticsOfAKnownSet) {
  // 1..11 alternating low and high: ranks centred on 6 are -1 -5 4 -4 3 -3 2 -2 1 0 5, lag-1
  // products summing to -64 over squares summing to 110: r1 = -0.582, bias-corrected
  // (11 r1 + 1) / 8 = -0.675. No correlation to correct for: k_eff = 11.
  StopRule rule;
  rule.min_samples = 11;
  Sampler s(rule);
  for (double v : {5.0, 1.0, 10.0, 2.0, 9.0, 3.0, 8.0, 4.0, 7.0, 6.0, 11.0}) s.add(v);
  const auto st = s.stats();
  EXPECT_EQ(st.count, 11);
  EXPECT_DOUBLE_EQ(st.mean, 6.0);
  EXPECT_DOUBLE_EQ(st.median, 6.0);
  EXPECT_DOUBLE_EQ(s.median(), 6.0);
  EXPECT_DOUBLE_EQ(st.min, 1.0);
  EXPECT_DOUBLE_EQ(st.max, 11.0);
  EXPECT_DOUBLE_EQ(st.p10, 2.0);  // position 0.1 * 10 = 1 of the sorted 1..11
  EXPECT_DOUBLE_EQ(st.p90, 10.0);
  EXPECT_NEAR(st.lag1, -0.675, 1e-12);
  EXPECT_FALSE(st.correlated);
  // k = 11: j = 2, the interval [x(2), x(10)] = [2, 10]: half-width 4 of 6, above the IQR floor
  // 1.96 (8.5 - 3.5) / sqrt(11) / 6 = 0.49. The 99.9% one, j = 1: [1, 11], 5 of 6, not 3 times
  // wider: no gap. The mean's: s = sqrt(11), t(10) = 2.228: 2.228 / 6, narrower, and no longer
  // the rule's.
  EXPECT_NEAR(st.precision, 4.0 / 6.0, 1e-12);
  EXPECT_NEAR(s.median_precision(), 4.0 / 6.0, 1e-12);
  EXPECT_NEAR(s.mean_precision(), 2.228 / 6.0, 1e-9);
  EXPECT_FALSE(st.unstable);
  EXPECT_FALSE(st.target_met);

  // The same values rising with noise: ranks -1 -5 -2 -4 -3 4 0 1 3 2 5, r1 = 42 / 110 = 0.382,
  // corrected (11 r1 + 1) / 8 = 0.65: k_eff = 11 * 0.35 / 1.65 = 2.3 leaves no interval.
  Sampler rising(rule);
  for (double v : {5.0, 1.0, 4.0, 2.0, 3.0, 10.0, 6.0, 7.0, 9.0, 8.0, 11.0}) rising.add(v);
  const auto rs = rising.stats();
  EXPECT_NEAR(rs.lag1, 0.65, 1e-12);
  EXPECT_TRUE(rs.correlated);  // 0.65 > 2 / sqrt(11) = 0.603
  EXPECT_TRUE(std::isinf(rs.precision));
  EXPECT_TRUE(rs.unstable);
  EXPECT_FALSE(rs.target_met);
}

TEST(Sampling, FewSamplesHaveNoPrecision) {
  Sampler s(StopRule{});
  s.add(1.0);
  EXPECT_TRUE(std::isinf(s.precision()));
  s.add(1.0);
  EXPECT_EQ(s.mean_precision(), 0.0);  // two equal samples: a mean interval of width 0
  EXPECT_TRUE(std::isinf(s.median_precision()));
  EXPECT_TRUE(s.stats().unstable);
  for (int i = 0; i < 4; ++i) s.add(1.0);
  EXPECT_EQ(s.precision(), 0.0);  // 6 equal samples: the first interval, of width 0
  EXPECT_FALSE(s.stats().unstable);
  EXPECT_FALSE(s.stats().target_met);  // below min_samples, whatever the precision
}

// Stops at min_samples when the samples agree, not before.
TEST(Sampling, QuietStreamStopsAtMinSamples) {
  const StopRule rule;
  Sampler s(rule);
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(1.0, 0.0005);
  std::int64_t k = 0;
  int met_early = 0;
  do {
    s.add(noise(rng));
    ++k;
    if (k < rule.min_samples) met_early += s.precision() <= rule.target;
  } while (!s.done(0.0));
  EXPECT_GT(met_early, 0);  // the precision alone would have stopped it sooner
  EXPECT_EQ(k, rule.min_samples);
  EXPECT_TRUE(s.stats().target_met);
}

// Past max_time with the target reached below min_samples: the caps stop it, and it is not met.
TEST(Sampling, TargetMetNeedsMinSamples) {
  Sampler s(in_reach_rule());
  for (int i = 0; i < 12; ++i) s.add(i % 2 ? 1.001 : 1.0);
  EXPECT_LE(s.precision(), 0.005);
  EXPECT_FALSE(s.stats().target_met);
  EXPECT_TRUE(s.done(0.99 * in_reach_rule().timeout_seconds));  // 20 samples would not fit
  EXPECT_FALSE(s.stats().target_met);
}

// The mean's interval no longer stops it: two values 2% apart, alternating, have a mean known to
// +-0.5% from 20 samples on, while the median's interval spans both values for good.
TEST(Sampling, TheMeansIntervalDoesNotStop) {
  StopRule rule;
  rule.max_samples = 400;
  Sampler s(rule);
  for (int i = 0; i < 20; ++i) s.add(i % 2 ? 1.02 : 1.0);
  EXPECT_LE(s.mean_precision(), rule.target);
  EXPECT_GT(s.precision(), rule.target);
  while (!s.done(0.0)) s.add(s.count() % 2 ? 1.02 : 1.0);
  // Two values half and half: the median's interval spans both however many samples come, and
  // the rule stops at a doubling once it has not narrowed (a pinned interval), short of the target.
  EXPECT_LT(s.count(), rule.max_samples);
  EXPECT_GE(s.count(), 128);
  EXPECT_FALSE(s.stats().target_met);
}

// 5% of the samples 10x slower (a preempted thread): the mean's interval stays wide, the median's
// closes, and the rule stops with the target met near the median.
TEST(Sampling, OutliersStopOnTheMedian) {
  const StopRule rule;
  Sampler s(rule);
  std::mt19937_64 rng(11);
  std::normal_distribution<double> noise(1.0, 0.01);
  std::bernoulli_distribution late(0.05);
  while (!s.done(0.0)) s.add(late(rng) ? 10.0 : noise(rng));
  EXPECT_TRUE(s.stats().target_met);
  EXPECT_LE(s.median_precision(), rule.target);
  EXPECT_GT(s.mean_precision(), rule.target);
  EXPECT_NEAR(s.stats().median, 1.0, 0.01);
  EXPECT_NEAR(s.median(), s.stats().median, 1e-15);
}

// Two equally likely speeds 10% apart: the median is any point of the gap between them, and its
// interval spans the gap until one mode outnumbers the other by chance; the mean's interval, which
// closes, no longer stops it. Where the 95% interval does close inside one mode, the 99.9% one
// still reaches the other and the gap check flags the row unstable; the IQR floor, which spans the
// gap, stays above the target up to ~1400 samples. The seeds run to the caps with target_met 0.
TEST(Sampling, TwoModesAreFlaggedNotStoppedOnTheMean) {
  StopRule rule;
  rule.max_samples = 2000;
  int met = 0, flagged = 0;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    Sampler s(rule);
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution fast(0.5);
    std::normal_distribution<double> jitter(0.0, 0.002);
    int closed_inside_a_mode = 0;
    while (!s.done(0.0)) {
      s.add((fast(rng) ? 1.0 : 1.1) + jitter(rng));
      if (s.count() >= 20 && s.count() % 8 == 0 && s.stats().unstable) ++closed_inside_a_mode;
    }
    const auto st = s.stats();
    met += st.target_met;
    flagged += closed_inside_a_mode > 0;
  }
  std::printf("two modes: %d of 100 seeds met the target, %d flagged unstable on the way\n", met, flagged);
  EXPECT_LE(met, 10);
  EXPECT_GE(flagged, 10);
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
    Sampler timed(in_reach_rule());
    timed.add(1.0);
    return timed.done(wall);
  };
  EXPECT_FALSE(one_sample_after(0.1));
  EXPECT_FALSE(one_sample_after(0.2));  // past max_seconds, but three samples of 0.2 s fit in the timeout
  EXPECT_TRUE(one_sample_after(0.4));   // three of 0.4 s do not
  EXPECT_FALSE(Sampler(StopRule{}).done(1e9));  // never before the first sample

  // The default: a timeout at max_time, which makes max_time a hard cap.
  EXPECT_EQ(StopRule{}.timeout_seconds, StopRule{}.max_seconds);
  Sampler capped(StopRule{});
  capped.add(1.0);
  EXPECT_FALSE(capped.done(0.19));
  EXPECT_TRUE(capped.done(0.2));
}

// The projection, worked by hand. Ten samples alternating 1.00 and 1.02: mid-ranks 3 and 8,
// alternating, so lag1 < 0 and k_eff = 10. The interval, rank 2 of 10: [1.00, 1.02] about the
// median 1.01, 0.0099; the IQR floor: quartiles 1.00 and 1.02, 1.96 * 0.02 / sqrt(10) / 1.01 =
// 0.01227, the precision. The projection, from the floor: 10 (0.01227 / 0.005)^2 = 60.3 -> 61.
TEST(Sampling, ProjectedSamplesWorkedByHand) {
  Sampler s(StopRule{});
  EXPECT_TRUE(std::isinf(s.projected_samples()));
  for (int i = 0; i < 10; ++i) s.add(i % 2 ? 1.02 : 1.0);
  EXPECT_LT(s.lag1(), 0.0);
  EXPECT_NEAR(s.precision(), 1.959964 * 0.02 / std::sqrt(10.0) / 1.01, 1e-9);
  EXPECT_EQ(s.projected_samples(), 61);
  StopRule loose;
  loose.target = 0.05;  // already met: never below the samples taken or min_samples
  Sampler met(loose);
  for (int i = 0; i < 12; ++i) met.add(i % 2 ? 1.02 : 1.0);
  EXPECT_EQ(met.projected_samples(), 20);
  for (int i = 0; i < 12; ++i) met.add(i % 2 ? 1.02 : 1.0);
  EXPECT_EQ(met.projected_samples(), 24);
  // Equal samples rising in steps, one per sample: ranks in order, corrected lag1 = 1, no
  // effective sample and no count that would give an interval.
  Sampler trend(StopRule{});
  for (int i = 0; i < 30; ++i) trend.add(1.0 + 0.001 * i);
  EXPECT_TRUE(std::isinf(trend.projected_samples()));
  EXPECT_TRUE(trend.stats().unstable);
}

// Past max_time the rule goes on only for a target in reach. Samples of 5 ms with 1.5% noise need
// about (1.96 * 1.25 * 0.015 / 0.005)^2 = 55 samples, more where the samples' lag-1 correlation
// comes out positive: 0.3-0.7 s, past max_time (40 samples) and before the timeout (200). With 10%
// noise they need about 2400 (12 s): the rule stops at max_time.
TEST(Sampling, MaxTimeGivesWayToATargetInReach) {
  const auto run = [](double noise, std::uint64_t seed) {
    Sampler s(in_reach_rule());
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> jitter(0.0, noise);
    while (!s.done(0.005 * static_cast<double>(s.count()))) s.add(0.005 * (1 + jitter(rng)));
    return s;
  };
  int extended = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const Sampler near = run(0.015, seed);
    EXPECT_TRUE(near.stats().target_met) << seed;
    if (near.count() > 40) ++extended;  // past max_time (40 samples of 5 ms)
    EXPECT_LT(near.count(), 200) << seed;  // within the timeout
    const Sampler far = run(0.10, seed);
    EXPECT_FALSE(far.stats().target_met) << seed;
    EXPECT_EQ(far.count(), 40) << seed;  // stopped at max_time
  }
  EXPECT_GE(extended, 10);  // most seeds had not met the target by max_time
}

// GPU events count 32 ns ticks: at a few µs the median's interval can stay a tick or two wide
// whatever the count. Such a row either meets the target (the median's tick holds the interval)
// or stops as a pinned interval (at a doubling of the count) or soon after max_time (0.2 s): it
// never samples on to the timeout (1 s).
TEST(Sampling, TickPinnedIntervalsStopEarly) {
  int stopped_early = 0, before_max_time = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    Sampler s(StopRule{});
    std::mt19937_64 rng(seed);
    // Half the samples on one tick, half seven ticks higher (a start event on either side of a
    // tick of the event clock), each spread by a tick or two: the median sits between the two.
    std::normal_distribution<double> t(0.0, 0.04e-6);
    std::bernoulli_distribution high(0.5);
    const auto wall = [&] { return 100e-6 * static_cast<double>(s.count()); };  // 100 µs a sample
    while (!s.done(wall())) s.add(std::round((3.712e-6 + (high(rng) ? 0.224e-6 : 0.0) + t(rng)) / 32e-9) * 32e-9);
    const auto st = s.stats();
    if (!st.target_met) {
      EXPECT_LT(wall(), 0.5) << seed << ": sampled on to " << wall() << " s at precision " << st.precision;
      ++stopped_early;
      before_max_time += wall() < 0.2;
    }
  }
  std::printf(
      "[ ticks    ] %d of 40 tick-pinned runs stopped short of the target (%d before max_time), the rest met it\n",
      stopped_early, before_max_time);
  EXPECT_GE(before_max_time, 30) << "the pinned interval no longer ends the sampling early";
  EXPECT_GT(stopped_early, 20) << "the case no longer pins the interval: the test checks nothing";
}

// The fifth stop compares with the precision recorded at the last doubling, which is recorded at
// the first evaluation from 64 samples on even when the interval misses the target there: an
// interval that narrowed since is not stopped; one that holds still is, at the next doubling.
TEST(Sampling, PinnedStopNeedsAnEarlierPrecision) {
  constexpr double kTick = 32e-9, kA = 3.0e-6;  // one tick is 0.53% of A: over the target
  Sampler s(StopRule{});
  std::int64_t i = 0;
  // The first 64 samples on three ticks (A, A + 1, A + 3: a wide interval), then on two (A, A + 1).
  const auto next = [&] {
    const std::int64_t at = i++;
    if (at < 64) return kA + kTick * static_cast<double>(at % 3 == 2 ? 3 : at % 3);
    return kA + kTick * static_cast<double>(at % 2);
  };
  while (!s.done(100e-6 * static_cast<double>(s.count()))) s.add(next());
  EXPECT_GT(s.count(), 140) << "stopped at the first doubling, though the interval had narrowed since 64 samples";
  EXPECT_LT(s.count(), 300) << "the interval held still from 128 samples on, and was not stopped";
  EXPECT_FALSE(s.stats().target_met);
}

// No precision below the timer's resolution: every sample one value is known to one tick.
TEST(Sampling, PrecisionIsAtLeastATick) {
  StopRule rule;
  rule.tick_seconds = 32e-9;
  Sampler s(rule);
  while (!s.done(100e-6 * static_cast<double>(s.count()))) s.add(2720e-9);
  const auto st = s.stats();
  EXPECT_NEAR(st.precision, 32.0 / 2720.0, 1e-12);
  EXPECT_FALSE(st.target_met);
  EXPECT_EQ(s.count(), rule.min_samples) << "a tick over the target is out of reach: no reason to sample on";
  // Samples over two ticks: the row samples until its interval is down to the tick, then stops.
  Sampler two(rule);
  std::mt19937_64 rng(3);
  std::bernoulli_distribution up(0.5);
  while (!two.done(100e-6 * static_cast<double>(two.count()))) two.add(up(rng) ? 3.032e-6 : 3.0e-6);
  EXPECT_LT(two.count(), 200);
  EXPECT_FALSE(two.stats().target_met);
  EXPECT_LE(two.stats().precision, 32e-9 / two.stats().median * 1.0001);
  Sampler plain(StopRule{});  // without a tick: the old precision 0
  for (int k = 0; k < 40; ++k) plain.add(2720e-9);
  EXPECT_LT(plain.stats().precision, 1e-12);
}

// The between-repetition term by hand: with equal own intervals it is t(R-1) sqrt(S^2 - se^2);
// agreeing repetitions add nothing; one repetition with a wide interval of its own does not hide
// the others' scatter.
TEST(Repetitions, BetweenTermByHand) {
  using rb::bench::between_repetitions;
  const std::vector<double> logs = {std::log(100.0), std::log(102.0), std::log(98.0)};
  const double mean = (logs[0] + logs[1] + logs[2]) / 3;
  double s2 = 0;
  for (const double y : logs) s2 += (y - mean) * (y - mean) / 2;
  const double se = 0.002 / 1.959964;
  EXPECT_NEAR(between_repetitions({{100, 0.002}, {102, 0.002}, {98, 0.002}}), 4.303 * std::sqrt(s2 - se * se),
              1e-4);
  EXPECT_EQ(between_repetitions({{100, 0.01}, {100.1, 0.01}, {99.9, 0.01}}), 0.0);
  EXPECT_EQ(between_repetitions({{100, 0.01}}), 0.0);
  // 100 and 105 at +-0.1% each disagree by 5%: a third at +-50% must not hide it.
  EXPECT_GT(between_repetitions({{100, 0.001}, {105, 0.001}, {100, 0.5}}), 0.05);
  EXPECT_NEAR(rb::bench::widened(0.03, 0.04), 0.05, 1e-15);
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

// --- Coverage on simulated timings --------------------------------------------------------------

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// A simulated benchmark: seconds per sample, base times a factor drawn from the case's law.
struct Stream {
  enum class Law { normal, lognormal, outliers, ar1, walk } law;
  double spread;        // normal, outliers, walk: cv; lognormal, ar1: sigma of the log
  double p_slow = 0;    // outliers: the share 10x slower
  double phi = 0;       // ar1, walk: on the log
  double level = 0;     // walk: the stationary sigma of the slow level's log, under white noise of cv spread
  // The median of the factor: 1, but for the outliers' mixture, whose median solves
  // (1 - p) Phi((m - 1) / cv) + p Phi((m / 10 - 1) / cv) = 1/2 (bisection).
  double true_median() const {
    if (law != Law::outliers) return 1;
    double lo = 0.5, hi = 2;
    for (int i = 0; i < 200; ++i) {
      const double m = (lo + hi) / 2;
      const double f = (1 - p_slow) * normal_cdf((m - 1) / spread) + p_slow * normal_cdf((m / 10 - 1) / spread);
      (f < 0.5 ? lo : hi) = m;
    }
    return (lo + hi) / 2;
  }
};

struct Draw {
  Draw(const Stream& law, std::uint64_t seed) : s(law), rng(seed) {
    // 10 us .. 1 ms a sample, log-uniform: max_time (0.2 s) binds from 0.2 ms a sample on.
    base = 1e-5 * std::pow(100.0, std::uniform_real_distribution<double>(0, 1)(rng));
    e = (law.law == Stream::Law::walk ? law.level : law.spread) * z(rng);  // ar1, walk: from its stationary law
  }
  double next() {
    switch (s.law) {
      case Stream::Law::normal: return base * (1 + s.spread * z(rng));
      case Stream::Law::lognormal: return base * std::exp(s.spread * z(rng));
      case Stream::Law::outliers: return base * (1 + s.spread * z(rng)) * (slow(rng) < s.p_slow ? 10 : 1);
      case Stream::Law::ar1:
        e = s.phi * e + std::sqrt(1 - s.phi * s.phi) * s.spread * z(rng);
        return base * std::exp(e);
      case Stream::Law::walk:
        e = s.phi * e + std::sqrt(1 - s.phi * s.phi) * s.level * z(rng);
        return base * std::exp(e) * (1 + s.spread * z(rng));
    }
    return 0;
  }
  const Stream& s;
  std::mt19937_64 rng;
  std::normal_distribution<double> z;
  std::uniform_real_distribution<double> slow;
  double base = 0, e = 0;
};

struct Coverage {
  int runs = 0, covered = 0, met = 0, met_covered = 0, flagged = 0, missed_unflagged = 0;
  double typical_samples = 0;
  double share(int n) const { return static_cast<double>(n) / runs; }
};

// `runs` runs of the default rule, the wall clock the sum of the samples so far. A run covers when
// [median (1 - precision), median (1 + precision)] holds the stream's true median.
Coverage coverage(const Stream& stream, int runs, std::uint64_t seed0) {
  Coverage c;
  std::vector<double> counts;
  const double truth = stream.true_median();
  for (int r = 0; r < runs; ++r) {
    Draw draw(stream, seed0 + static_cast<std::uint64_t>(r));
    Sampler s(StopRule{});
    double wall = 0;
    do {
      const double dt = draw.next();
      s.add(dt);
      wall += dt;
    } while (!s.done(wall));
    const auto st = s.stats();
    const bool covered = std::abs(st.median - truth * draw.base) <= st.precision * st.median;
    const bool flagged = !st.target_met || st.correlated || st.unstable || st.drift;
    ++c.runs;
    c.covered += covered;
    c.met += st.target_met;
    c.met_covered += st.target_met && covered;
    c.flagged += st.correlated || st.unstable || st.drift;
    c.missed_unflagged += !covered && !flagged;
    counts.push_back(static_cast<double>(st.count));
  }
  c.typical_samples = rb::bench::quantile(counts, 0.5);
  return c;
}

// The default rule on eight laws of timing, 2000 runs each. Asserted: for the laws without
// dependence, the runs that report target_met hold the true median in >= 93% (95% nominal); for
// every law, the misses are flagged (target_met 0, correlated, unstable or drift) but for at most
// 7% of its runs. Correlated runs are counted short (target_met 0). The outliers sit
// on a quiet base (cv 0.5%), where the interval can close at min_samples, before most runs have
// drawn an outlier; the quiet AR(1) tests min_samples against a correlation not yet visible.
TEST(Coverage, DefaultRuleHoldsTheTrueMedian) {
  struct Row {
    const char* name;
    Stream stream;
    bool independent = false;
    bool asserted = true;
  };
  const Row rows[] = {
      {"normal, cv 2%", {Stream::Law::normal, 0.02}, true},
      {"lognormal, sigma 0.05", {Stream::Law::lognormal, 0.05}, true},
      {"1% at 10x, else normal cv 0.5%", {Stream::Law::outliers, 0.005, 0.01}, true},
      {"5% at 10x, else normal cv 0.5%", {Stream::Law::outliers, 0.005, 0.05}, true},
      {"AR(1) phi 0.9 on the log, sigma 0.02", {Stream::Law::ar1, 0.02, 0, 0.9}},
      {"AR(1) phi 0.9 on the log, sigma 0.005", {Stream::Law::ar1, 0.005, 0, 0.9}},
      {"AR(1) phi 0.99 on the log, sigma 0.02", {Stream::Law::ar1, 0.02, 0, 0.99}},
      // A level that wanders within the run under white noise: the blocks flag most runs, but about
      // 1 in 12 stops on a narrow interval unflagged. Printed; the repetitions' test covers it.
      {"level AR(1) phi 0.9, sigma 1%, under normal cv 1%", {Stream::Law::walk, 0.01, 0, 0.9, 0.01}, false, false},
  };
  constexpr int kRuns = 2000;
  std::printf(
      "| distribution | runs | interval holds the true median | target_met | flagged correlated/unstable/drift | "
      "typical samples |\n");
  std::printf("|---|---|---|---|---|---|\n");
  std::uint64_t seed = 1;
  for (const Row& row : rows) {
    const Coverage c = coverage(row.stream, kRuns, seed);
    seed += 1'000'000;
    std::printf("| %s%s | %d | %.1f%% (target_met: %.1f%%) | %.1f%% | %.1f%% | %.0f |\n", row.name,
                row.asserted ? "" : " (not asserted)", c.runs,
                100 * c.share(c.covered), c.met ? 100.0 * c.met_covered / c.met : 0.0, 100 * c.share(c.met),
                100 * c.share(c.flagged), c.typical_samples);
    // A rule that never stopped on precision would pass the rest: the laws without dependence
    // meet the target in most runs (correlated runs are counted short).
    if (row.independent) {
      EXPECT_GT(c.met, kRuns / 2) << row.name;
      EXPECT_GE(static_cast<double>(c.met_covered) / c.met, 0.93) << row.name;
    }
    if (row.asserted) {
      EXPECT_TRUE(c.share(c.covered) >= 0.93 || c.share(c.missed_unflagged) <= 0.07) << row.name;
    }
  }
}

// What one run cannot see, for the test below: a level that moves slower than the run lasts
// (its AR(1) on the log), or a state drawn per run or per process (+0 or +level, or normal).
enum class LevelKind { slow_level, state_per_run, two_states_per_run, two_states_per_process };
struct LevelLaw {
  const char* name;
  LevelKind kind;
  double phi, level, white;  // the level's AR(1) on the log (slow_level), or the states' spread
  bool asserted = true;
};

// One simulated process running a row `reps` times under the default rule, `gap` samples of other
// rows between its repetitions (a slow level moves on meanwhile).
std::vector<SampleStats> one_process(const LevelLaw& law, std::uint64_t seed, int reps, int gap) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> z;
  std::bernoulli_distribution coin(0.5);
  double e = law.level * z(rng);  // slow_level: from its stationary law
  const double process_state = coin(rng) ? law.level : 0;
  const auto step = [&] { e = law.phi * e + std::sqrt(1 - law.phi * law.phi) * law.level * z(rng); };
  std::vector<SampleStats> runs;
  for (int r = 0; r < reps; ++r) {
    double state = 0;
    switch (law.kind) {
      case LevelKind::slow_level: break;
      case LevelKind::state_per_run: state = law.level * z(rng); break;
      case LevelKind::two_states_per_run: state = coin(rng) ? law.level : 0; break;
      case LevelKind::two_states_per_process: state = process_state; break;
    }
    Sampler s(StopRule{});
    double wall = 0;
    do {
      if (law.kind == LevelKind::slow_level) step();
      const double dt = 50e-6 * std::exp(e + state) * (1 + law.white * z(rng));
      s.add(dt);
      wall += dt;
    } while (!s.done(wall));
    runs.push_back(s.stats());
    if (law.kind == LevelKind::slow_level) {
      for (int i = 0; i < gap; ++i) step();
    }
  }
  return runs;
}

// Over the repetitions of every process: how many hold the true median, meet the target, both, or
// hold it or are counted short, each interval widened by the scatter between a process's repetitions.
struct RepetitionCoverage {
  int reps = 0, covered = 0, met = 0, met_covered = 0, short_or_covered = 0;

  void add(const LevelLaw& law, const std::vector<SampleStats>& runs) {
    std::vector<RunInterval> intervals;
    for (const auto& st : runs) intervals.push_back({st.median, st.precision});
    const double between = rb::bench::between_repetitions(intervals);
    // Two states: the true median lies halfway, by symmetry (white noise small against the gap).
    const bool two_states = law.kind == LevelKind::two_states_per_run || law.kind == LevelKind::two_states_per_process;
    const double truth = 50e-6 * (two_states ? std::exp(law.level / 2) : 1.0);
    for (const auto& st : runs) {
      const double precision = rb::bench::widened(st.precision, between);
      const bool target_met = st.target_met && precision <= StopRule{}.target;
      const bool holds = std::abs(st.median - truth) <= precision * st.median;
      ++reps;
      covered += holds;
      met += target_met;
      met_covered += target_met && holds;
      short_or_covered += holds || !target_met;
    }
  }
};

// Each simulated process runs a row R = 5 times (repetitions, other rows' samples between them);
// each repetition's interval is widened by the scatter between the five (bench/repetitions.hpp).
// Asserted per law: a repetition holds the true median or is counted short (target_met 0) in
// >= 93% of repetitions. A state drawn once per process is printed, not asserted: no run of one
// process sees it.
TEST(Coverage, RepetitionsCoverWhatOneRunCannotSee) {
  using enum LevelKind;
  const LevelLaw laws[] = {
      {"level AR(1) phi 0.999, sigma 0.4%, under normal cv 1%", slow_level, 0.999, 0.004, 0.01},
      {"level AR(1) phi 0.99, sigma 0.4%, under normal cv 1%", slow_level, 0.99, 0.004, 0.01},
      {"level AR(1) phi 0.9, sigma 1%, under normal cv 1%", slow_level, 0.9, 0.01, 0.01},
      {"a state per run, normal sigma 1%, under normal cv 0.5%", state_per_run, 0, 0.01, 0.005},
      {"two states per run (+0 or +2%), under normal cv 0.5%", two_states_per_run, 0, 0.02, 0.005},
      {"two states per process (+0 or +2%), under normal cv 0.5%", two_states_per_process, 0, 0.02, 0.005, false},
  };
  constexpr int kProcesses = 400, kReps = 5, kGap = 2000;  // kGap: samples of other rows between repetitions
  std::printf("| law | repetitions | holds the true median | target_met | holds or counted short | "
              "holds, of target_met |\n|---|---|---|---|---|---|\n");
  std::uint64_t seed = 90'000'000;
  for (const LevelLaw& law : laws) {
    RepetitionCoverage c;
    for (int p = 0; p < kProcesses; ++p) c.add(law, one_process(law, seed++, kReps, kGap));
    const auto pct = [&](int n, int of) { return of ? 100.0 * n / of : 0.0; };
    std::printf("| %s%s | %d | %.1f%% | %.1f%% | %.1f%% | %.1f%% |\n", law.name, law.asserted ? "" : " (not asserted)",
                c.reps, pct(c.covered, c.reps), pct(c.met, c.reps), pct(c.short_or_covered, c.reps),
                pct(c.met_covered, c.met));
    if (!law.asserted) continue;
    EXPECT_GE(c.short_or_covered, c.reps * 93 / 100) << law.name;
  }
}

// The assertions above can fail: the rule this one replaced (the mean's or the median's interval,
// whichever was narrower, from 10 samples) stops 1%-outlier streams on the mean's interval before
// the first outlier, and its real_time (the mean) misses the true mean; and the median's interval
// without the correlation correction misses an AR(1) stream's median.
TEST(Coverage, TheChecksFailTheRuleWithoutItsCorrections) {
  const double target = StopRule{}.target;
  const auto independent_median_precision = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const auto k = static_cast<std::int64_t>(v.size());
    const auto j = rb::bench::median_ci_rank(k);
    const double m = rb::bench::quantile(v, 0.5);
    return (v[static_cast<std::size_t>(k - j)] - v[static_cast<std::size_t>(j - 1)]) / 2 / m;
  };

  // Outliers: the mean of 1% at 10x over normal cv 0.5% is 1.09.
  const Stream outliers{Stream::Law::outliers, 0.005, 0.01};
  int runs = 0, on_mean = 0, mean_covered = 0;
  for (std::uint64_t r = 0; r < 2000; ++r) {
    Draw draw(outliers, 7'000'000 + r);
    Sampler s(StopRule{});
    std::vector<double> v;
    for (;;) {
      v.push_back(draw.next());
      s.add(v.back());
      if (v.size() < 10) continue;
      const double med = independent_median_precision(v), mean = s.mean_precision();
      if (std::min(med, mean) > target) continue;
      on_mean += mean <= med;
      mean_covered += std::abs(s.sum() / static_cast<double>(v.size()) - 1.09 * draw.base) <=
                      std::min(med, mean) * s.sum() / static_cast<double>(v.size());
      break;
    }
    ++runs;
  }
  std::printf(
      "old rule, 1%% at 10x: %d runs, %d stopped on the mean, the mean's interval holds the true mean in %.1f%%\n",
      runs, on_mean, 100.0 * mean_covered / runs);
  EXPECT_GT(on_mean, runs / 2);
  EXPECT_LT(mean_covered, runs * 93 / 100);

  // AR(1), phi 0.9: 400 samples, the median's interval as if independent, and the Sampler's.
  const Stream ar{Stream::Law::ar1, 0.02, 0, 0.9};
  int naive = 0, corrected = 0;
  constexpr int kArRuns = 1000;
  for (std::uint64_t r = 0; r < kArRuns; ++r) {
    Draw draw(ar, 8'000'000 + r);
    Sampler s(StopRule{});
    std::vector<double> v;
    for (int i = 0; i < 400; ++i) {
      v.push_back(draw.next());
      s.add(v.back());
    }
    const double median = s.median(), truth = draw.base;
    naive += std::abs(median - truth) <= independent_median_precision(v) * median;
    corrected += std::abs(median - truth) <= s.precision() * median;
  }
  std::printf(
      "AR(1) phi 0.9, 400 samples: the independent interval holds the median in %.1f%%, the corrected one in %.1f%%\n",
      100.0 * naive / kArRuns, 100.0 * corrected / kArRuns);
  EXPECT_LT(naive, kArRuns * 93 / 100);
  EXPECT_GE(corrected, kArRuns * 93 / 100);
}

}  // namespace
