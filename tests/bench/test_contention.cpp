// Other processes' load during a row (bench/detail/contention.hpp): the /proc parsing on fixed text, a
// window with a spinning child process, a quiet one, and a CPU row through the harness with one.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <thread>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/detail/contention.hpp"
#include "bench/api/cpu_backend.hpp"
#include "kernels/cpu/accumulate.hpp"
#include "tests/support/run_cases.hpp"

namespace {

using namespace rb::bench;

// cpu0 and cpu3 change the most, outside the mask {1, 2}; over one second at 100 Hz, cpu1 adds 95
// busy jiffies (3 of them steal), cpu2 65, and the process 110 of its own: 50 jiffies of others.
constexpr const char* kStatBefore =
    "cpu  900 10 170 3600 5 2 3 1 0 0\n"
    "cpu0 100 0 50 1000 0 0 0 0 0 0\n"
    "cpu1 200 10 30 900 5 2 3 1 0 0\n"
    "cpu2 300 0 40 800 0 0 0 0 0 0\n"
    "cpu3 300 0 50 900 0 0 0 0 0 0\n"
    "intr 5029753 0 0\nctxt 53315066\n";
constexpr const char* kStatAfter =
    "cpu  1240 10 275 3650 10 3 4 4 0 0\n"
    "cpu0 200 0 80 1000 0 0 0 0 0 0\n"
    "cpu1 280 10 40 905 10 3 4 4 0 0\n"
    "cpu2 360 0 45 835 0 0 0 0 0 0\n"
    "cpu3 400 0 110 910 0 0 0 0 0 0\n"
    "intr 5029999 0 0\nctxt 53315099\n";
// A comm with spaces and parentheses; utime and stime are fields 14 and 15.
constexpr const char* kSelfBefore = "4242 (we (ird) name) R 1 2 3 4 5 6 7 8 9 10 1000 200 0 0 20 0 3 0 99\n";
constexpr const char* kSelfAfter = "4242 (we (ird) name) R 1 2 3 4 5 6 7 8 9 10 1050 260 0 0 20 0 3 0 99\n";

TEST(Contention, ParsesProcStatOverTheMaskAndSubtractsItsOwnTime) {
  const std::vector<int> mask{1, 2};
  const auto before = parse_proc_stat(kStatBefore, mask), after = parse_proc_stat(kStatAfter, mask);
  ASSERT_TRUE(before && after);
  EXPECT_EQ(before->busy, 200 + 10 + 30 + 2 + 3 + 1 + 300 + 40);
  EXPECT_EQ(after->busy - before->busy, 95 + 65);
  EXPECT_EQ(after->steal - before->steal, 3);
  const auto own_before = parse_self_stat(kSelfBefore), own_after = parse_self_stat(kSelfAfter);
  ASSERT_TRUE(own_before && own_after);
  EXPECT_EQ(*own_before, 1200);
  EXPECT_EQ(*own_after - *own_before, 110);

  const LoadSnapshot a{*before, *own_before, 10.0}, b{*after, *own_after, 11.0};
  const Contention c = contention_between(a, b, 100, 2);
  ASSERT_TRUE(c.measured());
  EXPECT_NEAR(c.load_other, 0.5, 1e-12);
  EXPECT_NEAR(c.steal, 0.03, 1e-12);
  EXPECT_NEAR(c.resolution, 0.03, 1e-12);  // 2 busy CPUs and the own time: 3 jiffies of 100
  EXPECT_TRUE(c.contended);

  // The aggregate line when the mask is unknown: 440 busy jiffies, 110 of them the process's.
  const auto all_before = parse_proc_stat(kStatBefore, {}), all_after = parse_proc_stat(kStatAfter, {});
  ASSERT_TRUE(all_before && all_after);
  EXPECT_EQ(all_after->busy - all_before->busy, 340 + 105 + 1 + 1 + 3);
  EXPECT_NEAR(contention_between({*all_before, 1200, 0}, {*all_after, 1310, 1}, 100, 4).load_other, 3.4, 1e-12);
}

TEST(Contention, ShortWindowsAndOwnTimeBeyondTheBusyOnesFlagNothing) {
  // The same deltas scaled to 50 ms (5 jiffies a CPU): 0.4 cores of others, under a rounding bound
  // of 3 jiffies in 5.
  const Contention short_one = contention_between({{0, 0}, 0, 0}, {{8, 0}, 6, 0.05}, 100, 2);
  EXPECT_NEAR(short_one.load_other, 0.4, 1e-12);
  EXPECT_NEAR(short_one.resolution, 0.6, 1e-12);
  EXPECT_FALSE(short_one.contended);
  // The process's own time, truncated differently, may exceed the busy jiffies: 0, not negative.
  const Contention none = contention_between({{100, 0}, 0, 0}, {{120, 0}, 21, 0.2}, 100, 2);
  EXPECT_EQ(none.load_other, 0);
  EXPECT_FALSE(none.contended);
  // No window, or no clock: nothing measured.
  EXPECT_FALSE(contention_between({{0, 0}, 0, 1}, {{8, 0}, 6, 1}, 100, 2).measured());
  EXPECT_FALSE(contention_between({{0, 0}, 0, 0}, {{8, 0}, 6, 1}, 0, 2).measured());
}

TEST(Contention, MalformedTextIsNoReading) {
  EXPECT_FALSE(parse_proc_stat("", {}));
  EXPECT_FALSE(parse_proc_stat("intr 1 2 3\n", {}));
  EXPECT_FALSE(parse_proc_stat("cpu  1 2 x 4 5 6 7 8\n", {}));
  EXPECT_FALSE(parse_proc_stat("cpu0 1 2 3 4 5 6 7 8\n", {5}));  // no line of the mask
  EXPECT_FALSE(parse_self_stat("4242 no parenthesis R 1 2"));
  EXPECT_FALSE(parse_self_stat("4242 (short) R 1 2 3"));
}

bool have_proc() { return std::ifstream("/proc/stat").good() && std::ifstream("/proc/self/stat").good(); }

// A child process that spins on a CPU of this process's mask until destroyed.
class BusyChild {
 public:
  BusyChild() : pid_(fork()) {
    if (pid_ == 0) {
      volatile unsigned long spin = 0;  // a side effect: the loop may not be optimized away
      for (;;) spin = spin + 1;
    }
  }
  ~BusyChild() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  bool started() const { return pid_ > 0; }

 private:
  pid_t pid_;
};

TEST(Contention, ASpinningChildProcessIsOtherLoad) {
  if (!have_proc()) GTEST_SKIP() << "no /proc/stat here: nothing is measured";
  const BusyChild child;
  ASSERT_TRUE(child.started());
  const LoadWatch watch;
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const Contention c = watch.read();
  ASSERT_TRUE(c.measured());
  EXPECT_GE(c.load_other, 0.5) << "the child spun for the whole window";
  EXPECT_TRUE(c.contended) << "load_other " << c.load_other << ", resolution " << c.resolution;
  EXPECT_NEAR(c.seconds, 0.3, 0.2);
}

TEST(Contention, AShortWindowIsWidenedToTheReadingsBeforeIt) {
  if (!have_proc()) GTEST_SKIP() << "no /proc/stat here: nothing is measured";
  const BusyChild child;
  ASSERT_TRUE(child.started());
  const LoadWatch earlier;  // a row before: its readings stay for the next window
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  (void)earlier.read();
  const LoadWatch row;
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const Contention c = row.read();
  ASSERT_TRUE(c.measured());
  EXPECT_GE(c.seconds, kMinWindowSeconds);
  EXPECT_GE(c.load_other, 0.5);
  EXPECT_TRUE(c.contended) << "load_other " << c.load_other << ", resolution " << c.resolution;
}

// The 1-minute load average and whether a task other than the reader was runnable (its 4th field,
// "running/total", counts the reader itself).
struct LoadAvg {
  double one_minute = 0;
  int running = 0;
};
LoadAvg loadavg() {
  LoadAvg l;
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    double five = 0, fifteen = 0;
    if (std::fscanf(f, "%lf %lf %lf %d", &l.one_minute, &five, &fifteen, &l.running) != 4) l = {};
    std::fclose(f);
  }
  return l;
}

TEST(Contention, AQuietWindowIsNotContended) {
  if (!have_proc()) GTEST_SKIP() << "no /proc/stat here: nothing is measured";
  const LoadWatch watch;
  LoadAvg seen;
  for (int i = 0; i < 12; ++i) {  // 240 ms asleep, looking for other runnable tasks on the way
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const LoadAvg now = loadavg();
    seen = {std::max(seen.one_minute, now.one_minute), std::max(seen.running, now.running)};
  }
  const Contention c = watch.read();
  ASSERT_TRUE(c.measured());
  if (c.contended && (seen.running > 1 || seen.one_minute >= 0.5)) {
    GTEST_SKIP() << "the machine is busy (load average " << seen.one_minute << ", up to " << seen.running
                 << " runnable): load_other " << c.load_other;
  }
  EXPECT_LT(c.load_other, kContendedCores + c.resolution);
  EXPECT_FALSE(c.contended);
}

// A row that sleeps in its calls: the harness's own CPU time is near 0, the child's is the load.
double sleepy_sum(const float* x, std::int64_t n) {
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return rb::cpu::accumulate_f64(x, n);
}

TEST(Contention, AHarnessRowBesideASpinningProcessIsFlagged) {
  if (!have_proc()) GTEST_SKIP() << "no /proc/stat here: nothing is measured";
  Options o = rb::test::small_options({4097});
  o.rule.target = 1e-9;  // out of reach: the row samples for max_seconds, long against a jiffy
  o.rule.max_seconds = o.rule.timeout_seconds = 0.3;
  Session session(o);
  const auto entries = bind_backends(session, {cpu_function<&sleepy_sum>("t/sleepy", lanes(Accumulator::f64, 1))});
  std::map<std::string, double> contended, load;
  {
    const BusyChild child;
    ASSERT_TRUE(child.started());
    ASSERT_EQ(rb::test::run_in_process(session, entries, "all", contended, "contended"), 1u);
    ASSERT_EQ(rb::test::run_in_process(session, entries, "all", load, "load_other"), 1u);
  }
  const std::string name = "t/sleepy/4097/hot";
  EXPECT_EQ(contended[name], 1.0);
  EXPECT_GE(load[name], 0.5);
  EXPECT_TRUE(rb::test::outcome_of(session, name).contended);
  const std::string summary = contention_summary(session.log().benchmarks());
  EXPECT_NE(summary.find("1 measured under contention"), std::string::npos) << summary;
  EXPECT_NE(summary.find("\n  " + name), std::string::npos) << summary;
}

TEST(Contention, NoContendedRowNoSummary) {
  Outcome calm;
  calm.name = "t/calm/1/hot";
  EXPECT_EQ(contention_summary({calm}), "");
  std::vector<Outcome> many(3, calm);
  for (auto& o : many) o.contended = true;
  EXPECT_EQ(contention_summary(many, 2), "reduce_bench: 3 measured under contention (other processes' load; JSON: "
                                         "contended):\n  t/calm/1/hot\n  t/calm/1/hot\n  and 1 more");
}

}  // namespace
