#include <gtest/gtest.h>

#include "tools/reduce_gen/args.hpp"

namespace {

using rb::gen::GenDist;
using rb::gen::parse_args;
using rb::gen::UsageError;

TEST(ReduceGenArgs, SpaceAndEqualsForms) {
  const auto a = parse_args({"out.bin", "-n", "1e9", "--seed", "7", "--dist", "normal"});
  EXPECT_EQ(a.out, "out.bin");
  EXPECT_EQ(a.n, 1'000'000'000);
  EXPECT_EQ(a.seed, 7u);
  EXPECT_EQ(a.dist, GenDist::normal);
  const auto b = parse_args({"--n=2^30", "--seed=18446744073709551615", "--dist=harmonic", "x.bin"});
  EXPECT_EQ(b.n, std::int64_t{1} << 30);
  EXPECT_EQ(b.seed, 18446744073709551615ull);
  EXPECT_EQ(b.dist, GenDist::harmonic);
}

TEST(ReduceGenArgs, BenchSizeForms) {
  EXPECT_EQ(parse_args({"o", "-n", "1G"}).n, 1'000'000'000);
  EXPECT_EQ(parse_args({"o", "-n", "4Ki"}).n, 4096);
  EXPECT_EQ(parse_args({"o", "-n=1000"}).n, 1000);
}

TEST(ReduceGenArgs, Defaults) {
  const auto a = parse_args({"o.bin", "-n", "10"});
  EXPECT_EQ(a.seed, 42u);  // reduce_bench's default --seed
  EXPECT_EQ(a.dist, GenDist::uniform);
  EXPECT_FALSE(a.quiet);
}

TEST(ReduceGenArgs, DashDashEndsFlags) {
  EXPECT_EQ(parse_args({"-n", "3", "--", "-odd-name.bin"}).out, "-odd-name.bin");
}

void expect_usage_error(const std::vector<std::string>& args, const std::string& fragment) {
  try {
    parse_args(args);
    ADD_FAILURE() << "no error for " << ::testing::PrintToString(args);
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(ReduceGenArgs, BadArguments) {
  expect_usage_error({}, "missing the output file");
  expect_usage_error({"o.bin"}, "missing -n");
  expect_usage_error({"o.bin", "-n", "-5"}, "'-5'");
  expect_usage_error({"o.bin", "-n", "1x"}, "'1x'");
  expect_usage_error({"o.bin", "-n", "0"}, "at least one value");
  expect_usage_error({"o.bin", "-n", "1.5"}, "whole number");
  expect_usage_error({"o.bin", "-n"}, "-n needs a value");
  expect_usage_error({"o.bin", "-n="}, "-n needs a value");
  expect_usage_error({"o.bin", "-n", "4", "--dist", "gauss"}, "'gauss'");
  expect_usage_error({"o.bin", "-n", "4", "--seed", "-1"}, "'-1'");
  expect_usage_error({"o.bin", "-n", "4", "--seed", "12ab"}, "'12ab'");
  expect_usage_error({"o.bin", "-n", "4", "--bogus"}, "unknown flag '--bogus'");
  expect_usage_error({"o.bin", "-n", "4", "--seeds=3"}, "unknown flag '--seeds=3'");
  expect_usage_error({"a.bin", "b.bin", "-n", "4"}, "'b.bin'");
}

TEST(ReduceGenArgs, HelpNeedsNothingElse) { EXPECT_TRUE(parse_args({"--help"}).help); }

}  // namespace
