#include "bench/detail/options.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "common/synth.hpp"

namespace {

using rb::bench::Dist;
using rb::bench::Options;
using rb::bench::TimedData;
using rb::bench::UsageError;

struct Argv {
  explicit Argv(std::vector<std::string> a) : store(std::move(a)) {
    store.insert(store.begin(), "reduce_bench");
    for (auto& s : store) ptrs.push_back(s.data());
    ptrs.push_back(nullptr);
    argc = static_cast<int>(store.size());
  }
  Options parse() { return rb::bench::parse_options(argc, ptrs.data()); }
  std::vector<std::string> rest() const { return {ptrs.begin() + 1, ptrs.begin() + argc}; }
  std::vector<std::string> store;
  std::vector<char*> ptrs;
  int argc;
};

TEST(Options, OursAreRemovedBenchmarksStay) {
  Argv a({"--sizes=1e3,2^10", "--benchmark_filter=cub", "--dist=uniform", "--seed=7",
          "--benchmark_min_time=0.01", "--list_backends"});
  const Options o = a.parse();
  EXPECT_EQ(o.sizes, (std::vector<std::int64_t>{1000, 1024}));
  EXPECT_EQ(o.dist, Dist::uniform);
  EXPECT_EQ(o.seed, 7u);
  EXPECT_TRUE(o.list_backends);
  EXPECT_TRUE(o.user_min_time);
  EXPECT_EQ(a.rest(), (std::vector<std::string>{"--benchmark_filter=cub", "--benchmark_min_time=0.01"}));
}

TEST(Options, TimeOnExactOrInput) {
  EXPECT_EQ(Argv({"--time_on=input"}).parse().time_on, TimedData::input);
  EXPECT_EQ(Argv({"--time_on=exact"}).parse().time_on, TimedData::exact);
  EXPECT_THROW(Argv({"--time_on=integers"}).parse(), UsageError);
}

TEST(Options, Defaults) {
  Argv a({});
  const Options o = a.parse();
  EXPECT_EQ(o.dist, Dist::harmonic);
  EXPECT_EQ(o.sizes.size(), 31u);
  EXPECT_EQ(o.time_on, TimedData::exact);
  EXPECT_FALSE(o.user_min_time);
  EXPECT_TRUE(o.input_path.empty());
}

// --shapes: the shapes of the rows that sum along a dimension (common/shape.hpp), in order.
TEST(Options, Shapes) {
  const auto o = Argv({"--shapes=4x1000,1000x4/cols"}).parse();
  ASSERT_EQ(o.shapes.size(), 2u);
  EXPECT_EQ(o.shapes[0], (rb::Shape2D{4, 1000, rb::Axis::rows}));
  EXPECT_EQ(o.shapes[1], (rb::Shape2D{1000, 4, rb::Axis::cols}));
  EXPECT_FALSE(o.sizes_given);
  EXPECT_TRUE(Argv({"--sizes=1000"}).parse().shapes.empty());
}

TEST(Options, UnknownFlagsAreLeftForTheCaller) {
  Argv a({"--frobnicate", "--sizesX=3"});
  a.parse();
  EXPECT_EQ(a.rest(), (std::vector<std::string>{"--frobnicate", "--sizesX=3"}));
}

TEST(Options, BadValuesAreClearErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--sizes=12x", "12x"},       {"--sizes=-4", "-4"},        {"--sizes", "needs a value"},
      {"--sizes=", "needs a value"}, {"--seed=abc", "abc"},      {"--seed=-1", "-1"},
      {"--dist=gauss", "gauss"},    {"--input", "needs a value"}, {"--offset=-1", "-1"},
      {"--offset=65", "65"},        {"--offset=1.5", "1.5"},
      {"--precision=0", "0"},       {"--precision=1", "fraction"}, {"--precision=50", "50"},
      {"--precision=x%", "x%"},     {"--min_samples=0", "0"},      {"--max_samples=-3", "-3"},
      {"--max_time=0", "positive time"}, {"--max_time=1h", "1h"}, {"--timeout=0", "positive time"},
      {"--warmup=-1s", "-1s"},      {"--shapes=4x0", "4x0"},       {"--shapes=4x4/rows", "4x4/rows"},
      {"--shapes=2^10:3..2^10", "does not divide"}};
  for (const auto& [arg, needle] : cases) {
    Argv a({arg});
    try {
      a.parse();
      ADD_FAILURE() << "accepted " << arg;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << arg << " -> " << e.what();
    }
  }
}

TEST(Options, OffsetAndNormal) {
  Argv a({"--offset=3", "--dist=normal"});
  const Options o = a.parse();
  EXPECT_EQ(o.offset, 3);
  EXPECT_EQ(o.dist, Dist::normal);
  EXPECT_TRUE(a.rest().empty());
}

// positive: uniform in [0, 1), the signed uniform's draws halved and shifted (exact in float).
TEST(Options, PositiveDist) {
  Argv a({"--dist=positive"});
  EXPECT_EQ(a.parse().dist, Dist::positive);
  for (std::int64_t i = 0; i < 100000; ++i) {
    const float v = rb::synth::value(Dist::positive, 42, i);
    ASSERT_TRUE(v >= 0.0f && v < 1.0f) << i << " " << v;
    ASSERT_EQ(v, 0.5f * rb::synth::value(Dist::uniform, 42, i) + 0.5f);
  }
}

TEST(Options, StoppingRule) {
  Argv a({"--precision=0.25%", "--min_samples=8", "--max_samples=50", "--max_time=150ms", "--timeout=2s",
          "--warmup=30ms"});
  const Options o = a.parse();
  EXPECT_DOUBLE_EQ(o.rule.target, 0.0025);
  EXPECT_EQ(o.rule.min_samples, 8);
  EXPECT_EQ(o.rule.max_samples, 50);
  EXPECT_DOUBLE_EQ(o.rule.max_seconds, 0.15);
  EXPECT_DOUBLE_EQ(o.rule.timeout_seconds, 2.0);
  EXPECT_DOUBLE_EQ(o.rule.warmup_seconds, 0.03);
  EXPECT_TRUE(a.rest().empty());
  EXPECT_DOUBLE_EQ(Argv({"--precision=0.01", "--max_time=2s"}).parse().rule.target, 0.01);
  EXPECT_DOUBLE_EQ(Argv({"--max_time=0.5"}).parse().rule.max_seconds, 0.5);
}

TEST(Options, StoppingRuleAndGoogleBenchmarksRuleExcludeEachOther) {
  Argv a({"--precision=1%", "--benchmark_min_time=0.1s"});
  EXPECT_THROW(a.parse(), UsageError);
  Argv b({"--min_samples=20", "--max_samples=10"});
  EXPECT_THROW(b.parse(), UsageError);
  EXPECT_THROW(Argv({"--timeout=1s", "--benchmark_min_time=0.1s"}).parse(), UsageError);
}

// --timeout caps every benchmark's sampling: a value that would switch the cap off is refused,
// and the maximum is stated in the help.
TEST(Options, TimeoutIsCapped) {
  EXPECT_DOUBLE_EQ(Argv({"--timeout=3600s"}).parse().rule.timeout_seconds, 3600.0);
  EXPECT_DOUBLE_EQ(Argv({"--timeout=3600000ms"}).parse().rule.timeout_seconds, 3600.0);
  for (const std::string v : {"inf", "infs", "INF", "infinity", "nan", "NaN", "-inf", "3601", "3600.5s", "1e9",
                              "1e400", "3600001ms"}) {
    Argv a({"--timeout=" + v});
    try {
      a.parse();
      ADD_FAILURE() << "accepted --timeout=" << v;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--timeout '" + v + "'"), std::string::npos) << v << " -> " << e.what();
    }
  }
  try {
    Argv({"--timeout=inf"}).parse();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("at most 3600s"), std::string::npos) << e.what();
  }
  EXPECT_NE(rb::bench::usage().find("3600s"), std::string::npos) << rb::bench::usage();
  // The other time flags cap too (--max_time is a cap when at or above --timeout).
  for (const std::string flag : {"--max_time", "--warmup", "--compare_min_time"}) {
    EXPECT_THROW(Argv({flag + "=inf"}).parse(), UsageError) << flag;
    EXPECT_THROW(Argv({flag + "=3601s"}).parse(), UsageError) << flag;
  }
}

TEST(Options, UsageListsEveryExitStatus) {
  const std::string u = rb::bench::usage();
  EXPECT_NE(u.find("5 interrupted by SIGINT or SIGTERM"), std::string::npos) << u;
  EXPECT_NE(u.find("--benchmark_out file that cannot be written"), std::string::npos) << u;
}

TEST(Options, RepetitionsAndSizesGivenAreRecorded) {
  Argv a({"--benchmark_repetitions=7", "--sizes=1K"});
  const Options o = a.parse();
  EXPECT_EQ(o.repetitions, 7);
  EXPECT_TRUE(o.sizes_given);
  EXPECT_EQ(a.rest(), (std::vector<std::string>{"--benchmark_repetitions=7"}));
  EXPECT_FALSE(Argv({}).parse().sizes_given);
}

TEST(Options, DistAndInputExcludeEachOther) {
  Argv a({"--dist=uniform", "--input=x.bin"});
  EXPECT_THROW(a.parse(), UsageError);
}

TEST(Options, DtypesDefaultToF32AndParseAList) {
  EXPECT_EQ(Argv({}).parse().dtypes, (std::vector<rb::Dtype>{rb::Dtype::f32}));
  EXPECT_EQ(Argv({"--dtype=bf16,f64"}).parse().dtypes, (std::vector<rb::Dtype>{rb::Dtype::bf16, rb::Dtype::f64}));
  EXPECT_EQ(Argv({"--dtype=all"}).parse().dtypes.size(), 5u);
  EXPECT_THROW(Argv({"--dtype=fp16"}).parse(), UsageError);
}

// The help is generated from the parser's own table: every flag it lists is parsed and removed,
// a flag that takes a value refuses to go without one, and a flag that takes none is not
// mistaken for a longer one.
TEST(Options, EveryFlagInTheHelpIsParsed) {
  std::istringstream help(rb::bench::usage());
  int flags = 0;
  for (std::string line; std::getline(help, line);) {
    if (!line.starts_with("  --")) continue;
    const std::string spec = line.substr(2, line.find(' ', 2) - 2);
    const std::size_t eq = spec.find('=');
    const std::string name = spec.substr(0, eq);
    ++flags;
    if (eq == std::string::npos) {
      Argv a({name, "--benchmark_filter=x"});
      a.parse();
      EXPECT_EQ(a.rest(), (std::vector<std::string>{"--benchmark_filter=x"})) << name;
      Argv longer({name + "_more"});
      longer.parse();
      EXPECT_EQ(longer.rest(), (std::vector<std::string>{name + "_more"})) << name;
    } else {
      try {
        Argv({name}).parse();
        ADD_FAILURE() << name << " accepted without a value";
      } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("needs a value"), std::string::npos) << name << " -> " << e.what();
      }
    }
  }
  EXPECT_EQ(flags, 26);
  EXPECT_TRUE(Argv({"-h"}).parse().help);
  EXPECT_TRUE(Argv({"--version"}).parse().version);
}

// Google Benchmark's flags pass through, but a bad value of one stops here (bench/detail/benchmark_flags.hpp).
TEST(Options, GoogleBenchmarksBadValuesAreUsageErrors) {
  Argv good({"--benchmark_out_format=csv", "--benchmark_repetitions=3"});
  EXPECT_EQ(good.parse().repetitions, 3);
  EXPECT_EQ(good.rest(), (std::vector<std::string>{"--benchmark_out_format=csv", "--benchmark_repetitions=3"}));
  try {
    Argv({"--sizes=33", "--benchmark_out_format=xml"}).parse();
    ADD_FAILURE() << "--benchmark_out_format=xml accepted";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "invalid --benchmark_out_format 'xml': expected console, json or csv");
  }
  EXPECT_THROW(Argv({"--benchmark_repetitions=abc"}).parse(), UsageError);
  for (const char* yes : {"--benchmark_list_tests", "--benchmark_list_tests=yes", "--benchmark_list_tests=1"}) {
    EXPECT_TRUE(Argv({yes}).parse().list_tests) << yes;
  }
  EXPECT_FALSE(Argv({"--benchmark_list_tests=false"}).parse().list_tests);
}

// The diagnostics are flags like any other: parsed, bounded, and absent means the measured default.
TEST(Options, DiagnosticFlags) {
  const Options none = Argv({}).parse();
  EXPECT_LT(none.spin_us, 0);
  EXPECT_LT(none.flush_passes, 0);
  EXPECT_LT(none.page_touch_mib, 0);
  EXPECT_TRUE(none.samples_csv.empty());
  EXPECT_EQ(none.collective_timeout, 300);
  const Options o = Argv({"--spin_us=200", "--flush_passes=3", "--page_touch_mib=0", "--samples_csv=s.csv",
                          "--collective_timeout=40s"}).parse();
  EXPECT_EQ(o.spin_us, 200);
  EXPECT_EQ(o.flush_passes, 3);
  EXPECT_EQ(o.page_touch_mib, 0);
  EXPECT_EQ(o.samples_csv, "s.csv");
  EXPECT_EQ(o.collective_timeout, 40);
  for (const char* bad :
       {"--spin_us=x", "--spin_us=-1", "--flush_passes=17", "--page_touch_mib=1e3", "--collective_timeout=0"}) {
    EXPECT_THROW(Argv({bad}).parse(), UsageError) << bad;
  }
}

}  // namespace
