#pragma once
// A reporter that passes every call on to another, the one that writes: a wrapper (the widened
// repetitions, the rows saved on a second signal) overrides only what it changes.
#include <benchmark/benchmark.h>

#include <vector>

namespace rb::bench {

class ForwardingReporter : public benchmark::BenchmarkReporter {
 public:
  explicit ForwardingReporter(BenchmarkReporter* inner) : inner_(inner) {}
  bool ReportContext(const Context& c) override {
    // Google Benchmark sets the streams of the reporter it is given: the inner one writes to them.
    inner_->SetOutputStream(&GetOutputStream());
    inner_->SetErrorStream(&GetErrorStream());
    return inner_->ReportContext(c);
  }
  void ReportRunsConfig(double min_time, bool has_explicit_iters, benchmark::IterationCount iters) override {
    inner_->ReportRunsConfig(min_time, has_explicit_iters, iters);
  }
  void ReportRuns(const std::vector<Run>& runs) override { inner_->ReportRuns(runs); }
  void Finalize() override { inner_->Finalize(); }

 protected:
  BenchmarkReporter* inner() const noexcept { return inner_; }

 private:
  BenchmarkReporter* inner_;
};

}  // namespace rb::bench
