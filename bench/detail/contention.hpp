#pragma once
// Other processes' CPU load while a row sampled: a LoadWatch opened just before the samples and
// read just after them takes the busy jiffies of /proc/stat over the CPUs this process may run on
// (sched_getaffinity), subtracts this process's own CPU time (/proc/self/stat) and divides by the
// wall time: load_other, the mean number of those CPUs' cores busy with other work. Without /proc
// (not Linux, or unreadable) nothing is measured and nothing fails.
//
// Resolution: /proc/stat counts whole jiffies (10 ms at 100 Hz) per CPU, sampled at the tick, so
// each busy CPU's count may be off by one jiffy and the own time by one more. A window shorter
// than kMinWindowSeconds is widened back to the last reading that far before its end (the rows
// just before it: the same harness, the same neighbours), and a row is flagged only when
// load_other exceeds kContendedCores by that bound, (busy CPUs + 1) jiffies over the window.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

namespace rb::bench {

// Cores of other work beyond which a row is contended: an all-cores CPU row waits for its slowest
// thread, so a quarter core taken from one thread may stretch it by up to 25%, fifty times the
// default precision target, while an idle machine's daemons and kernel threads stay near 0.02.
inline constexpr double kContendedCores = 0.25;
// 20 jiffies: a row on one CPU beside one busy neighbour is flagged from 0.4 cores of others.
inline constexpr double kMinWindowSeconds = 0.2;

// Jiffies summed over some CPUs' /proc/stat lines: busy = user + nice + system + irq + softirq +
// steal (guest time is inside user and nice already); steal alone beside it.
struct CpuJiffies {
  std::int64_t busy = 0;
  std::int64_t steal = 0;
};

// The "cpuN" lines of `cpus` in a /proc/stat text (an empty list: the aggregate "cpu" line); CPUs
// without a line (offline) count nothing. nullopt when no line was found or one is malformed.
std::optional<CpuJiffies> parse_proc_stat(std::string_view text, const std::vector<int>& cpus);
// utime + stime, in jiffies, from a /proc/<pid>/stat text (its comm may hold spaces and
// parentheses: the fields are counted after the last ')'); nullopt when malformed.
std::optional<std::int64_t> parse_self_stat(std::string_view text);

// What one window saw. load_other NaN: not measured (no /proc).
struct Contention {
  double load_other = std::numeric_limits<double>::quiet_NaN();  // cores, >= 0
  double steal = std::numeric_limits<double>::quiet_NaN();       // cores the hypervisor took (VMs)
  double resolution = std::numeric_limits<double>::quiet_NaN();  // cores: the rounding bound above
  double seconds = 0;                                            // the window's wall time
  bool contended = false;  // load_other > kContendedCores + resolution
  bool measured() const noexcept { return !std::isnan(load_other); }
};

// One reading: the CPUs' jiffies, this process's own (utime + stime) and the wall clock.
struct LoadSnapshot {
  CpuJiffies cpus;
  std::int64_t own = 0;
  double seconds = 0;
};

// The window between two readings of `cpu_count` CPUs, at `ticks_per_second` jiffies a second;
// load_other is at most cpu_count.
Contention contention_between(const LoadSnapshot& start, const LoadSnapshot& end, double ticks_per_second,
                              int cpu_count);

class LoadWatch {
 public:
  LoadWatch();  // opens the window: the affinity mask and the first reading
  // The window from construction (or, widened, from an earlier reading) to now; may be read again.
  Contention read() const;

 private:
  std::vector<int> cpus_;  // this process's CPUs; empty: the aggregate line
  int cpu_count_ = 0;
  std::optional<LoadSnapshot> start_;
};

}  // namespace rb::bench
