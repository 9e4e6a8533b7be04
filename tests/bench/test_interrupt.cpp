// bench/detail/interrupt.hpp: the signal handlers (in child processes: a signal sets process-wide
// state) and the --benchmark_out probe. tests/bench/interrupt_run.py runs reduce_bench itself.
#include "bench/detail/interrupt.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bench/detail/session.hpp"

namespace {

using namespace rb::bench;
namespace fs = std::filesystem;

bool default_action(int sig) {
  struct sigaction now {};
  sigaction(sig, nullptr, &now);
  return now.sa_handler == SIG_DFL;
}

TEST(Interrupt, FirstSignalSetsTheFlagAndRestoresTheDefaults) {
  for (const int sig : {SIGINT, SIGTERM}) {
    EXPECT_EXIT(
        {
          install_interrupt_handlers();
          if (interrupted() || default_action(SIGINT) || default_action(SIGTERM)) std::_Exit(10);
          std::raise(sig);
          if (!interrupted() || interrupt_signal() != sig) std::_Exit(11);
          // The second signal, of either kind, finds the default action: it kills.
          if (!default_action(SIGINT) || !default_action(SIGTERM)) std::_Exit(12);
          std::_Exit(0);
        },
        testing::ExitedWithCode(0), sig == SIGINT ? "SIGINT: ending the current benchmark" : "SIGTERM: ending");
  }
}

TEST(Interrupt, SecondSignalKills) {
  for (const int first : {SIGINT, SIGTERM}) {
    EXPECT_EXIT(
        {
          install_interrupt_handlers();
          std::raise(first);
          std::raise(SIGTERM);
          std::_Exit(0);
        },
        testing::KilledBySignal(SIGTERM), "");
  }
}

TEST(Interrupt, ClosingLineAndStatus) {
  EXPECT_EQ(finish_interrupted(kExitOk), kExitOk) << "no signal: the status as it was";
  EXPECT_EQ(finish_interrupted(kExitFailed), kExitFailed);
  EXPECT_EXIT(
      {
        install_interrupt_handlers();
        std::raise(SIGINT);
        std::_Exit(finish_interrupted(kExitOk));
      },
      testing::ExitedWithCode(kExitInterrupted), "interrupted by SIGINT: 0 benchmarks not run");
  // A failure found before the signal stays the run's verdict.
  EXPECT_EXIT(
      {
        install_interrupt_handlers();
        std::raise(SIGTERM);
        std::_Exit(finish_interrupted(kExitFailed));
      },
      testing::ExitedWithCode(kExitFailed), "interrupted by SIGTERM");
}

class Output : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rb_interrupt_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    fs::permissions(dir_, fs::perms::owner_all);
    fs::remove_all(dir_);
  }
  std::string probe(const std::string& path) {
    std::string arg = "--benchmark_out=" + path, prog = "reduce_bench";
    return unwritable_output({prog.data(), arg.data()});
  }
  fs::path dir_;
};

TEST_F(Output, NoneAskedForIsFine) {
  std::string prog = "reduce_bench", other = "--benchmark_out_format=json";
  ::unsetenv("BENCHMARK_OUT");
  EXPECT_EQ(unwritable_output({prog.data(), other.data()}), "");
}

TEST_F(Output, MissingDirectoryAndDirectoryAreRefused) {
  const std::string why = probe("/nonexistent/dir/x.json");
  EXPECT_NE(why.find("'/nonexistent/dir/x.json'"), std::string::npos) << why;
  EXPECT_NE(why.find("No such file or directory"), std::string::npos) << why;
  EXPECT_NE(probe(dir_.string()).find("Is a directory"), std::string::npos);
}

TEST_F(Output, ReadOnlyIsRefused) {
  // Root writes through a directory's mode bits: a read-only place for it is /sys.
  if (::geteuid() == 0) {
    EXPECT_NE(probe("/sys/rb_probe.json"), "");
    return;
  }
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_NE(probe((dir_ / "x.json").string()).find("Permission denied"), std::string::npos);
  fs::permissions(dir_, fs::perms::owner_all);
  std::ofstream(dir_ / "ro.json") << "{}";
  fs::permissions(dir_ / "ro.json", fs::perms::owner_read);
  EXPECT_NE(probe((dir_ / "ro.json").string()).find("Permission denied"), std::string::npos);
}

TEST_F(Output, TheProbeChangesNothing) {
  const fs::path fresh = dir_ / "new.json";
  EXPECT_EQ(probe(fresh.string()), "");
  EXPECT_FALSE(fs::exists(fresh)) << "a file the probe created is removed again";
  const fs::path kept = dir_ / "old.json";
  std::ofstream(kept) << "{\"kept\": 1}";
  EXPECT_EQ(probe(kept.string()), "");
  std::ifstream in(kept);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "{\"kept\": 1}") << "not truncated";
  EXPECT_EQ(probe("/dev/null"), "");
}

TEST_F(Output, TheLastFlagThenTheEnvironmentDecide) {
  std::string prog = "reduce_bench", bad = "--benchmark_out=/nonexistent/a.json",
              good = "--benchmark_out=" + (dir_ / "b.json").string();
  EXPECT_EQ(unwritable_output({prog.data(), bad.data(), good.data()}), "");
  EXPECT_NE(unwritable_output({prog.data(), good.data(), bad.data()}), "");
  ::setenv("BENCHMARK_OUT", "/nonexistent/env.json", 1);
  EXPECT_NE(unwritable_output({prog.data()}).find("/nonexistent/env.json"), std::string::npos);
  EXPECT_EQ(unwritable_output({prog.data(), good.data()}), "") << "the flag overrides the environment";
  ::unsetenv("BENCHMARK_OUT");
}

}  // namespace
