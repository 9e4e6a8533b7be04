#include "bench/detail/input.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "common/synth.hpp"
#include "tests/support/data.hpp"

namespace {

namespace fs = std::filesystem;
using rb::bench::InputError;

class InputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rb_input_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const void* data, std::size_t bytes) {
    const auto p = dir_ / name;
    std::ofstream(p, std::ios::binary).write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    return p;
  }
  static std::string error_of(const fs::path& p) {
    try {
      rb::bench::inspect_input_file(p.string());
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }
  fs::path dir_;
};

TEST_F(InputFileTest, MissingFile) {
  EXPECT_NE(error_of(dir_ / "nope.bin").find("cannot open"), std::string::npos);
}

TEST_F(InputFileTest, Directory) { EXPECT_NE(error_of(dir_).find("is a directory"), std::string::npos); }

TEST_F(InputFileTest, Empty) {
  EXPECT_NE(error_of(write("empty.bin", "", 0)).find("empty"), std::string::npos);
}

TEST_F(InputFileTest, NotMultipleOfFour) {
  EXPECT_NE(error_of(write("odd.bin", "abcdefg", 7)).find("not a multiple of 4"), std::string::npos);
}

TEST_F(InputFileTest, Unreadable) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads files regardless of permissions";
  const auto p = write("locked.bin", "abcd", 4);
  fs::permissions(p, fs::perms::none);
  EXPECT_NE(error_of(p).find("cannot read"), std::string::npos);
}

TEST_F(InputFileTest, RoundTripAndShortRead) {
  const auto x = rb::test::random_signed(100'003, 5);
  const auto p = write("x.bin", x.data(), x.size() * sizeof(float));
  const auto f = rb::bench::inspect_input_file(p.string());
  EXPECT_EQ(f.count, 100'003);
  std::vector<float> back(x.size());
  rb::bench::read_input_file(f, back.data(), f.count);
  EXPECT_EQ(back, x);
  std::vector<float> part(10);
  rb::bench::read_input_range(f, part.data(), 99'995, 100'003 - 2);
  EXPECT_TRUE(std::equal(part.begin(), part.begin() + 6, x.begin() + 99'995));
  EXPECT_THROW(rb::bench::read_input_file(f, back.data(), f.count + 1), InputError);
}

TEST(HostBuffer, AlignedAndWritable) {
  rb::bench::HostBuffer b(1000);
  ASSERT_NE(b.data(), nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % 64, 0u);
  b.data()[999] = 1.0f;
  rb::bench::HostBuffer moved = std::move(b);
  EXPECT_EQ(moved.data()[999], 1.0f);
  EXPECT_EQ(b.data(), nullptr);
}

TEST(Synthetic, ValuesAreWhatTheyClaim) {
  std::vector<float> x(1000);
  rb::bench::generate(rb::bench::Dist::harmonic, 0, x.data(), 5, 1005);
  EXPECT_EQ(x[0], 1.0f / 6.0f);
  rb::bench::generate(rb::bench::Dist::uniform, 9, x.data(), 0, 1000);
  double mean = 0;
  bool negative = false, positive = false;
  for (float v : x) {
    ASSERT_GE(v, -1.0f);
    ASSERT_LT(v, 1.0f);
    negative |= v < 0;
    positive |= v > 0;
    mean += v / 1000.0;
  }
  EXPECT_TRUE(negative && positive);
  EXPECT_NEAR(mean, 0.0, 0.1);
  std::vector<float> y(1000);
  rb::bench::generate(rb::bench::Dist::uniform, 10, y.data(), 0, 1000);
  EXPECT_NE(x, y) << "the seed must matter";
}

// The exact check's integers: nonzero, |x| <= 8, odd at even i and even at odd i, both signs.
TEST(Synthetic, IntegersAlternateParityAndNeverCancelInPairs) {
  std::vector<float> x(100'001);
  rb::bench::generate(rb::bench::Dist::integers, 3, x.data(), 7, 7 + 100'001);  // starts at odd i = 7
  int negative = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const auto i = static_cast<std::int64_t>(k) + 7;
    const auto v = static_cast<std::int64_t>(x[k]);
    ASSERT_EQ(static_cast<float>(v), x[k]);
    ASSERT_NE(v, 0);
    ASSERT_LE(v < 0 ? -v : v, 8);
    ASSERT_EQ((v < 0 ? -v : v) % 2, i % 2 == 0 ? 1 : 0) << i;
    if (k > 0) {
      ASSERT_NE(x[k] + x[k - 1], 0.0f) << i;  // a dropped pair never cancels
    }
    negative += v < 0;
  }
  EXPECT_NEAR(negative, 50'000, 1'000);
}

// The exact check's data are pinned by their definition: the sign is bit 63 of the hash, the
// magnitude 2 x bits 32-33 + 1 + (i & 1). Written out here with a branch, as the definition reads,
// against the generator's branch-free form; a change of either changes every exact check's data.
TEST(Synthetic, IntegersFollowTheirDefinition) {
  const std::int64_t begin = (std::int64_t{1} << 31) - 50'000, n = 100'000;  // across 2^31
  std::vector<float> x(n);
  rb::bench::generate(rb::bench::Dist::integers, 11, x.data(), begin, begin + n);
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t i = begin + k;
    const std::uint64_t bits = rb::synth::mix(rb::synth::mix(11 ^ 0xB7E151628AED2A6BULL) +
                                              0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(i));
    const auto magnitude = static_cast<float>(2 * ((bits >> 32) & 3u) + 1 + static_cast<std::uint64_t>(i & 1));
    const float want = (bits >> 63) != 0 ? -magnitude : magnitude;
    ASSERT_EQ(x[static_cast<std::size_t>(k)], want) << i;
  }
}

TEST(Synthetic, NormalHasUnitVariance) {
  const std::int64_t n = 1 << 20;
  std::vector<float> x(n);
  rb::bench::generate(rb::bench::Dist::normal, 3, x.data(), 0, n);
  double mean = 0, var = 0;
  for (float v : x) {
    ASSERT_LE(std::fabs(v), 3.4642f);
    mean += v;
  }
  mean /= n;
  for (float v : x) var += (v - mean) * (v - mean);
  var /= n;
  EXPECT_NEAR(mean, 0.0, 0.01);
  EXPECT_NEAR(var, 1.0, 0.01);
}

}  // namespace
