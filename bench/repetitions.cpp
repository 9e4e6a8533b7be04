#include "bench/repetitions.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "bench/sampling.hpp"
#include "bench/session.hpp"

namespace rb::bench {

double between_repetitions(const std::vector<RunInterval>& runs) {
  std::vector<double> logs;
  double within = 0;  // mean se^2
  for (const RunInterval& r : runs) {
    if (!(r.median > 0) || !std::isfinite(r.precision)) continue;
    logs.push_back(std::log(r.median));
    within += std::pow(r.precision / 1.959964, 2);
  }
  const auto k = static_cast<std::int64_t>(logs.size());
  if (k < 2) return 0;
  within /= static_cast<double>(k);
  double mean = 0, var = 0;
  for (const double x : logs) mean += x / static_cast<double>(k);
  for (const double x : logs) var += (x - mean) * (x - mean) / static_cast<double>(k - 1);
  return student_t975(k - 1) * std::sqrt(std::max(0.0, var - within));
}

double widened(double precision, double between) { return std::hypot(precision, between); }

void Session::widen(const std::string& name, double between) {
  for (Outcome& o : outcomes_) {
    if (o.name != name || o.samples == 0) continue;
    o.precision = widened(o.precision, between);
    o.target_met = o.target_met && o.precision <= options_.rule.target;
  }
}

namespace {

using Run = benchmark::BenchmarkReporter::Run;

bool has(const Run& r, const char* key) { return r.counters.find(key) != r.counters.end(); }

class Widening final : public benchmark::BenchmarkReporter {
 public:
  Widening(BenchmarkReporter* inner, double target, OnWiden widen)
      : inner_(inner), target_(target), widen_(std::move(widen)) {}
  bool ReportContext(const Context& c) override {
    // Google Benchmark sets the streams of the reporter it is given: the inner one writes to them.
    inner_->SetOutputStream(&GetOutputStream());
    inner_->SetErrorStream(&GetErrorStream());
    return inner_->ReportContext(c);
  }
  void ReportRunsConfig(double min_time, bool has_explicit_iters, benchmark::IterationCount iters) override {
    inner_->ReportRunsConfig(min_time, has_explicit_iters, iters);
  }
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
    inner_->ReportRuns(out);
  }
  void Finalize() override { inner_->Finalize(); }

 private:
  BenchmarkReporter* inner_;
  double target_;
  OnWiden widen_;
};

}  // namespace

std::unique_ptr<benchmark::BenchmarkReporter> widening_reporter(benchmark::BenchmarkReporter* inner, double target,
                                                                OnWiden widen) {
  return std::make_unique<Widening>(inner, target, std::move(widen));
}

}  // namespace rb::bench
