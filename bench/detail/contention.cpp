#include "bench/detail/contention.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#include <unistd.h>
#endif

namespace rb::bench {
namespace {

// The whitespace-separated fields of `line`, at most `max` of them.
std::vector<std::string_view> fields(std::string_view line, std::size_t max) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (out.size() < max) {
    i = line.find_first_not_of(" \t", i);
    if (i == std::string_view::npos) break;
    const std::size_t j = std::min(line.find_first_of(" \t", i), line.size());
    out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

std::optional<std::int64_t> number(std::string_view s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// A whole /proc file (their sizes read as 0, so read until the end); empty when unreadable.
std::string slurp(const char* path) {
  std::string text;
  if (std::FILE* f = std::fopen(path, "r")) {
    char buf[4096];
    for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, got);
    std::fclose(f);
  }
  return text;
}

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::optional<CpuJiffies> parse_proc_stat(std::string_view text, const std::vector<int>& cpus) {
  CpuJiffies sum;
  bool found = false;
  while (!text.empty()) {
    const std::size_t eol = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, eol);
    text.remove_prefix(std::min(eol + 1, text.size()));
    if (!line.starts_with("cpu")) continue;
    const auto f = fields(line, 9);  // name user nice system idle iowait irq softirq steal
    if (f.empty()) continue;
    const std::string_view id = f[0].substr(3);
    if (cpus.empty() ? !id.empty() : id.empty()) continue;
    if (!cpus.empty()) {
      const auto n = number(id);
      if (!n || std::find(cpus.begin(), cpus.end(), *n) == cpus.end()) continue;
    }
    if (f.size() < 8) return std::nullopt;  // up to softirq; steal (Linux 2.6.11) counts 0 when absent
    std::int64_t v[8] = {};
    for (std::size_t k = 1; k < f.size(); ++k) {
      const auto x = number(f[k]);
      if (!x) return std::nullopt;
      v[k - 1] = *x;
    }
    sum.busy += v[0] + v[1] + v[2] + v[5] + v[6] + v[7];  // all but idle (v[3]) and iowait (v[4])
    sum.steal += v[7];
    found = true;
  }
  if (!found) return std::nullopt;
  return sum;
}

std::optional<std::int64_t> parse_self_stat(std::string_view text) {
  const std::size_t close = text.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  const auto f = fields(text.substr(close + 1), 13);  // from field 3 (state): utime is 14, stime 15
  if (f.size() < 13) return std::nullopt;
  const auto utime = number(f[11]), stime = number(f[12]);
  if (!utime || !stime) return std::nullopt;
  return *utime + *stime;
}

Contention contention_between(const LoadSnapshot& start, const LoadSnapshot& end, double ticks_per_second,
                              int cpu_count) {
  Contention c;
  c.seconds = end.seconds - start.seconds;
  if (c.seconds <= 0 || ticks_per_second <= 0) return c;
  const double window = c.seconds * ticks_per_second;  // jiffies of one CPU
  const auto busy = static_cast<double>(end.cpus.busy - start.cpus.busy);
  const auto own = static_cast<double>(end.own - start.own);
  c.load_other = std::max(0.0, (busy - own) / window);
  if (cpu_count > 0) c.load_other = std::min(c.load_other, static_cast<double>(cpu_count));
  c.steal = std::max(0.0, static_cast<double>(end.cpus.steal - start.cpus.steal) / window);
  double busy_cpus = std::ceil(std::max(0.0, busy) / window);
  if (cpu_count > 0) busy_cpus = std::min(busy_cpus, static_cast<double>(cpu_count));
  c.resolution = (busy_cpus + 1) / window;
  c.contended = c.load_other > kContendedCores + c.resolution;
  return c;
}

namespace {

// Every LoadWatch's readings, oldest first, back to the newest one kMinWindowSeconds before the
// latest: where a short window is widened to. Readings over another CPU mask start it afresh.
struct History {
  std::mutex lock;
  std::vector<int> cpus;
  std::deque<LoadSnapshot> readings;
};
History& history() {
  static History h;
  return h;
}

std::optional<LoadSnapshot> snapshot(const std::vector<int>& cpus) {
  const double t = now_seconds();
  const auto stat = parse_proc_stat(slurp("/proc/stat"), cpus);
  const auto own = parse_self_stat(slurp("/proc/self/stat"));
  if (!stat || !own) return std::nullopt;
  const LoadSnapshot s{*stat, *own, t};
  History& h = history();
  const std::lock_guard guard(h.lock);
  if (h.cpus != cpus) {
    h.cpus = cpus;
    h.readings.clear();
  }
  h.readings.push_back(s);
  while (h.readings.size() > 1 && h.readings[1].seconds <= t - kMinWindowSeconds) h.readings.pop_front();
  return s;
}

// The start of a window ending at `end`: `start`, or an earlier reading when it is too recent.
LoadSnapshot widened(const LoadSnapshot& start, const LoadSnapshot& end) {
  if (end.seconds - start.seconds >= kMinWindowSeconds) return start;
  History& h = history();
  const std::lock_guard guard(h.lock);
  const auto& r = h.readings;
  return !r.empty() && r.front().seconds < start.seconds ? r.front() : start;
}

double ticks_per_second() {
#if defined(__linux__)
  return static_cast<double>(sysconf(_SC_CLK_TCK));
#else
  return 0;
#endif
}

}  // namespace

LoadWatch::LoadWatch() {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) cpus_.push_back(cpu);
    }
  }
  cpu_count_ = cpus_.empty() ? static_cast<int>(std::thread::hardware_concurrency()) : static_cast<int>(cpus_.size());
  start_ = snapshot(cpus_);
#endif
}

Contention LoadWatch::read() const {
  if (!start_) return {};
  const auto end = snapshot(cpus_);
  if (!end) return {};
  return contention_between(widened(*start_, *end), *end, ticks_per_second(), cpu_count_);
}

}  // namespace rb::bench
