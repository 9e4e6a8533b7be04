#pragma once
// The stopping rule: how many timed samples one benchmark takes, and the statistics reported
// from them. No Google Benchmark here; the runners feed it one sample at a time.
//
// Samples are taken until the first of:
//   1. precision: at least min_samples samples, and the median or the mean is known to within
//      +-target, relative, at 95% confidence:
//        median: the distribution-free interval between the order statistics x(j) and x(k+1-j) of
//          the k samples, j the largest with 2 P(B <= j-1) <= 0.05 for B ~ Binomial(k, 1/2);
//          half-width (x(k+1-j) - x(j)) / 2 / median. It needs k >= 6;
//        mean: Student's t, t(0.975, k-1) s / sqrt(k) / mean.
//      The smaller of the two is the precision. Outliers (a preempted CPU thread) widen the mean's
//      interval but barely move the median's; two modes of equal weight (a CPU switching between
//      two speeds) do the opposite. Either central value known to +-target is enough;
//   2. max_samples samples;
//   3. max_seconds of wall time spent sampling (at least one sample is always taken), unless the
//      target is in reach: a benchmark past max_seconds goes on while the samples it is projected
//      to need, at the time per sample so far, end within timeout_seconds (projected_samples);
//   4. timeout_seconds of wall time spent sampling.
// A benchmark stopped by 2, 3 or 4 reports the precision it reached and target_met = 0. The rule
// is evaluated after every sample up to 64 and then whenever the count has grown by 1/16.
#include <cstdint>
#include <vector>

namespace rb::bench {

struct StopRule {
  double target = 0.005;           // relative half-width of a 95% CI (of the median or the mean)
  std::int64_t min_samples = 10;
  std::int64_t max_samples = 100'000;
  double max_seconds = 0.2;        // wall time per benchmark spent sampling, unless in reach
  double timeout_seconds = 1.0;    // wall time per benchmark spent sampling, in any case
  double warmup_seconds = 0.1;     // CPU rows: the warm-up's cap (bench/measure.hpp: warm_up)
};

// What the JSON reports per benchmark (times in seconds).
struct SampleStats {
  std::int64_t count = 0;
  double mean = 0, median = 0, p10 = 0, p90 = 0, min = 0, max = 0;
  double precision = 0;  // the smaller relative half-width of the 95% CIs; +inf below 2 samples
  bool target_met = false;
};

// The 0.975 quantile of Student's t with `df` degrees of freedom (df >= 1).
double student_t975(std::int64_t df);

// The 1-based rank j of the lower end of the median's 95% confidence interval [x(j), x(k+1-j)]
// over k samples; 0 when k is too small for one (k < 6).
std::int64_t median_ci_rank(std::int64_t k);

class Sampler {
 public:
  explicit Sampler(StopRule rule) : rule_(rule) {}
  void add(double seconds);
  // Whether the rule says stop, given the wall time spent sampling so far.
  bool done(double wall_seconds);
  // The rule's precision (above); +inf below 2 samples or at a zero mean and median.
  double precision() const;
  double median_precision() const;  // +inf below 6 samples
  double mean_precision() const;    // +inf below 2 samples
  // The samples the target is projected to need, from the spread so far: the smaller of the
  // mean's count (the least k' with t(0.975, k'-1) s / sqrt(k') / mean <= target) and the
  // median's (k (precision / target)^2: its interval narrows as 1 / sqrt(k)). Never below
  // min_samples or count(); +inf below 3 samples.
  double projected_samples() const;
  std::int64_t count() const noexcept { return static_cast<std::int64_t>(samples_.size()); }
  double sum() const noexcept { return sum_; }
  SampleStats stats() const;

 private:
  double stddev() const;  // the samples' standard deviation; needs 2 or more

  StopRule rule_;
  std::vector<double> samples_;
  double sum_ = 0, mean_ = 0, m2_ = 0;  // m2_: Welford's sum of squared deviations
  std::int64_t next_check_ = 1;
};

// The q-quantile (0..1) of `v`, linear between order statistics (v is sorted in place).
double quantile(std::vector<double>& v, double q);

}  // namespace rb::bench
