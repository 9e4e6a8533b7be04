#include "bench/detail/benchmark_flags.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace {

using rb::bench::bad_benchmark_environment;
using rb::bench::bad_benchmark_flag;

TEST(BenchmarkFlags, GoodValuesPass) {
  for (const char* arg :
       {"--benchmark_out_format=json", "--benchmark_out_format=csv", "--benchmark_format=console",
        "--benchmark_time_unit=us", "--benchmark_color=auto", "--benchmark_color=No", "--benchmark_repetitions=3",
        "--benchmark_min_time=0.05s", "--benchmark_min_time=0.05", "--benchmark_min_time=100x",
        "--benchmark_min_time=1e-9s", "--benchmark_min_warmup_time=0.5", "--benchmark_enable_random_interleaving",
        "--benchmark_enable_random_interleaving=true", "--benchmark_report_aggregates_only=false",
        "--benchmark_display_aggregates_only=1", "--benchmark_context=a=1,b=2", "--v=2",
        "--benchmark_filter=anything(", "--benchmark_out=x.json", "--not_a_benchmark_flag=xml"}) {
    EXPECT_EQ(bad_benchmark_flag(arg), "") << arg;
  }
}

TEST(BenchmarkFlags, BadValuesNameTheFlagAndWhatItAccepts) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"--benchmark_out_format=xml", "invalid --benchmark_out_format 'xml': expected console, json or csv"},
      {"--benchmark_format=JSON", "invalid --benchmark_format 'JSON': expected console, json or csv"},
      {"--benchmark_time_unit=sec", "invalid --benchmark_time_unit 'sec': expected ns, us, ms or s"},
      {"--benchmark_color=", "invalid --benchmark_color '': expected auto, true or false"},
      {"--benchmark_color=maybe", "invalid --benchmark_color 'maybe': expected auto, true or false"},
      {"--benchmark_repetitions=abc", "invalid --benchmark_repetitions 'abc': expected a positive integer"},
      {"--benchmark_repetitions=0", "invalid --benchmark_repetitions '0': expected a positive integer"},
      {"--benchmark_repetitions=99999999999", "invalid --benchmark_repetitions '99999999999'"},
      {"--benchmark_min_time=fast", "invalid --benchmark_min_time 'fast': expected a time in seconds"},
      {"--benchmark_min_time=0x", "invalid --benchmark_min_time '0x'"},
      {"--benchmark_min_time=-1s", "invalid --benchmark_min_time '-1s'"},
      {"--benchmark_min_warmup_time=0.5s", "invalid --benchmark_min_warmup_time '0.5s': expected seconds as a plain"},
      {"--benchmark_enable_random_interleaving=sure",
       "invalid --benchmark_enable_random_interleaving 'sure': expected true or false"},
      {"--benchmark_report_aggregates_only=2", "invalid --benchmark_report_aggregates_only '2'"},
      {"--benchmark_display_aggregates_only=", "invalid --benchmark_display_aggregates_only ''"},
      {"--benchmark_context=a", "invalid --benchmark_context 'a': expected KEY=VALUE pairs"},
      {"--benchmark_context=a=1,a=2", "invalid --benchmark_context 'a=1,a=2'"},
      {"--v=loud", "invalid --v 'loud': expected an integer"},
      {"--benchmark_repetitions", "--benchmark_repetitions needs a value"},
      {"--benchmark_out_format", "--benchmark_out_format needs a value"},
  };
  for (const auto& [arg, want] : cases) {
    const std::string why = bad_benchmark_flag(arg);
    EXPECT_EQ(why.rfind(want, 0), 0u) << arg << ": " << why;
  }
}

TEST(BenchmarkFlags, EnvironmentDefaultsAreCheckedToo) {
  ASSERT_EQ(::setenv("BENCHMARK_OUT_FORMAT", "xml", 1), 0);
  EXPECT_EQ(bad_benchmark_environment(),
            "invalid BENCHMARK_OUT_FORMAT 'xml' in the environment: expected console, json or csv");
  ASSERT_EQ(::setenv("BENCHMARK_OUT_FORMAT", "csv", 1), 0);
  EXPECT_EQ(bad_benchmark_environment(), "");
  ASSERT_EQ(::setenv("BENCHMARK_REPETITIONS", "many", 1), 0);
  EXPECT_NE(bad_benchmark_environment().find("BENCHMARK_REPETITIONS"), std::string::npos);
  ::unsetenv("BENCHMARK_OUT_FORMAT");
  ::unsetenv("BENCHMARK_REPETITIONS");
  EXPECT_EQ(bad_benchmark_environment(), "");
}

}  // namespace
