#include "bench/sampling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rb::bench {

double student_t975(std::int64_t df) {
  // Exact to 3 decimals for df <= 10; beyond, the Cornish-Fisher expansion in 1/df (three
  // terms) is within 1e-3 of the exact quantile.
  static constexpr double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228};
  if (df < 1) return std::numeric_limits<double>::infinity();
  if (df <= 10) return table[df - 1];
  const double z = 1.959964, d = static_cast<double>(df);
  const double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
  return z + (z3 + z) / (4 * d) + (5 * z5 + 16 * z3 + 3 * z) / (96 * d * d) +
         (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * d * d * d);
}

std::int64_t median_ci_rank(std::int64_t k) {
  if (k < 6) return 0;
  if (k > 1000) {  // the normal approximation of the binomial is exact to a rank here
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor((static_cast<double>(k) - 1.959964 * std::sqrt(static_cast<double>(k))) / 2)));
  }
  // P(B <= i) for B ~ Binomial(k, 1/2), accumulated in logs (0.5^1000 underflows).
  double cdf = 0;
  std::int64_t j = 0;
  for (std::int64_t i = 0; i < k; ++i) {
    const double log_p = std::lgamma(k + 1.0) - std::lgamma(i + 1.0) - std::lgamma(k - i + 1.0) - k * std::log(2.0);
    cdf += std::exp(log_p);
    if (2 * cdf > 0.05) break;
    j = i + 1;  // 2 P(B <= j - 1) <= 0.05
  }
  return j;
}

void Sampler::add(double seconds) {
  samples_.push_back(seconds);
  sum_ += seconds;
  const double delta = seconds - mean_;
  mean_ += delta / static_cast<double>(samples_.size());
  m2_ += delta * (seconds - mean_);
}

double Sampler::stddev() const {
  return std::sqrt(std::max(0.0, m2_) / static_cast<double>(count() - 1));
}

double Sampler::precision() const { return std::min(median_precision(), mean_precision()); }

double Sampler::mean_precision() const {
  const auto k = count();
  if (k < 2 || mean_ <= 0) return std::numeric_limits<double>::infinity();
  return student_t975(k - 1) * stddev() / std::sqrt(static_cast<double>(k)) / mean_;
}

double Sampler::median_precision() const {
  const auto k = count();
  const std::int64_t j = median_ci_rank(k);
  if (j == 0) return std::numeric_limits<double>::infinity();
  std::vector<double> v = samples_;
  const auto at = [&v](std::int64_t rank) {  // the rank-th smallest, 1-based
    std::nth_element(v.begin(), v.begin() + (rank - 1), v.end());
    return v[static_cast<std::size_t>(rank - 1)];
  };
  const double lo = at(j), hi = at(k + 1 - j);
  const double median = quantile(v, 0.5);
  return median > 0 ? (hi - lo) / 2 / median : std::numeric_limits<double>::infinity();
}

double Sampler::projected_samples() const {
  const auto k = count();
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (k < 3 || mean_ <= 0) return inf;
  const double cv = stddev() / mean_;
  // t(0.975, k'-1) shrinks as k' grows: iterate k' = (t(k'-1) cv / target)^2 from t at k - 1.
  double by_mean = static_cast<double>(k);
  for (int i = 0; i < 8; ++i) {
    const double t = student_t975(static_cast<std::int64_t>(std::ceil(by_mean)) - 1);
    const double next = std::max(static_cast<double>(k), std::ceil(std::pow(t * cv / rule_.target, 2)));
    if (next == by_mean) break;
    by_mean = next;
  }
  const double p = median_precision();
  const double by_median = std::isfinite(p) ? std::ceil(static_cast<double>(k) * std::pow(p / rule_.target, 2)) : inf;
  return std::max({std::min(by_mean, by_median), static_cast<double>(k), static_cast<double>(rule_.min_samples)});
}

bool Sampler::done(double wall_seconds) {
  const auto k = count();
  if (k < 1) return false;
  if (k >= rule_.max_samples || wall_seconds >= std::max(rule_.max_seconds, rule_.timeout_seconds)) return true;
  const bool past_max_time = wall_seconds >= rule_.max_seconds;
  if (k < next_check_ || (k < rule_.min_samples && !past_max_time)) return false;
  next_check_ = k < 64 ? k + 1 : k + k / 16;
  if (k >= rule_.min_samples && precision() <= rule_.target) return true;
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
  std::vector<double> v = samples_;
  st.mean = sum_ / static_cast<double>(st.count);
  st.median = quantile(v, 0.5);
  st.p10 = quantile(v, 0.1);
  st.p90 = quantile(v, 0.9);
  st.min = v.front();
  st.max = v.back();
  st.precision = precision();
  st.target_met = st.precision <= rule_.target;
  return st;
}

}  // namespace rb::bench
