#include "tests/support/run_cases.hpp"

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "bench/detail/measure.hpp"

namespace rb::test {

namespace {

class SilentReporter : public benchmark::BenchmarkReporter {
 public:
  explicit SilentReporter(std::map<std::string, double>* values = nullptr, std::string counter = {})
      : values_(values), counter_(std::move(counter)) {}
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    if (!values_) return;
    for (const auto& r : runs) {
      std::string name = r.benchmark_name();
      if (const auto at = name.rfind("/manual_time"); at != std::string::npos) name.erase(at);
      if (counter_.empty()) {
        (*values_)[name] = r.GetAdjustedRealTime();
      } else if (const auto it = r.counters.find(counter_); it != r.counters.end()) {
        (*values_)[name] = it->second.value;
      }
    }
  }

 private:
  std::map<std::string, double>* values_;
  std::string counter_;
};

void init_benchmark_once() {
  static const bool done = [] {
    char arg0[] = "rb_test";
    std::string min_time = bench::kOneIterationFlag;
    char* argv[] = {arg0, min_time.data(), nullptr};
    int argc = 2;
    benchmark::Initialize(&argc, argv);
    return true;
  }();
  (void)done;
}

}  // namespace

bench::Options small_options(std::vector<std::int64_t> sizes) {
  bench::Options o;
  o.sizes = std::move(sizes);
  o.sizes_given = true;
  // A light rule: tests check results and plumbing, not precision.
  o.rule.min_samples = 3;
  o.rule.max_seconds = 0.02;
  o.rule.timeout_seconds = 0.02;  // max_time as a hard cap
  o.rule.warmup_seconds = 0.005;
  o.dist = bench::Dist::uniform;
  o.seed = 1234;
  return o;
}

bench::Options shape_options(std::vector<rb::Shape2D> shapes) {
  bench::Options o = small_options({});
  o.sizes_given = false;
  o.shapes = std::move(shapes);
  return o;
}

namespace {

std::size_t run_with(bench::Session& session, const std::vector<bench::BackendEntry>& entries,
                     const std::string& filter, SilentReporter& reporter) {
  init_benchmark_once();
  const auto cases = bench::select_cases(entries, session.options(), filter);
  std::set<std::int64_t> sizes;
  for (const auto& c : cases) sizes.insert(c.n);
  session.input().select_sizes({sizes.begin(), sizes.end()});
  bench::register_cases(cases, entries);
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks(&reporter, filter);
  benchmark::ClearRegisteredBenchmarks();
  return ran;
}

}  // namespace

std::size_t run_in_process(bench::Session& session, const std::vector<bench::BackendEntry>& entries,
                           const std::string& filter) {
  SilentReporter reporter;
  return run_with(session, entries, filter, reporter);
}

std::size_t run_in_process(bench::Session& session, const std::vector<bench::BackendEntry>& entries,
                           const std::string& filter, std::map<std::string, double>& values,
                           const std::string& counter) {
  SilentReporter reporter(&values, counter);
  return run_with(session, entries, filter, reporter);
}

std::string drop_unavailable(std::vector<bench::BackendEntry>& entries) {
  std::string why;
  std::erase_if(entries, [&](const bench::BackendEntry& e) {
    if (e.unavailable.empty()) return false;
    why += e.name + ": " + e.unavailable + "\n";
    return true;
  });
  return why;
}

std::vector<bench::BackendDef<float>> registered_cpu_defs() {
  auto defs = bench::registered_defs<float>();
  std::erase_if(defs, [](const auto& d) { return !d.on_cpu(); });
  return defs;
}

std::vector<bench::BackendDef<float>> registered_gpu_defs() {
  auto defs = bench::registered_defs<float>();
  std::erase_if(defs, [](const auto& d) { return !d.on_gpu(); });
  return defs;
}

bench::Outcome outcome_of(const bench::Session& session, const std::string& name) {
  const auto& all = session.log().outcomes();
  const auto it = std::find_if(all.rbegin(), all.rend(), [&](const bench::Outcome& o) { return o.name == name; });
  if (it == all.rend()) {
    ADD_FAILURE() << "no outcome recorded for " << name;
    return {};
  }
  return *it;
}

}  // namespace rb::test
