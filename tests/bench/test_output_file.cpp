// bench/detail/output_file.hpp: the --benchmark_out temporary checked, renamed or copied, and removed in
// every case. tests/bench/output_file_run.py runs reduce_bench itself (two writers, two signals).
#include "bench/detail/output_file.hpp"

#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "bench/detail/interrupt.hpp"

namespace {

using namespace rb::bench;

const std::string kWhole = "{\n  \"context\": {},\n  \"benchmarks\": [\n    {\"name\": \"a\"}\n  ]\n}\n";
const std::string kCutOff = "{\n  \"context\": {},\n  \"benchmarks\": [\n    {\"name\": \"a\"}";

// A fresh directory, emptied and removed at the end (POSIX calls only: see tests/bench/CMakeLists.txt).
struct TempDir {
  std::string path;
  TempDir() {
    std::string tmpl = "/tmp/rb_output_file_XXXXXX";
    path = ::mkdtemp(tmpl.data()) ? tmpl : "";
  }
  ~TempDir() {
    for (const auto& e : entries()) ::unlink((path + "/" + e).c_str());
    ::rmdir(path.c_str());
  }
  std::set<std::string> entries() const {
    std::set<std::string> names;
    if (DIR* d = ::opendir(path.c_str())) {
      while (const dirent* e = ::readdir(d)) {
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.insert(e->d_name);
      }
      ::closedir(d);
    }
    return names;
  }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
};

void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

// The arguments as main() hands them over; `ptrs` is what redirect() rewrites.
struct Args {
  std::vector<std::string> owned;
  std::vector<char*> ptrs;
  explicit Args(std::vector<std::string> a) : owned(std::move(a)) {
    for (auto& s : owned) ptrs.push_back(s.data());
  }
};

// redirect() for `target`, then what Google Benchmark would write into the temporary.
void run_into(OutputFile& out, const std::string& target, const std::string& text, const char* format = "json") {
  Args args({"reduce_bench", "--benchmark_out=" + target, std::string("--benchmark_out_format=") + format});
  ASSERT_EQ(out.redirect(args.ptrs), "");
  ASSERT_EQ(std::string(args.ptrs[1]), "--benchmark_out=" + out.temporary());
  ASSERT_TRUE(exists(out.temporary()));
  write_file(out.temporary(), text);
}

// `check(dir, earlier)` over a directory that holds an earlier out.json, then over an empty one.
template <class Check>
void with_and_without_earlier_file(Check check) {
  for (const bool earlier : {true, false}) {
    TempDir dir;
    if (earlier) write_file(dir / "out.json", "earlier");
    check(dir, earlier);
  }
}

TEST(OutputFile, WholeJsonIsRenamedIntoPlace) {
  TempDir dir;
  OutputFile out;
  run_into(out, dir / "out.json", kWhole);
  EXPECT_EQ(out.temporary().rfind(dir / ".out.json.", 0), 0u) << "beside the target: " << out.temporary();
  testing::internal::CaptureStderr();
  EXPECT_TRUE(out.commit());
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(read_file(dir / "out.json"), kWhole);
  EXPECT_EQ(dir.entries(), std::set<std::string>{"out.json"});
}

TEST(OutputFile, AnEarlierFileIsReplacedAndKeepsItsMode) {
  TempDir dir;
  write_file(dir / "out.json", "earlier");
  ::chmod((dir / "out.json").c_str(), 0640);
  OutputFile out;
  run_into(out, dir / "out.json", kWhole);
  testing::internal::CaptureStderr();
  EXPECT_TRUE(out.commit());
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "") << "no other writer: no warning";
  EXPECT_EQ(read_file(dir / "out.json"), kWhole);
  struct stat st {};
  ASSERT_EQ(::stat((dir / "out.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(dir.entries(), std::set<std::string>{"out.json"});
}

TEST(OutputFile, CutOffJsonIsRefusedAndTheTargetLeftAsItWas) {
  with_and_without_earlier_file([](const TempDir& dir, bool earlier) {
    OutputFile out;
    run_into(out, dir / "out.json", kCutOff);
    testing::internal::CaptureStderr();
    EXPECT_FALSE(out.commit());
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(err.rfind("reduce_bench: cannot write " + (dir / "out.json") + ": the JSON is cut off", 0), 0u) << err;
    EXPECT_EQ(err.find('\n'), err.size() - 1) << "one line: " << err;
    EXPECT_EQ(dir.entries(), earlier ? std::set<std::string>{"out.json"} : std::set<std::string>{});
    EXPECT_EQ(earlier ? read_file(dir / "out.json") : "earlier", "earlier");
  });
}

TEST(OutputFile, IncompleteByFormat) {
  TempDir dir;
  const auto check = [&](const std::string& text, const std::string& format) {
    write_file(dir / "f", text);
    const int fd = ::open((dir / "f").c_str(), O_RDONLY);
    std::string why = incomplete(fd, format);
    ::close(fd);
    return why;
  };
  EXPECT_EQ(check(kWhole, "json"), "");
  EXPECT_NE(check(kCutOff, "json"), "");
  EXPECT_NE(check(kCutOff + "\n  ]\n", "json"), "");
  EXPECT_NE(check("\n  ]\n}\n", "json"), "") << "closing lines without the opening brace";
  EXPECT_EQ(check("", "json"), "nothing was written");
  EXPECT_EQ(check("name,iterations\n\"a\",1\n", "csv"), "");
  EXPECT_NE(check("name,iterations\n\"a\",1", "csv"), "");
  EXPECT_NE(check("", "console"), "");
}

TEST(OutputFile, CutOffCsvIsRefused) {
  TempDir dir;
  OutputFile out;
  run_into(out, dir / "out.csv", "name,iterations\n\"a\",", "csv");
  testing::internal::CaptureStderr();
  EXPECT_FALSE(out.commit());
  EXPECT_NE(testing::internal::GetCapturedStderr().find("cannot write " + (dir / "out.csv") + ": the last line"),
            std::string::npos);
  EXPECT_EQ(dir.entries(), std::set<std::string>{});
}

TEST(OutputFile, DevFullIsAWriteError) {
  if (!exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  TempDir dir;
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old ? old : "";
  ::setenv("TMPDIR", dir.path.c_str(), 1);  // where the temporary of a device goes
  OutputFile out;
  run_into(out, "/dev/full", kWhole);
  old ? ::setenv("TMPDIR", saved.c_str(), 1) : ::unsetenv("TMPDIR");
  EXPECT_EQ(out.temporary().rfind(dir / ".full.", 0), 0u) << out.temporary();
  testing::internal::CaptureStderr();
  EXPECT_FALSE(out.commit());
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "reduce_bench: cannot write /dev/full: write: " +
                                                        std::string(std::strerror(ENOSPC)) + "\n");
  EXPECT_EQ(dir.entries(), std::set<std::string>{});
}

TEST(OutputFile, AnotherWriterIsReportedAndThisRunKept) {
  with_and_without_earlier_file([](const TempDir& dir, bool) {
    OutputFile out;
    run_into(out, dir / "out.json", kWhole);
    // The other process's whole file, renamed into place while this run went on.
    write_file(dir / "other", "the other run's");
    ASSERT_EQ(::rename((dir / "other").c_str(), (dir / "out.json").c_str()), 0);
    testing::internal::CaptureStderr();
    EXPECT_TRUE(out.commit());
    EXPECT_EQ(testing::internal::GetCapturedStderr(),
              "reduce_bench: warning: " + (dir / "out.json") +
                  " was written by another process during this run; it now holds this run's results\n");
    EXPECT_EQ(read_file(dir / "out.json"), kWhole);
    EXPECT_EQ(dir.entries(), std::set<std::string>{"out.json"});
  });
}

TEST(OutputFile, IdentityChangesWithEveryWrite) {
  TempDir dir;
  EXPECT_FALSE(identify(dir / "x").exists);
  write_file(dir / "x", "one");
  const FileIdentity first = identify(dir / "x");
  EXPECT_TRUE(first.exists);
  EXPECT_EQ(identify(dir / "x"), first);
  write_file(dir / "x", "three");  // same inode, another size
  EXPECT_NE(identify(dir / "x"), first);
}

TEST(OutputFile, DiscardAndDestructionRemoveTheTemporary) {
  TempDir dir;
  write_file(dir / "out.json", "earlier");
  {
    OutputFile out;
    run_into(out, dir / "out.json", kWhole);
    out.discard();
    EXPECT_FALSE(exists(out.temporary()));
    EXPECT_TRUE(out.commit()) << "nothing left to write";
  }
  std::string temp;
  {
    OutputFile out;
    run_into(out, dir / "out.json", kWhole);
    temp = out.temporary();
  }
  EXPECT_FALSE(exists(temp));
  EXPECT_EQ(dir.entries(), std::set<std::string>{"out.json"});
  EXPECT_EQ(read_file(dir / "out.json"), "earlier");
}

TEST(OutputFile, WithoutTheFlagNothingIsDone) {
  ::unsetenv("BENCHMARK_OUT");
  Args args({"reduce_bench", "--benchmark_out_format=json", "--sizes=1"});
  const std::vector<char*> before = args.ptrs;
  OutputFile out;
  EXPECT_EQ(out.redirect(args.ptrs), "");
  EXPECT_EQ(args.ptrs, before);
  EXPECT_EQ(out.temporary(), "");
  EXPECT_TRUE(out.commit());
}

TEST(OutputFile, TheLastFlagOrTheEnvironmentNamesTheFile) {
  TempDir dir;
  {
    Args args({"reduce_bench", "--benchmark_out=" + (dir / "first.json"), "--benchmark_out=" + (dir / "last.json")});
    OutputFile out;
    ASSERT_EQ(out.redirect(args.ptrs), "");
    EXPECT_EQ(out.target(), dir / "last.json");
    EXPECT_EQ(std::string(args.ptrs[2]), "--benchmark_out=" + out.temporary());
  }
  ::setenv("BENCHMARK_OUT", (dir / "env.json").c_str(), 1);
  Args args({"reduce_bench"});
  OutputFile out;
  EXPECT_EQ(out.redirect(args.ptrs), "");
  ::unsetenv("BENCHMARK_OUT");
  ASSERT_EQ(args.ptrs.size(), 2u) << "a flag added: it overrides the variable";
  EXPECT_EQ(std::string(args.ptrs[1]), "--benchmark_out=" + out.temporary());
  EXPECT_EQ(out.temporary().rfind(dir / ".env.json.", 0), 0u);
}

TEST(OutputFile, NoTemporaryIsAUsageError) {
  TempDir dir;
  write_file(dir / "file", "");
  Args args({"reduce_bench", "--benchmark_out=" + (dir / "file") + "/out.json"});
  const std::vector<char*> before = args.ptrs;
  OutputFile out;
  const std::string why = out.redirect(args.ptrs);
  const std::string want =
      "cannot write --benchmark_out file '" + (dir / "file") + "/out.json': cannot create a temporary in ";
  EXPECT_EQ(why.rfind(want, 0), 0u) << why;
  EXPECT_EQ(args.ptrs, before);
  EXPECT_EQ(dir.entries(), std::set<std::string>{"file"});
}

// In a signal test's child process: the handlers installed, `out` redirected to dir/out.json
// (exit 10 where it cannot be) and set to act on a second signal.
void arm_for_signals(OutputFile& out, const TempDir& dir) {
  install_interrupt_handlers();
  Args args({"reduce_bench", "--benchmark_out=" + (dir / "out.json")});
  if (!out.redirect(args.ptrs).empty()) std::_Exit(10);
  out.remove_on_second_signal();
}

// In a child process (the handlers are process-wide): the first signal leaves the temporary to
// the run, the second removes it and kills.
TEST(OutputFile, SecondSignalRemovesTheTemporary) {
  TempDir dir;
  for (const int second : {SIGINT, SIGTERM}) {
    EXPECT_EXIT(
        {
          OutputFile out;
          arm_for_signals(out, dir);
          std::raise(SIGINT);
          if (!interrupted() || !exists(out.temporary())) std::_Exit(11);
          std::raise(second);
          std::_Exit(12);
        },
        testing::KilledBySignal(second), "SIGINT: ending the current benchmark");
    EXPECT_EQ(dir.entries(), std::set<std::string>{});
  }
}

// The rows reported before a second signal are kept: the JSON closed after the last whole row,
// in place of the earlier file; a row being written when the signal came is not in it.
TEST(OutputFile, SecondSignalKeepsTheRowsReported) {
  TempDir dir;
  write_file(dir / "out.json", "earlier");
  EXPECT_EXIT(
      {
        OutputFile out;
        arm_for_signals(out, dir);
        benchmark::JSONReporter json;
        const auto saving = out.saving_rows(&json);
        std::ofstream file(out.temporary());
        saving->SetOutputStream(&file);
        saving->SetErrorStream(&file);
        saving->ReportContext(benchmark::BenchmarkReporter::Context());
        benchmark::BenchmarkReporter::Run row;
        row.run_name.function_name = "finished_row";
        row.iterations = 1;
        saving->ReportRuns({row});
        file << ",\n    {\n      \"name\": \"row_being_written";
        file.flush();
        std::raise(SIGINT);
        std::raise(SIGINT);
        std::_Exit(12);
      },
      testing::KilledBySignal(SIGINT), "second SIGINT: stopped; .*out.json holds the rows finished before it");
  EXPECT_EQ(dir.entries(), std::set<std::string>{"out.json"});
  const std::string saved = read_file(dir / "out.json");
  EXPECT_NE(saved.find("\"name\": \"finished_row\""), std::string::npos) << saved;
  EXPECT_EQ(saved.find("row_being_written"), std::string::npos) << saved;
  const int fd = ::open((dir / "out.json").c_str(), O_RDONLY);
  EXPECT_EQ(incomplete(fd, "json"), "") << saved;
  ::close(fd);
  EXPECT_TRUE(saved.ends_with("    }\n  ]\n}\n")) << saved;
}

// Before any row was reported the earlier file stays as it was.
TEST(OutputFile, SecondSignalBeforeAnyRowLeavesTheFile) {
  TempDir dir;
  write_file(dir / "out.json", "earlier");
  EXPECT_EXIT(
      {
        OutputFile out;
        arm_for_signals(out, dir);
        write_file(out.temporary(), "{\n  \"context\": {},\n  \"benchmarks\": [\n");
        std::raise(SIGINT);
        std::raise(SIGTERM);
        std::_Exit(12);
      },
      testing::KilledBySignal(SIGTERM), "second SIGTERM: stopped; .*out.json left as it was");
  EXPECT_EQ(dir.entries(), std::set<std::string>{"out.json"});
  EXPECT_EQ(read_file(dir / "out.json"), "earlier");
}

// A signal during start-up, before install_interrupt_handlers(), kills as it would have (the
// default action) but removes the temporary first. A mask that held the signals (as a process
// under --processes starts) is kept: the signal waits for it, then kills as cleanly.
TEST(OutputFile, ASignalDuringStartUpRemovesTheTemporary) {
  TempDir dir;
  write_file(dir / "out.json", "earlier");
  for (const bool held : {false, true}) {
    EXPECT_EXIT(
        {
          std::signal(SIGINT, SIG_DFL);
          const sigset_t stops = interrupt_signals();
          pthread_sigmask(held ? SIG_BLOCK : SIG_UNBLOCK, &stops, nullptr);
          OutputFile out;
          Args args({"reduce_bench", "--benchmark_out=" + (dir / "out.json")});
          if (!out.redirect(args.ptrs).empty() || !exists(out.temporary())) std::_Exit(10);
          sigset_t now;
          pthread_sigmask(SIG_BLOCK, nullptr, &now);
          if (sigismember(&now, SIGINT) != (held ? 1 : 0)) std::_Exit(11);
          std::raise(SIGINT);
          if (!held) std::_Exit(12);
          pthread_sigmask(SIG_UNBLOCK, &stops, nullptr);
          std::_Exit(13);
        },
        testing::KilledBySignal(SIGINT), "reduce_bench: SIGINT: stopped; .*out.json left as it was")
        << (held ? "held" : "not held");
    EXPECT_EQ(dir.entries(), std::set<std::string>{"out.json"});
    EXPECT_EQ(read_file(dir / "out.json"), "earlier");
  }
}

// An action set before (the --processes parent passes signals on; here SIGINT ignored) is kept.
TEST(OutputFile, AnActionSetBeforeIsLeftAlone) {
  TempDir dir;
  EXPECT_EXIT(
      {
        std::signal(SIGINT, SIG_IGN);
        std::signal(SIGTERM, SIG_DFL);
        OutputFile out;
        Args args({"reduce_bench", "--benchmark_out=" + (dir / "out.json")});
        if (!out.redirect(args.ptrs).empty()) std::_Exit(10);
        struct sigaction now {};
        sigaction(SIGINT, nullptr, &now);
        if (now.sa_handler != SIG_IGN) std::_Exit(11);
        std::raise(SIGINT);
        std::raise(SIGTERM);
        std::_Exit(12);
      },
      testing::KilledBySignal(SIGTERM), "reduce_bench: SIGTERM: stopped; .*out.json left as it was");
  EXPECT_EQ(dir.entries(), std::set<std::string>{});
}

// In a child process: SIGINT and SIGTERM sent back to back, taken by two spinning threads at once
// (the main thread blocks both), as a process whose threads all take them may.
[[noreturn]] void two_signals_in_two_threads(const TempDir& dir) {
  OutputFile out;
  arm_for_signals(out, dir);
  const sigset_t both = interrupt_signals();
  pthread_sigmask(SIG_BLOCK, &both, nullptr);
  std::atomic<int> ready{0};
  const auto spin = [&] {
    pthread_sigmask(SIG_UNBLOCK, &both, nullptr);
    ready.fetch_add(1);
    for (;;) std::this_thread::yield();
  };
  std::thread a(spin), b(spin);
  while (ready.load() < 2) std::this_thread::yield();
  ::kill(::getpid(), SIGINT);
  ::kill(::getpid(), SIGTERM);
  std::this_thread::sleep_for(std::chrono::seconds(5));
  std::_Exit(12);
}

// The first signal must not open a window in which the second finds the default action and kills
// without cleaning up, nor may both count as the first. Many tries: the window is narrow.
TEST(OutputFile, TwoSignalsAtOnceInTwoThreadsStillClean) {
  TempDir dir;
  write_file(dir / "out.json", "earlier");
  const auto killed_by_either = [](int status) {
    return WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM);
  };
  for (int i = 0; i < 100; ++i) {
    EXPECT_EXIT(two_signals_in_two_threads(dir), killed_by_either,
                "second SIG(INT|TERM): stopped; .*out.json left as it was")
        << "try " << i;
    ASSERT_EQ(dir.entries(), std::set<std::string>{"out.json"}) << "try " << i;
    ASSERT_EQ(read_file(dir / "out.json"), "earlier");
  }
}

}  // namespace
