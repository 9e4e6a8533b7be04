#pragma once
// The stopping rule: how many timed samples one benchmark takes, and the statistics reported
// from them. No Google Benchmark here; the runners feed it one sample at a time.
//
// Samples are taken until the first of:
//   1. precision: at least min_samples samples, and the median is known to within +-target (or
//      to one tick of the timer, where a tick is over the target: target_met is then 0),
//      relative, at 95% confidence, by its distribution-free interval between the order
//      statistics x(j) and x(k+1-j) of the k samples, j the largest with 2 P(B <= j-1) <= 0.05 for
//      B ~ Binomial(k, 1/2); precision = (x(k+1-j) - x(j)) / 2 / median. Three corrections keep
//      its 95% honest on timings (bench/detail/sampling.cpp has the details):
//        correlation: samples taken in a row are not independent when the machine drifts between
//          states. r1, the lag-1 autocorrelation of the samples' ranks in the order taken, sets an
//          effective count k_eff = k (1 - r) / (1 + r) (an AR(1) process's variance inflation),
//          r the upper 97.5% bound of r1 when r1 > 0, and j is taken from Binomial(k_eff, 1/2) at
//          the same quantile levels;
//        a floor of 1.96 IQR / sqrt(k_eff) / median: the interval's width rests on a few spacings
//          around the median, and a rule that stops at its first narrow value picks the narrow ones;
//        a gap at the median (two modes): for a density smooth at the median the 99.9% interval
//          is 1.68 times as wide as the 95% one; when it is kGapRatio times as wide and outside
//          the target, the 95% interval sits inside one mode, where a chance imbalance between the
//          modes put it: the run is unstable and precision becomes the 99.9% half-width.
//        drift: the samples in kMaxBlocks consecutive blocks (from kBlockSamples each); the
//          blocks' medians give a batch interval, t(B-1) sd / sqrt(B) / median, that holds when the
//          level moves slower than lag-1 shows (a slow drift under white noise, phi near 1). It
//          is part of precision; when it is over kDriftRatio times the order-statistics interval
//          the row is flagged `drift`.
//      and never below one tick of the timer over the median (tick_seconds): a row whose every
//      sample is one value is known to a tick, not to 0.
//      The mean's interval is not used: one 10x outlier in 100 samples moves the mean by 9%, and
//      a mean's interval closed on samples taken before the first outlier misses it;
//   2. max_samples samples;
//   3. max_seconds of wall time spent sampling (at least one sample is always taken), unless the
//      target is in reach: a benchmark past max_seconds goes on while the samples it is projected
//      to need, at the time per sample so far, end within timeout_seconds (projected_samples);
//   4. timeout_seconds of wall time spent sampling;
//   5. a pinned interval, out of reach: from 128 samples on, at each doubling of the count, an
//      interval over twice its IQR floor that has not narrowed by 5% since the last doubling is
//      held open by the timer's ticks or by ties (GPU events count 32 ns, a few µs call spans a
//      handful of them), and more samples will not close it.
//      Pinned means: precision at the doubling over 0.95 times the precision at the last one, which
//      is recorded at the first evaluation from 64 samples on (never skipped); with no earlier
//      value there is no stop.
// A benchmark stopped by 2, 3, 4 or 5 reports the precision it reached and target_met = 0. The rule
// is evaluated after every sample up to 64 and then whenever the count has grown by 1/16.
// tests/bench/test_sampling.cpp measures the coverage of the reported interval on simulated
// streams (normal, lognormal, outliers, AR(1)) under the default rule.
#include <cstdint>
#include <string>
#include <vector>

namespace rb::bench {

// The least sample count with a median interval (2 * 0.5^6 <= 0.05): --min_samples's floor.
inline constexpr std::int64_t kFirstInterval = 6;
// The 99.9% median interval over the 95% one, beyond which the samples near the median are taken
// to straddle a gap: for a density smooth at the median the ratio tends to 3.29 / 1.96 = 1.68.
inline constexpr double kGapRatio = 3.0;
// The batch interval: at most kMaxBlocks blocks of at least kBlockSamples samples each (none below
// 4 blocks), and the ratio to the order-statistics interval beyond which the row is flagged drift.
inline constexpr std::int64_t kMaxBlocks = 8;
inline constexpr std::int64_t kBlockSamples = 5;
inline constexpr double kDriftRatio = 2.0;

struct StopRule {
  double target = 0.005;           // relative half-width of the median's 95% CI
  // 20: fewer let a run of correlated samples pass for independent ones before r1 can show it;
  // simulated quiet AR(1) timings (phi 0.9, sigma 0.5%, 1000 runs each) held the median in
  // 92.9% of runs at 10, 96.2% at 15, 96.9% at 20 (tests/bench/test_sampling.cpp, Coverage). A
  // quiet GPU row stops at 20-30 samples, 2-3 ms.
  std::int64_t min_samples = 20;
  std::int64_t max_samples = 100'000;
  double max_seconds = 0.2;        // wall time per benchmark spent sampling, unless in reach
  // Wall time per benchmark spent sampling, in any case. Equal to max_seconds by default: a hard
  // cap keeps the default sweep within its time (docs/methodology.md, "What a sweep costs");
  // a larger --timeout lets a row whose target is in reach go on.
  double timeout_seconds = 0.2;
  double warmup_seconds = 0.1;     // CPU rows: the warm-up's cap (bench/detail/measure.hpp: warm_up)
  // The timer's resolution: precision is at least tick_seconds / median (GPU events: 32 ns).
  double tick_seconds = 0;
};

// What the JSON reports per benchmark (times in seconds).
struct SampleStats {
  std::int64_t count = 0;
  double mean = 0, median = 0, p10 = 0, p90 = 0, min = 0, max = 0;
  // The relative half-width of the median's 95% CI over k_eff effective samples, at least the
  // IQR's floor, or the 99.9% CI's when the median sits on a gap (unstable); +inf with no interval
  // (fewer than 6 effective samples).
  double precision = 0;
  // The lag-1 autocorrelation of the samples' ranks in the order taken, bias-corrected; 0 below
  // 6 samples. Above 0 it shrinks the effective sample count behind precision.
  double lag1 = 0;
  // lag1 > 2 / sqrt(count): more than independent samples produce about 1 time in 40. The
  // samples drift (clock, thermal or placement states); the interval accounts for it through
  // lag1, on the assumption that the dependence decays like an AR(1) process's.
  bool correlated = false;
  // No interval the rule can stand on: fewer than 6 effective samples (precision +inf), or the
  // samples near the median straddle a gap (precision is then the 99.9% interval's).
  bool unstable = false;
  // The blocks' medians scatter over kDriftRatio times what the order statistics allow: the level
  // moved while the row was sampled, and precision is the batch interval's.
  bool drift = false;
  // precision <= target, count >= min_samples, and neither correlated, unstable nor drift: lag-1
  // measures a dependence on the assumption that it decays like an AR(1)'s, which a level moving
  // slower than the row breaks (tests/bench/test_sampling.cpp, Coverage).
  bool target_met = false;
};

// The 0.975 quantile of Student's t with `df` degrees of freedom (df >= 1).
double student_t975(std::int64_t df);

// The 1-based rank j of the lower end of the median's 95% confidence interval [x(j), x(k+1-j)]
// over k independent samples; 0 when k is too small for one (k < 6).
std::int64_t median_ci_rank(std::int64_t k);
// The same at 99.9%; 0 when k < 11.
std::int64_t median_ci_rank_999(std::int64_t k);

class Sampler {
 public:
  explicit Sampler(StopRule rule) : rule_(rule) {}
  void add(double seconds);
  // Whether the rule says stop, given the wall time spent sampling so far. Never on precision
  // before min_samples.
  bool done(double wall_seconds);
  // The rule's precision: SampleStats::precision.
  double precision() const;
  double median_precision() const { return precision(); }
  // The mean's Student-t relative half-width; reported for comparison only, the rule ignores it.
  // +inf below 2 samples.
  double mean_precision() const;
  double lag1() const;       // SampleStats::lag1
  double median() const;     // of the samples so far; 0 with none
  // The samples the target is projected to need, from the median's interval only: the least k'
  // whose IQR floor, 1.96 IQR / sqrt(k'_eff) / median, is within the target, k'_eff from lag1 at
  // k' samples (its upper bound tightens as k' grows); across a gap, k (precision / target)^2;
  // with no interval yet, the count that gives one (kFirstInterval effective samples). Never
  // below min_samples or count(); +inf below 3 samples, and when lag1 leaves no effective sample.
  double projected_samples() const;
  std::int64_t count() const noexcept { return static_cast<std::int64_t>(samples_.size()); }
  double sum() const noexcept { return sum_; }
  SampleStats stats() const;

 private:
  struct Interval {
    double precision;   // SampleStats::precision
    double spread;      // the IQR's floor of precision (sampling.cpp); +inf with no interval
    double lag1;        // SampleStats::lag1
    double k_eff;       // the effective sample count behind precision
    bool unstable;      // SampleStats::unstable
    bool drift;         // SampleStats::drift
  };
  Interval interval() const;
  // The median's 95% precision as if the samples were independent, without the gap check: a lower
  // bound of precision(), which done() reads first to skip the rest when it already misses.
  double independent_precision() const;
  const std::vector<double>& sorted() const;  // the samples, sorted
  // One tick of the timer over the target at the median: the tick, not the target, is the best
  // precision the row can reach.
  bool tick_over_target() const;
  double stddev() const;  // the samples' standard deviation; needs 2 or more

  StopRule rule_;
  std::vector<double> samples_;          // in the order taken
  mutable std::vector<double> sorted_;   // the first sorted_.size() of samples_, sorted (sorted())
  double sum_ = 0, mean_ = 0, m2_ = 0;   // m2_: Welford's sum of squared deviations
  std::int64_t next_check_ = 1;
  // The precision at the last power of two of the count from 64 on (done(): a pinned interval);
  // negative until recorded.
  std::int64_t pinned_at_ = 64;
  double pinned_precision_ = -1;
};

// The q-quantile (0..1) of `v`, linear between order statistics (v is sorted in place).
double quantile(std::vector<double>& v, double q);

// The rule with these bounds, in one sentence (the JSON context's "sampling"), and in a few words
// (the console's preamble). The one description of the rule is this header and docs/methodology.md.
std::string describe_rule(const StopRule& rule);
std::string summarize_rule(const StopRule& rule);

}  // namespace rb::bench
