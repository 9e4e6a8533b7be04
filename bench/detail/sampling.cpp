#include "bench/detail/sampling.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

namespace rb::bench {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::int64_t kExactRanks = 1000;  // beyond, the normal approximation is exact to a rank

// j for k = 0..kExactRanks: the largest with 2 P(B <= j-1) <= alpha, B ~ Binomial(k, 1/2); 0 when
// none. The pmf by its recurrence from 0.5^k (0.5^1000 = 9.3e-302 is still a normal double).
std::array<std::int64_t, kExactRanks + 1> rank_table(double alpha) {
  std::array<std::int64_t, kExactRanks + 1> t{};
  for (std::int64_t k = 1; k <= kExactRanks; ++k) {
    double p = std::pow(0.5, static_cast<double>(k)), cdf = 0;
    std::int64_t j = 0;
    for (std::int64_t i = 0; i < k; ++i) {
      cdf += p;
      if (2 * cdf > alpha) break;
      j = i + 1;
      p *= static_cast<double>(k - i) / static_cast<double>(i + 1);
    }
    t[static_cast<std::size_t>(k)] = j;
  }
  return t;
}

std::int64_t rank_at(std::int64_t k, double alpha, double z) {
  if (k < 1) return 0;
  if (k > kExactRanks) {
    const double kd = static_cast<double>(k);
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor((kd - z * std::sqrt(kd)) / 2)));
  }
  static const auto t95 = rank_table(0.05), t999 = rank_table(0.001);
  return (alpha == 0.05 ? t95 : t999)[static_cast<std::size_t>(k)];
}

// The lag-1 autocorrelation of x's ranks (mid-ranks for ties) in x's order; `sorted` is x sorted.
// Ranks: invariant under any monotone transform of the times (as the median's interval is), and a
// 10x outlier is one rank like any other, where among the values it would swamp the correlation.
double rank_lag1(const std::vector<double>& x, const std::vector<double>& sorted) {
  const std::size_t k = x.size();
  if (k < static_cast<std::size_t>(kFirstInterval)) return 0;
  const double centre = (static_cast<double>(k) + 1) / 2;
  double num = 0, den = 0, prev = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const auto [lo, hi] = std::equal_range(sorted.begin(), sorted.end(), x[i]);
    const double r = static_cast<double>((lo - sorted.begin()) + (hi - sorted.begin()) + 1) / 2 - centre;
    den += r * r;
    if (i > 0) num += prev * r;
    prev = r;
  }
  if (den <= 0) return 0;  // every sample equal
  // E[r1] = rho - (1 + 3 rho) / k + O(1/k^2) for an AR(1) process (Marriott and Pope's bias):
  // solved for rho, so that a short run of correlated samples does not pass for an independent one.
  const double kd = static_cast<double>(k);
  return std::clamp((kd * (num / den) + 1) / (kd - 3), -1.0, 1.0);
}

// k_eff / k at a lag-1 correlation r1 over k samples: (1 - r) / (1 + r), r the upper 97.5% bound
// of r1 (Bartlett: var r1 = (1 - rho^2) / k); 1 when r1 <= 0. The upper bound because the rule
// stops at the first evaluation whose interval is narrow enough, and so picks the runs whose r1
// came out low. For a Gaussian AR(1) the ranks' r1 is 0.89 at phi = 0.9, an inflation of 17,
// against 13 for the count of samples below the median that the interval rests on: it errs wide.
double effective_share(double r1, double k) {
  if (r1 <= 0) return 1;
  const double r = std::min(1.0, r1 + 2 * std::sqrt((1 - r1 * r1) / k));
  return (1 - r) / (1 + r);
}

// The least count k' >= k with k' effective_share(r1, k') >= target_eff (that product grows with
// k'); +inf when none below 2^50.
double least_count(double r1, double k, double target_eff) {
  const auto enough = [&](double n) { return n * effective_share(r1, n) >= target_eff; };
  if (enough(k)) return k;
  double lo = k, hi = 2 * k;
  while (!enough(hi)) {
    lo = hi;
    hi *= 2;
    if (hi > 0x1p50) return kInf;
  }
  while (hi - lo > 1) {
    const double mid = std::floor((lo + hi) / 2);
    (enough(mid) ? hi : lo) = mid;
  }
  return hi;
}

// The 0.99 quantile of chi-square over its degrees of freedom, df = B - 1 for 4..kMaxBlocks blocks.
double chi2_99_per_df(std::int64_t df) {
  static constexpr double table[] = {11.345 / 3, 13.277 / 4, 15.086 / 5, 16.812 / 6, 18.475 / 7};
  return table[std::clamp<std::int64_t>(df, 3, 7) - 3];
}

}  // namespace

double student_t975(std::int64_t df) {
  // Exact to 3 decimals for df <= 10; beyond, the Cornish-Fisher expansion in 1/df (three
  // terms) is within 1e-3 of the exact quantile.
  static constexpr double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228};
  if (df < 1) return kInf;
  if (df <= 10) return table[df - 1];
  const double z = 1.959964, d = static_cast<double>(df);
  const double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
  return z + (z3 + z) / (4 * d) + (5 * z5 + 16 * z3 + 3 * z) / (96 * d * d) +
         (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * d * d * d);
}

std::int64_t median_ci_rank(std::int64_t k) { return rank_at(k, 0.05, 1.959964); }
std::int64_t median_ci_rank_999(std::int64_t k) { return rank_at(k, 0.001, 3.290527); }

void Sampler::add(double seconds) {
  samples_.push_back(seconds);
  sum_ += seconds;
  const double delta = seconds - mean_;
  mean_ += delta / static_cast<double>(samples_.size());
  m2_ += delta * (seconds - mean_);
}

const std::vector<double>& Sampler::sorted() const {
  // The samples added since the last call, sorted and merged: O(k) a call, where sorting every
  // sample at each evaluation would be O(k log k).
  const std::size_t have = sorted_.size();
  if (have < samples_.size()) {
    sorted_.insert(sorted_.end(), samples_.begin() + static_cast<std::ptrdiff_t>(have), samples_.end());
    const auto mid = sorted_.begin() + static_cast<std::ptrdiff_t>(have);
    std::sort(mid, sorted_.end());
    std::inplace_merge(sorted_.begin(), mid, sorted_.end());
  }
  return sorted_;
}

double Sampler::stddev() const {
  return std::sqrt(std::max(0.0, m2_) / static_cast<double>(count() - 1));
}

double Sampler::mean_precision() const {
  const auto k = count();
  if (k < 2 || mean_ <= 0) return kInf;
  return student_t975(k - 1) * stddev() / std::sqrt(static_cast<double>(k)) / mean_;
}

double Sampler::median() const {
  if (samples_.empty()) return 0;
  const auto& v = sorted();
  const std::size_t k = v.size();
  return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

double Sampler::independent_precision() const {
  const auto k = count();
  const std::int64_t j = median_ci_rank(k);
  const double m = median();
  if (j == 0 || m <= 0) return kInf;
  const auto& v = sorted();
  return (v[static_cast<std::size_t>(k - j)] - v[static_cast<std::size_t>(j - 1)]) / 2 / m;
}

namespace {

// The batch interval from the blocks' medians, part of precision. Drift: their variance over
// what `precision` implies for a block of k / B samples (B se^2, se = precision / 1.96) beyond the
// 99% point of chi-square(B - 1) / (B - 1), their law for a level that holds still.
struct Batch {
  double half = 0;  // relative half-width
  bool drift = false;
};

Batch batch_of_blocks(const std::vector<double>& samples, double precision, double m) {
  const auto k = static_cast<std::int64_t>(samples.size());
  const std::int64_t blocks = std::min(kMaxBlocks, k / kBlockSamples);
  if (blocks < 4) return {};
  std::vector<double> medians(static_cast<std::size_t>(blocks)), block;
  for (std::int64_t b = 0; b < blocks; ++b) {
    block.assign(samples.begin() + b * k / blocks, samples.begin() + (b + 1) * k / blocks);
    medians[static_cast<std::size_t>(b)] = quantile(block, 0.5);
  }
  double mean = 0, var = 0;
  for (const double x : medians) mean += x / static_cast<double>(blocks);
  for (const double x : medians) var += (x - mean) * (x - mean) / static_cast<double>(blocks - 1);
  const double se = precision / 1.959964 * m;
  return {student_t975(blocks - 1) * std::sqrt(var / static_cast<double>(blocks)) / m,
          var > chi2_99_per_df(blocks - 1) * static_cast<double>(blocks) * se * se};
}

}  // namespace

Sampler::Interval Sampler::interval() const {
  const auto k = count();
  const double kd = static_cast<double>(k);
  const auto& v = sorted();
  Interval out{kInf, kInf, rank_lag1(samples_, v), kd, true, false};
  out.k_eff = kd * effective_share(out.lag1, kd);
  // The ranks over k_eff independent samples, as quantile levels j'/k_eff, taken at the same
  // levels of the k samples (the count below the median has k/k_eff times the binomial variance).
  const auto ke = static_cast<std::int64_t>(std::floor(out.k_eff));
  const auto scaled = [&](std::int64_t j_eff, std::int64_t j_indep) -> std::int64_t {
    if (j_eff == 0) return 0;
    const auto j = static_cast<std::int64_t>(std::floor(static_cast<double>(j_eff) * kd / static_cast<double>(ke)));
    return std::clamp<std::int64_t>(j, 1, j_indep);
  };
  const std::int64_t j95 = scaled(median_ci_rank(ke), median_ci_rank(k));
  const double m = median();
  if (j95 == 0 || m <= 0) return out;
  const auto half = [&](std::int64_t j) {
    return (v[static_cast<std::size_t>(k - j)] - v[static_cast<std::size_t>(j - 1)]) / 2 / m;
  };
  const auto at = [&](double q) {  // the q-quantile, linear between order statistics
    const double pos = q * (kd - 1);
    const auto lo = static_cast<std::size_t>(pos);
    return v[lo] + (pos - static_cast<double>(lo)) * (v[std::min(lo + 1, v.size() - 1)] - v[lo]);
  };
  const double narrow = half(j95);
  // A floor: 1.96 IQR / sqrt(k_eff), the median's asymptotic half-width were the density at the
  // median the IQR's mean density (normal samples: 1.07 times the true one). The interval's width
  // rests on the few spacings around the median, and stopping at its first narrow value picks the
  // narrow ones: 94% of normal runs held the true median without the floor, 97% with it.
  out.spread = 1.959964 * (at(0.75) - at(0.25)) / std::sqrt(out.k_eff) / m;
  out.precision = std::max(narrow, out.spread);
  out.unstable = false;
  const Batch batch = batch_of_blocks(samples_, out.precision, m);
  out.drift = batch.drift;
  out.precision = std::max(out.precision, batch.half);
  if (rule_.tick_seconds > 0) out.precision = std::max(out.precision, rule_.tick_seconds / m);
  const std::int64_t j999 = scaled(median_ci_rank_999(ke), median_ci_rank_999(k));
  if (j999 > 0) {
    const double wide = half(j999);
    if (wide > rule_.target && wide > kGapRatio * narrow) {
      out.precision = std::max(out.precision, wide);
      out.unstable = true;
    }
  }
  return out;
}

double Sampler::precision() const { return interval().precision; }

double Sampler::lag1() const { return rank_lag1(samples_, sorted()); }

bool Sampler::tick_over_target() const { return rule_.tick_seconds > rule_.target * median(); }

double Sampler::projected_samples() const {
  const auto k = count();
  if (k < 3) return kInf;
  const Interval iv = interval();
  const double kd = static_cast<double>(k);
  double need = kInf;
  // A drifting level or a tick over the target: no count reaches it.
  if (iv.drift || tick_over_target()) return kInf;
  if (iv.unstable && std::isfinite(iv.precision)) {
    need = std::ceil(kd * std::pow(iv.precision / rule_.target, 2));  // across a gap: the 99.9% interval's
  } else if (std::isfinite(iv.precision)) {
    // From the IQR's floor, not the interval: its width rests on a few spacings and projects
    // erratically over few samples. The floor over k independent samples is spread sqrt(k_eff / k);
    // it reaches the target at k' effective samples, k' effective_share(k') of k'.
    const double independent = iv.spread * std::sqrt(iv.k_eff / kd);
    need = least_count(iv.lag1, kd, kd * std::pow(independent / rule_.target, 2));
    // A width held open by the timer's ticks (GPU events count 32 ns) or by ties does not shrink
    // as the spread's floor does: an interval past 64 samples and over twice its floor projects
    // from itself, so a row that cannot reach the target stops at max_seconds instead of sampling
    // to the timeout.
    if (k >= 64 && iv.precision > 2 * iv.spread) {
      need = std::max(need, std::ceil(kd * std::pow(iv.precision / rule_.target, 2)));
    }
  } else {
    need = least_count(iv.lag1, kd, static_cast<double>(kFirstInterval));  // the first interval
  }
  return std::max({need, kd, static_cast<double>(rule_.min_samples)});
}

bool Sampler::done(double wall_seconds) {
  const auto k = count();
  if (k < 1) return false;
  if (k >= rule_.max_samples || wall_seconds >= std::max(rule_.max_seconds, rule_.timeout_seconds)) return true;
  const bool past_max_time = wall_seconds >= rule_.max_seconds;
  if (k < next_check_ || (k < rule_.min_samples && !past_max_time)) return false;
  next_check_ = k < 64 ? k + 1 : k + k / 16;
  const bool at_doubling = k >= 2 * pinned_at_;
  const bool pin_due = k >= pinned_at_ && (at_doubling || pinned_precision_ < 0);
  // Before max_seconds the interval is not worth computing while even the independent one misses,
  // except where a pinned interval is recorded or may end the sampling (5).
  // Where one tick of the timer is over the target, the tick is the best the row can reach: it
  // stops there (target_met stays 0) instead of sampling on to the cap.
  const double m = median();
  const double reach = tick_over_target() && m > 0 ? rule_.tick_seconds / m : rule_.target;
  if (!past_max_time && !pin_due && independent_precision() > reach) return false;
  const Interval iv = interval();
  if (k >= rule_.min_samples && iv.precision <= reach && !iv.unstable && !iv.drift) return true;
  if (pin_due) {
    const bool pinned = at_doubling && pinned_precision_ >= 0 && iv.precision > 2 * iv.spread &&
                        iv.precision > 0.95 * pinned_precision_;
    if (at_doubling) pinned_at_ *= 2;
    pinned_precision_ = iv.precision;
    if (pinned) return true;
  }
  if (!past_max_time) return false;
  // In reach: the projected samples end within the timeout. Below 3 samples there is no spread
  // to project from: a third sample is taken when three would fit.
  const double need = k < 3 ? 3.0 : projected_samples();
  return need * wall_seconds / static_cast<double>(k) > rule_.timeout_seconds;
}

double quantile(std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

SampleStats Sampler::stats() const {
  SampleStats st;
  st.count = count();
  if (st.count == 0) return st;
  std::vector<double> v = sorted();
  st.mean = sum_ / static_cast<double>(st.count);
  st.median = quantile(v, 0.5);
  st.p10 = quantile(v, 0.1);
  st.p90 = quantile(v, 0.9);
  st.min = v.front();
  st.max = v.back();
  const Interval iv = interval();
  st.precision = iv.precision;
  st.lag1 = iv.lag1;
  st.correlated = st.count >= 3 && iv.lag1 > 2 / std::sqrt(static_cast<double>(st.count));
  st.unstable = iv.unstable;
  st.drift = iv.drift;
  st.target_met =
      st.precision <= rule_.target && st.count >= rule_.min_samples && !st.unstable && !st.drift && !st.correlated;
  return st;
}

namespace {

std::string cap_text(const StopRule& r) {
  char buf[160];
  if (r.timeout_seconds > r.max_seconds) {
    std::snprintf(buf, sizeof buf, "at most %g s per benchmark unless the target is projected within %g s",
                  r.max_seconds, r.timeout_seconds);
  } else {
    std::snprintf(buf, sizeof buf, "at most %g s per benchmark", r.timeout_seconds);
  }
  return buf;
}

}  // namespace

std::string describe_rule(const StopRule& r) {
  char buf[512];
  std::snprintf(
      buf, sizeof buf,
      "until the 95%% CI of the median (order statistics over the effective sample count k (1 - r1) / (1 + r1), r1 "
      "the lag-1 rank autocorrelation's upper bound; at least 1.96 IQR / sqrt(k_eff)) is within +-%g%%, at least "
      "%lld and at most %lld samples, ",
      100 * r.target, static_cast<long long>(r.min_samples), static_cast<long long>(r.max_samples));
  return buf + cap_text(r) + "; real_time = median of the samples";
}

std::string summarize_rule(const StopRule& r) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "until the median is known to +-%g%% (95%%), %lld to %lld samples, ", 100 * r.target,
                static_cast<long long>(r.min_samples), static_cast<long long>(r.max_samples));
  return buf + cap_text(r);
}

}  // namespace rb::bench
