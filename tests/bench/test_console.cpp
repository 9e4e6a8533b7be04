#include "bench/detail/console.hpp"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using BenchRun = benchmark::BenchmarkReporter::Run;

BenchRun row(const std::string& name, const std::map<std::string, double>& counters) {
  BenchRun r;
  r.run_name.function_name = name;
  r.iterations = 1;
  r.real_accumulated_time = 9.024e-3;
  r.time_unit = benchmark::kNanosecond;
  for (const auto& [k, v] : counters) r.counters[k] = benchmark::Counter(v);
  return r;
}

// The console's line of each run, as the table prints it.
std::vector<std::string> lines(const std::vector<BenchRun>& runs) {
  const auto table = rb::bench::make_console_reporter(false);
  std::ostringstream out;
  table->SetOutputStream(&out);
  table->SetErrorStream(&out);
  table->ReportRuns(runs);
  std::vector<std::string> all;
  std::istringstream in(out.str());
  for (std::string l; std::getline(in, l);) all.push_back(l);
  return all;
}

// The +-95% column and its mark: the 9 characters after the name, the time and the two blank
// columns of a CPU row (no GB/s counter, no %peak).
std::string interval(const std::string& line) { return line.substr(40 + 11 + 11 + 8, 9); }

TEST(Console, EveryRowShortOfItsTargetIsMarked) {
  const auto got = lines({
      row("met", {{"samples", 40}, {"precision", 0.004}, {"target_met", 1}}),
      row("short", {{"samples", 40}, {"precision", 0.02}, {"target_met", 0}}),
      row("no_interval", {{"samples", 3}, {"target_met", 0}}),
      row("no_samples", {{"target_met", 0}}),
      row("contended", {{"samples", 40}, {"precision", 0.004}, {"target_met", 1}, {"contended", 1}}),
      row("timing_only", {}),
  });
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(interval(got[0]), "   0.40% ");
  EXPECT_EQ(interval(got[1]), "   2.00%*");
  EXPECT_EQ(interval(got[2]), "       -*");
  EXPECT_EQ(interval(got[3]), "       -*");
  EXPECT_EQ(interval(got[4]), "   0.40%*");
  EXPECT_EQ(interval(got[5]), "         ");
}

TEST(Console, SkipsAndErrorsSayTheirWordOnce) {
  BenchRun skipped = row("big", {});
  skipped.skipped = benchmark::internal::SkippedWithMessage;
  skipped.skip_message = "skipped: n = 5 exceeds the input file's 4 values";
  BenchRun error = row("bad", {});
  error.skipped = benchmark::internal::SkippedWithError;
  error.skip_message = "error: cudaMalloc failed";
  const auto got = lines({skipped, error});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_NE(got[0].find(" SKIPPED: n = 5 exceeds the input file's 4 values"), std::string::npos) << got[0];
  EXPECT_EQ(got[0].find("skipped:"), std::string::npos) << got[0];
  EXPECT_NE(got[1].find(" ERROR: cudaMalloc failed"), std::string::npos) << got[1];
  EXPECT_EQ(got[1].find("error:"), std::string::npos) << got[1];
}

TEST(Console, TheBannerNamesTheProgramRunning) {
  EXPECT_EQ(rb::bench::program_and_version("/usr/bin/reduce_bench", "0.1.0"), "reduce_bench 0.1.0");
  EXPECT_EQ(rb::bench::program_and_version("build/my_bench", "0.1.0"), "my_bench with reduce_bench 0.1.0");
  EXPECT_EQ(rb::bench::program_and_version("my_bench", "1.2.3"), "my_bench with reduce_bench 1.2.3");
}

}  // namespace
