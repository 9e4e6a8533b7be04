#include "bench/detail/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace rb::bench {
namespace {

std::string clock_text(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
  return buf;
}

int terminal_width() {
  winsize w{};
  return ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 20 ? w.ws_col : 80;
}

}  // namespace

Progress& Progress::get() {
  static Progress p;
  return p;
}

void Progress::start(std::int64_t benchmarks, int repetitions, bool counted_runs) {
  on_ = isatty(STDERR_FILENO) != 0;
  counted_runs_ = counted_runs;
  benchmarks_ = benchmarks;
  runs_total_ = benchmarks * std::max(1, repetitions);
  runs_done_ = 0;
  names_.clear();
  t0_ = std::chrono::steady_clock::now();
}

void Progress::begin(const std::string& name) {
  if (!on_) return;
  names_.insert(name);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  std::int64_t done = 0;
  std::string left = "";
  if (counted_runs_) {
    done = runs_done_ * benchmarks_ / std::max<std::int64_t>(1, runs_total_);
    if (runs_done_ > 0) {
      left = ", ~" +
             clock_text(elapsed / static_cast<double>(runs_done_) * static_cast<double>(runs_total_ - runs_done_)) +
             " left";
    }
  } else {
    done = static_cast<std::int64_t>(names_.size()) - 1;
  }
  std::string line = "[" + std::to_string(done) + "/" + std::to_string(benchmarks_) + "] " + clock_text(elapsed) +
                     " elapsed" + left + ": " + name;
  line.resize(std::min<std::size_t>(line.size(), static_cast<std::size_t>(terminal_width() - 1)));
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
}

void Progress::end() {
  if (!on_) return;
  ++runs_done_;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

void Progress::finish() {
  if (on_) std::fprintf(stderr, "\r\033[K");
  on_ = false;
}

}  // namespace rb::bench
