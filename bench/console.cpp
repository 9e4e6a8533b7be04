#include "bench/console.hpp"

#include <unistd.h>

#include <vector>

namespace rb::bench {
namespace {

class CompactConsole : public benchmark::ConsoleReporter {
 public:
  using benchmark::ConsoleReporter::ConsoleReporter;
  void ReportRuns(const std::vector<Run>& runs) override {
    std::vector<Run> shown = runs;
    for (auto& r : shown) {
      for (const char* k : {"p10_us", "p90_us", "min_us", "rel_tol", "target_met", "throttled"}) r.counters.erase(k);
    }
    ConsoleReporter::ReportRuns(shown);
  }
};

}  // namespace

std::unique_ptr<benchmark::BenchmarkReporter> make_console_reporter(bool user_console_flags) {
  if (user_console_flags) return nullptr;
  const bool color = isatty(STDOUT_FILENO) != 0;
  return std::make_unique<CompactConsole>(color ? benchmark::ConsoleReporter::OO_Color
                                                : benchmark::ConsoleReporter::OO_None);
}

}  // namespace rb::bench
