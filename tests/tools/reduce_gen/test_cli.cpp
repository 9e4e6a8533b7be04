// Runs the reduce_gen executable and reads its files back through the bench's own --input reader,
// so "a reduce_gen file equals reduce_bench's --dist=uniform --seed=S input" is checked end to end.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bench/detail/input.hpp"
#include "tools/reduce_gen/writer.hpp"

namespace {

namespace fs = std::filesystem;

struct Result {
  int status = -1;
  std::string output;  // stdout and stderr
};

Result run(const std::string& args) {
  const std::string cmd = std::string("'") + RB_REDUCE_GEN_EXE + "' " + args + " 2>&1";
  Result r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  while (const auto got = std::fread(buf.data(), 1, buf.size(), p)) r.output.append(buf.data(), got);
  const int raw = ::pclose(p);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

class ReduceGenCli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "reduce_gen_test_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

// Single-quoted for the shell. Built by appending: GCC 12 warns (-Wrestrict, PR105329) on
// "'" + std::string, which inserts at the front.
std::string q(const std::string& s) {
  std::string r;
  r += '\'';
  r += s;
  r += '\'';
  return r;
}

std::vector<float> read_back(const std::string& file, std::int64_t expect_n) {
  const auto f = rb::bench::inspect_input_file(file);
  EXPECT_EQ(f.count, expect_n);
  std::vector<float> v(static_cast<std::size_t>(f.count));
  rb::bench::read_input_file(f, v.data(), f.count);
  return v;
}

std::vector<float> bench_values(rb::bench::Dist d, std::uint64_t seed, std::int64_t n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  rb::bench::generate(d, seed, v.data(), 0, n);
  return v;
}

std::string bytes_of(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

::testing::AssertionResult bitwise_equal(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return ::testing::AssertionFailure() << a.size() << " vs " << b.size() << " values";
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::bit_cast<std::uint32_t>(a[i]) != std::bit_cast<std::uint32_t>(b[i])) {
      return ::testing::AssertionFailure() << "differ at " << i << ": " << a[i] << " vs " << b[i];
    }
  }
  return ::testing::AssertionSuccess();
}

TEST_F(ReduceGenCli, UniformFileIsTheBenchInput) {
  // Two chunks and a bit: crosses the writer's chunk and double-buffer boundaries.
  const std::int64_t n = 2 * rb::gen::kChunkValues + 3;
  const auto r = run(q(path("u.bin")) + " -n " + std::to_string(n) + " --seed 1234 --dist uniform");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(fs::file_size(path("u.bin")), static_cast<std::uintmax_t>(4 * n));
  EXPECT_TRUE(bitwise_equal(read_back(path("u.bin"), n), bench_values(rb::bench::Dist::uniform, 1234, n)));
}

TEST_F(ReduceGenCli, HarmonicFileIsTheBenchInput) {
  const auto r = run(q(path("h.bin")) + " -n 1e4 --dist=harmonic");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(bitwise_equal(read_back(path("h.bin"), 10'000), bench_values(rb::bench::Dist::harmonic, 0, 10'000)));
}

TEST_F(ReduceGenCli, DefaultsAreUniformSeed42) {
  ASSERT_EQ(run(q(path("d.bin")) + " -n 2^10").status, 0);
  EXPECT_TRUE(bitwise_equal(read_back(path("d.bin"), 1024), bench_values(rb::bench::Dist::uniform, 42, 1024)));
}

TEST_F(ReduceGenCli, SizeIsFourBytesPerValue) {
  for (const std::int64_t n : {1, 31, 1000}) {
    ASSERT_EQ(run(q(path("s.bin")) + " -n " + std::to_string(n)).status, 0);
    EXPECT_EQ(fs::file_size(path("s.bin")), static_cast<std::uintmax_t>(4 * n));
  }
}

TEST_F(ReduceGenCli, NormalIsDeterministicAndPrefixStable) {
  ASSERT_EQ(run(q(path("a.bin")) + " -n 5000 --seed 9 --dist normal").status, 0);
  ASSERT_EQ(run(q(path("b.bin")) + " -n 5000 --seed 9 --dist normal").status, 0);
  ASSERT_EQ(run(q(path("c.bin")) + " -n 5000 --seed 10 --dist normal").status, 0);
  ASSERT_EQ(run(q(path("p.bin")) + " -n 1000 --seed 9 --dist normal").status, 0);
  EXPECT_EQ(bytes_of(path("a.bin")), bytes_of(path("b.bin")));
  EXPECT_NE(bytes_of(path("a.bin")), bytes_of(path("c.bin")));
  EXPECT_EQ(bytes_of(path("a.bin")).substr(0, 4000), bytes_of(path("p.bin")));
}

TEST_F(ReduceGenCli, OverwritesALongerFile) {
  ASSERT_EQ(run(q(path("o.bin")) + " -n 1000").status, 0);
  ASSERT_EQ(run(q(path("o.bin")) + " -n 10").status, 0);
  EXPECT_EQ(fs::file_size(path("o.bin")), 40u);
}

TEST_F(ReduceGenCli, SmallFilesAreQuiet) {
  const auto r = run(q(path("q.bin")) + " -n 1000");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.output, "");
}

void expect_failure(const Result& r, int status, const std::string& fragment) {
  EXPECT_EQ(r.status, status) << r.output;
  EXPECT_NE(r.output.find(fragment), std::string::npos) << r.output;
}

TEST_F(ReduceGenCli, BadArgumentsExitTwoWithAMessage) {
  const std::string out = q(path("bad.bin"));
  expect_failure(run(""), 2, "missing the output file");
  expect_failure(run(out), 2, "missing -n");
  expect_failure(run(out + " -n -5"), 2, "invalid size '-5'");
  expect_failure(run(out + " -n 1x"), 2, "invalid size '1x'");
  expect_failure(run(out + " -n 10 --dist gaussian"), 2, "invalid --dist 'gaussian'");
  expect_failure(run(out + " -n 10 --frobnicate"), 2, "unknown flag '--frobnicate'");
  expect_failure(run(out + " -n 10 --seed x"), 2, "invalid --seed 'x'");
  EXPECT_FALSE(fs::exists(path("bad.bin")));
}

TEST_F(ReduceGenCli, UnwritablePathExitsOne) {
  expect_failure(run(q(path("no/such/dir/x.bin")) + " -n 10"), 1, "cannot open for writing");
  expect_failure(run(q(dir_.string()) + " -n 10"), 1, "cannot open for writing");
  if (::geteuid() != 0) {  // root writes through permissions
    fs::create_directory(path("ro"));
    fs::permissions(path("ro"), fs::perms::owner_read | fs::perms::owner_exec);
    expect_failure(run(q(path("ro/x.bin")) + " -n 10"), 1, "Permission denied");
    fs::permissions(path("ro"), fs::perms::owner_all);
  }
}

TEST_F(ReduceGenCli, NoSpaceFailsBeforeWriting) {
  // 2^48 values (1 PiB) is the largest n the bench accepts; no test machine has the room.
  expect_failure(run(q(path("huge.bin")) + " -n 2^48"), 1, "free");
  EXPECT_FALSE(fs::exists(path("huge.bin")));
}

TEST_F(ReduceGenCli, Help) {
  const auto r = run("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.output.find("usage: reduce_gen"), std::string::npos);
}

}  // namespace
