#include "bench/detail/repetitions.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "bench/detail/forwarding_reporter.hpp"
#include "bench/detail/sampling.hpp"

namespace rb::bench {

double between_repetitions(const std::vector<RunInterval>& runs) {
  // DerSimonian and Laird's estimate of the between variance, each log median weighted by its own
  // 1 / se^2: a repetition with a wide interval of its own weighs little, where in a plain mean of
  // se^2 it would hide the scatter of the others.
  constexpr double kMinSe = 1e-6;  // a run that claims precision 0 (every sample one value)
  std::vector<double> y, w;
  for (const RunInterval& r : runs) {
    if (!(r.median > 0) || !std::isfinite(r.precision)) continue;
    y.push_back(std::log(r.median));
    w.push_back(1 / std::pow(std::max(r.precision / 1.959964, kMinSe), 2));
  }
  const auto k = static_cast<std::int64_t>(y.size());
  if (k < 2) return 0;
  double sw = 0, sw2 = 0, swy = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    sw += w[i];
    sw2 += w[i] * w[i];
    swy += w[i] * y[i];
  }
  const double mean = swy / sw;
  double q = 0;
  for (std::size_t i = 0; i < y.size(); ++i) q += w[i] * (y[i] - mean) * (y[i] - mean);
  const double tau2 = std::max(0.0, (q - static_cast<double>(k - 1)) / (sw - sw2 / sw));
  return student_t975(k - 1) * std::sqrt(tau2);
}

double widened(double precision, double between) { return std::hypot(precision, between); }

namespace {

using Run = benchmark::BenchmarkReporter::Run;

bool has(const Run& r, const char* key) { return r.counters.find(key) != r.counters.end(); }

class Widening final : public ForwardingReporter {
 public:
  Widening(BenchmarkReporter* inner, double target, OnWiden widen)
      : ForwardingReporter(inner), target_(target), widen_(std::move(widen)) {}
  void ReportRuns(const std::vector<Run>& runs) override {
    std::vector<Run> out = runs;
    std::map<std::string, std::vector<Run*>> by_name;  // the repetition rows of each benchmark
    for (Run& r : out) {
      if (r.run_type == Run::RT_Iteration && r.skipped == benchmark::internal::NotSkipped && has(r, "median_us") &&
          has(r, "precision")) {
        by_name[r.run_name.str()].push_back(&r);
      }
    }
    for (auto& [name, reps] : by_name) {
      if (reps.size() < 2) continue;
      std::vector<RunInterval> intervals;
      for (const Run* r : reps) {
        intervals.push_back({r->counters.at("median_us").value, r->counters.at("precision").value});
      }
      const double between = between_repetitions(intervals);
      // The case's name: Google Benchmark's ends in /manual_time.
      if (widen_) widen_(name.substr(0, name.rfind("/manual_time")), between);
      for (Run* r : reps) {
        const double own = r->counters.at("precision").value, wide = widened(own, between);
        r->counters["precision_run"] = own;
        r->counters["between"] = between;
        r->counters["precision"] = wide;
        if (wide > target_ && has(*r, "target_met")) r->counters["target_met"] = 0;
      }
    }
    ForwardingReporter::ReportRuns(out);
  }

 private:
  double target_;
  OnWiden widen_;
};

}  // namespace

std::unique_ptr<benchmark::BenchmarkReporter> widening_reporter(benchmark::BenchmarkReporter* inner, double target,
                                                                OnWiden widen) {
  return std::make_unique<Widening>(inner, target, std::move(widen));
}

}  // namespace rb::bench
