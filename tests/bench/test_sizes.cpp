#include "common/sizes.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using rb::parse_size;
using rb::parse_size_list;

TEST(Sizes, AcceptsEveryForm) {
  EXPECT_EQ(parse_size("0"), 0);
  EXPECT_EQ(parse_size("1000"), 1000);
  EXPECT_EQ(parse_size("1e6"), 1'000'000);
  EXPECT_EQ(parse_size("1.5e3"), 1500);
  EXPECT_EQ(parse_size("5e8"), 500'000'000);
  EXPECT_EQ(parse_size("2^20"), 1 << 20);
  EXPECT_EQ(parse_size("2^31"), std::int64_t{1} << 31);
  EXPECT_EQ(parse_size("2^33"), std::int64_t{1} << 33);
  EXPECT_EQ(parse_size("1K"), 1000);
  EXPECT_EQ(parse_size("4M"), 4'000'000);
  EXPECT_EQ(parse_size("1G"), 1'000'000'000);
  EXPECT_EQ(parse_size("1Ki"), 1024);
  EXPECT_EQ(parse_size("4Mi"), 4 << 20);
  EXPECT_EQ(parse_size("2Gi"), std::int64_t{2} << 30);
  EXPECT_EQ(parse_size("1.5K"), 1500);
}

TEST(Sizes, RejectsNonsenseWithTheOffendingText) {
  for (const char* bad : {"", "-1", "-2^3", "1.5", "abc", "1e", "2^", "2^-1", "2^65", "1X", "K", "1.1Ki",
                          "inf", "nan", "2^49", "1e15"}) {
    try {
      parse_size(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(Sizes, ListIsSortedAndUnique) {
  const auto v = parse_size_list("2^20,1e3,1000,33,0");
  EXPECT_EQ(v, (std::vector<std::int64_t>{0, 33, 1000, 1 << 20}));
}

TEST(Sizes, RangeDoubles) {
  EXPECT_EQ(parse_size_list("1Ki..2^13"), (std::vector<std::int64_t>{1024, 2048, 4096, 8192}));
  EXPECT_EQ(parse_size_list("3..20"), (std::vector<std::int64_t>{3, 6, 12}));
  EXPECT_THROW(parse_size_list("2^10..2^5"), std::invalid_argument);
  EXPECT_THROW(parse_size_list("0..8"), std::invalid_argument);
  EXPECT_THROW(parse_size("1..8"), std::invalid_argument);
}

TEST(Sizes, EmptyItemsAreErrors) {
  EXPECT_THROW(parse_size_list(""), std::invalid_argument);
  EXPECT_THROW(parse_size_list("1,,2"), std::invalid_argument);
  EXPECT_THROW(parse_size_list("1,"), std::invalid_argument);
}

TEST(Sizes, DefaultSweep) {
  const auto v = rb::default_sizes();
  EXPECT_EQ(v.size(), 22u + 7u + 2u);
  EXPECT_EQ(v.front(), 1024);
  EXPECT_EQ(v.back(), std::int64_t{1} << 31);
  EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
  for (std::int64_t n : {10'000LL, 1'000'000'000LL, 500'000'000LL}) {
    EXPECT_NE(std::find(v.begin(), v.end(), n), v.end()) << n;
  }
  // Tails: a size no vector width divides, with CPU rows (at most 2^22) and one beyond 2^24.
  EXPECT_TRUE(std::any_of(v.begin(), v.end(), [](std::int64_t n) { return n % 2 == 1 && n <= (1 << 22); }));
  EXPECT_TRUE(std::any_of(v.begin(), v.end(), [](std::int64_t n) { return n % 2 == 1 && n > (1 << 24); }));
}

}  // namespace
