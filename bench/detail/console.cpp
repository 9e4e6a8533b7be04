#include "bench/detail/console.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <vector>

#include "bench/detail/run_context.hpp"
#include "bench/detail/stored_input.hpp"

namespace rb::bench {
namespace {

constexpr std::string_view kSuffix = "/manual_time";  // every row has it; the console leaves it out

std::string printf_string(const char* format, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, format, args...);
  return buf;
}

double counter(const benchmark::BenchmarkReporter::Run& r, const char* key, double otherwise = NAN) {
  const auto it = r.counters.find(key);
  return it == r.counters.end() ? otherwise : it->second.value;
}

// The JSON's skip and error messages begin with "skipped: " or "error: " (scripts read that);
// after the console's SKIPPED or ERROR the word would be said twice.
std::string unprefixed(const std::string& message, std::string_view prefix) {
  return message.starts_with(prefix) ? message.substr(prefix.size()) : message;
}

std::string shown_name(std::string name) {
  if (const auto at = name.find(kSuffix); at != std::string::npos) name.erase(at, kSuffix.size());
  return name;
}

// The input's NaN and infinities among the row's values, and what its type stored in place of
// others (bench/detail/stored_input.hpp): ", input 1 NaN; stored 2 Inf 1 zero"; "" for the usual row.
std::string input_changes(const benchmark::BenchmarkReporter::Run& r) {
  std::string input, stored;
  for (const StoredCount& c : kStoredCounts) {
    if (const double v = counter(r, c.key, 0); v > 0) {
      (c.of_input ? input : stored) += printf_string(" %.0f %s", v, c.word);
    }
  }
  if (!input.empty()) input = ", input" + input;
  if (stored.empty()) return input;
  return input + (input.empty() ? ", stored" : "; stored") + stored;
}

// A contended row's note (bench/detail/contention.hpp): the other processes' load, and their number on
// the GPU where NVML counted any; "" for a row measured alone.
std::string contention(const benchmark::BenchmarkReporter::Run& r) {
  if (counter(r, "contended") != 1) return "";
  std::string why;
  if (const double load = counter(r, "load_other"); !std::isnan(load))
    why = printf_string("other load %.1f cores", load);
  if (const double gpu = counter(r, "gpu_others", 0); gpu > 0)
    why += printf_string("%s%.0f other GPU processes", why.empty() ? "" : ", ", gpu);
  return ", CONTENDED (" + why + ")";
}

// What was verified, as far as the counters say: the exact check, the error against its bound
// (or that none was stated), the calls whose sums were checked.
std::string verified(const benchmark::BenchmarkReporter::Run& r) {
  std::string out;
  if (counter(r, "exact") == 1) out = "exact, ";
  const double err = counter(r, "rel_err"), tol = counter(r, "rel_tol");
  if (!std::isnan(err))
    out += std::isnan(tol) ? printf_string("err %.1e (no bound)", err) : printf_string("err %.1e <= %.1e", err, tol);
  const double calls = counter(r, "checked_calls");
  if (!std::isnan(calls)) out += printf_string(", %.0f calls", calls);
  if (out.empty()) return "timing only" + contention(r);
  out += input_changes(r);
  if (counter(r, "throttled") == 1) out += ", THROTTLED";
  out += contention(r);
  if (const double host = counter(r, "host_us"); !std::isnan(host))
    out += printf_string(", host %s", format_time(host * 1e-6).c_str());
  if (const double combine = counter(r, "combine_us"); !std::isnan(combine)) {
    out += printf_string(", combine %s", format_time(combine * 1e-6).c_str());
  }
  return out;
}

class Table final : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context& c) override {
    std::ostream& out = GetOutputStream();
    const std::string build = context_value("build_type");
    const char* exe = Context::executable_name ? Context::executable_name : "reduce_bench";
    std::string line = program_and_version(exe, context_value("reduce_bench_version")) +
                       (build.empty() ? "" : " (" + build + ")") + ", Google Benchmark " +
                       benchmark::GetBenchmarkVersion() + " on " + c.sys_info.name + ": " +
                       std::to_string(c.cpu_info.num_cpus) + " CPUs" +
                       printf_string(" at %.0f MHz", c.cpu_info.cycles_per_second / 1e6);
    if (!c.cpu_info.load_avg.empty()) line += printf_string(", load %.2f", c.cpu_info.load_avg.front());
    out << fit(line) << '\n';
    if (c.cpu_info.scaling == benchmark::CPUInfo::Scaling::ENABLED) {
      out << fit("warning: CPU frequency scaling is enabled: CPU rows may be noisy") << '\n';
    }
    const std::string gpu = context_value("gpu");
    if (!gpu.empty() && gpu.rfind("none", 0) != 0) {
      out << fit("GPU: " + gpu + ", compute capability " + context_value("gpu_compute_capability") + ", " +
                 context_value("gpu_sm_count") + " SMs, DRAM peak " +
                 printf_string("%.0f", std::atof(context_value("gpu_peak_bandwidth_GBps").c_str())) + " GB/s, CUDA " +
                 context_value("cuda_runtime") + " (driver " + context_value("cuda_driver") + ")")
          << '\n';
    }
    out << fit("input: " + context_value("input")) << '\n';
    for (const auto& note : console_notes()) out << fit(note) << '\n';
    // Within the width: the longest name of the default sweep, not a user's longer one.
    name_width_ = std::clamp<int>(static_cast<int>(c.name_field_width) - static_cast<int>(kSuffix.size()), 24, 44);
    const std::string head =
        printf_string("%-*s %10s %10s %7s %8s %8s  %s", name_width_, "benchmark", "median", "GB/s", "%peak", "+-95%",
                      "samples", "verified (* short of the precision target or contended)");
    out << head << '\n' << std::string(std::min(head.size(), kConsoleWidth), '-') << '\n';
    return true;
  }

  void ReportRuns(const std::vector<Run>& runs) override {
    std::ostream& out = GetOutputStream();
    for (const Run& r : runs) out << fit(row(r)) << '\n';
    out.flush();
  }

 private:
  std::string row(const Run& r) const {
    const std::string name = printf_string("%-*s", name_width_, shown_name(r.benchmark_name()).c_str());
    if (r.skipped == benchmark::internal::SkippedWithError) {
      return name + " ERROR: " + unprefixed(r.skip_message, "error: ");
    }
    if (r.skipped != benchmark::internal::NotSkipped) {
      return name + " SKIPPED: " + unprefixed(r.skip_message, "skipped: ");
    }
    const double seconds = r.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(r.time_unit);
    if (r.run_type == Run::RT_Aggregate && r.aggregate_unit == benchmark::kPercentage) {
      // A ratio, not a time: Google Benchmark keeps it unscaled in real_accumulated_time.
      return name + printf_string(" %10s", printf_string("cv %.2f%%", 100 * r.real_accumulated_time).c_str());
    }
    const double gbps = counter(r, "bytes_per_second") / 1e9, peak = counter(r, "pct_peak");
    std::string line = name + printf_string(" %10s", format_time(seconds).c_str());
    line += std::isnan(gbps) ? std::string(11, ' ') : printf_string(" %10.2f", gbps);
    line += std::isnan(peak) ? std::string(8, ' ') : printf_string(" %6.1f%%", peak);
    if (r.run_type == Run::RT_Aggregate) return line;
    // A sampled row without a precision counter had no interval (fewer than 6 effective samples);
    // a row short of its target shows "-*" even without a samples counter: the mark is never blank.
    const double samples = counter(r, "samples");
    double precision = counter(r, "precision");
    const bool short_of = counter(r, "target_met", 1) == 0 || counter(r, "contended") == 1;
    if (std::isnan(precision) && (!std::isnan(samples) || short_of)) precision = INFINITY;
    line += std::isnan(precision) ? std::string(9, ' ')
            : std::isinf(precision) || precision >= 10
                ? printf_string(" %7s%c", std::isinf(precision) ? "-" : ">999%", short_of ? '*' : ' ')
                : printf_string(" %6.2f%%%c", 100 * precision, short_of ? '*' : ' ');
    line += std::isnan(samples) ? std::string(9, ' ') : printf_string(" %8.0f", samples);
    return line + "  " + verified(r);
  }

  int name_width_ = 40;
};

}  // namespace

std::string fit(const std::string& line, std::size_t width) {
  if (line.size() <= width) return line;
  return line.substr(0, width - 3) + "...";
}

std::string program_and_version(std::string_view argv0, std::string_view version) {
  const std::size_t slash = argv0.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? argv0 : argv0.substr(slash + 1);
  const std::string harness = "reduce_bench " + std::string(version);
  return name.empty() || name == "reduce_bench" ? harness : std::string(name) + " with " + harness;
}

std::string format_time(double seconds) {
  const double a = std::abs(seconds);
  const auto with = [&](double scale, const char* unit) {
    const double v = seconds * scale;
    const char* f = std::abs(v) >= 100 ? "%.1f %s" : std::abs(v) >= 10 ? "%.2f %s" : "%.3f %s";
    return printf_string(f, v, unit);
  };
  if (a < 1e-6) return with(1e9, "ns");
  if (a < 1e-3) return with(1e6, "us");
  if (a < 1) return with(1e3, "ms");
  return with(1, "s");
}

std::unique_ptr<benchmark::BenchmarkReporter> make_console_reporter(bool user_console_flags) {
  if (user_console_flags) return nullptr;
  return std::make_unique<Table>();
}

}  // namespace rb::bench
