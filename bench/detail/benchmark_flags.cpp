#include "bench/detail/benchmark_flags.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <vector>

namespace rb::bench {
namespace {

// How Google Benchmark 1.9.5 reads a flag (src/benchmark.cc, ParseCommandLineFlags).
enum class Kind {
  boolean,     // ParseBoolFlag: "--flag" alone is true
  colour,      // a boolean or auto
  choice,      // one of the listed words
  repetitions, // ParseInt32Flag; 0 or fewer would run nothing
  verbosity,   // ParseInt32Flag
  seconds,     // ParseDoubleFlag: a plain number, no unit
  min_time,    // "<float>s", "<float>" or "<integer>x" (benchmark_runner.cc, ParseBenchMinTime)
  pairs,       // ParseKeyValueFlag: KEY=VALUE,...
};

struct BenchmarkFlag {
  std::string_view name;  // without the leading "--"
  Kind kind;
  std::string_view expected;  // what the message says it accepts
  std::vector<std::string_view> words = {};  // Kind::choice
};

constexpr std::string_view kBoolean = "true or false (also yes/no, on/off, 1/0)";

const std::vector<BenchmarkFlag>& benchmark_flags() {
  static const std::vector<BenchmarkFlag> table = {
      {"benchmark_format", Kind::choice, "console, json or csv", {"console", "json", "csv"}},
      {"benchmark_out_format", Kind::choice, "console, json or csv", {"console", "json", "csv"}},
      {"benchmark_time_unit", Kind::choice, "ns, us, ms or s", {"ns", "us", "ms", "s"}},
      {"benchmark_color", Kind::colour, "auto, true or false (also yes/no, on/off, 1/0)"},
      {"benchmark_repetitions", Kind::repetitions, "a positive integer"},
      {"benchmark_min_time", Kind::min_time,
       "a time in seconds, e.g. 0.5s or 0.5, or an iteration count, e.g. 100x"},
      {"benchmark_min_warmup_time", Kind::seconds, "seconds as a plain number, e.g. 0.5 (no unit)"},
      {"benchmark_enable_random_interleaving", Kind::boolean, kBoolean},
      {"benchmark_report_aggregates_only", Kind::boolean, kBoolean},
      {"benchmark_display_aggregates_only", Kind::boolean, kBoolean},
      {"benchmark_counters_tabular", Kind::boolean, kBoolean},
      {"benchmark_list_tests", Kind::boolean, kBoolean},
      {"benchmark_dry_run", Kind::boolean, kBoolean},
      {"benchmark_context", Kind::pairs, "KEY=VALUE pairs, comma-separated, each key once"},
      {"v", Kind::verbosity, "an integer"},
  };
  return table;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_boolean(std::string_view v) {
  const std::string l = lower(v);
  for (const char* w : {"true", "false", "yes", "no", "on", "off", "1", "0"}) {
    if (l == w) return true;
  }
  return false;
}

template <class T>
bool parses_as(std::string_view v, T& out) {
  const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return ec == std::errc() && ptr == v.data() + v.size();
}

bool is_seconds(std::string_view v) {
  double d = -1;
  return parses_as(v, d) && std::isfinite(d) && d >= 0;
}

bool is_min_time(std::string_view v) {
  if (v.ends_with('x')) {
    std::int64_t iterations = 0;
    return parses_as(v.substr(0, v.size() - 1), iterations) && iterations > 0;
  }
  if (v.ends_with('s')) v.remove_suffix(1);
  return is_seconds(v);
}

bool is_pairs(std::string_view v) {
  std::vector<std::string_view> keys;
  for (std::size_t start = 0; start <= v.size();) {
    const std::size_t comma = std::min(v.find(',', start), v.size());
    const std::string_view pair = v.substr(start, comma - start);
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos || pair.find('=', eq + 1) != std::string_view::npos) return false;
    if (std::find(keys.begin(), keys.end(), pair.substr(0, eq)) != keys.end()) return false;
    keys.push_back(pair.substr(0, eq));
    start = comma + 1;
  }
  return true;
}

bool accepts(const BenchmarkFlag& f, std::string_view v) {
  switch (f.kind) {
    case Kind::boolean: return is_boolean(v);
    case Kind::colour: return lower(v) == "auto" || is_boolean(v);
    case Kind::choice: return std::find(f.words.begin(), f.words.end(), v) != f.words.end();
    case Kind::repetitions: {
      std::int32_t n = 0;
      return parses_as(v, n) && n > 0;
    }
    case Kind::verbosity: {
      std::int32_t n = 0;
      return parses_as(v, n);
    }
    case Kind::seconds: return is_seconds(v);
    case Kind::min_time: return is_min_time(v);
    case Kind::pairs: return is_pairs(v);
  }
  return false;
}

std::string invalid(std::string_view what, std::string_view value, const BenchmarkFlag& f,
                    std::string_view where = "") {
  return "invalid " + std::string(what) + " '" + std::string(value) + "'" + std::string(where) + ": expected " +
         std::string(f.expected);
}

}  // namespace

std::string bad_benchmark_flag(std::string_view arg) {
  if (!arg.starts_with("--")) return {};
  arg.remove_prefix(2);
  for (const BenchmarkFlag& f : benchmark_flags()) {
    if (!arg.starts_with(f.name)) continue;
    const std::string_view rest = arg.substr(f.name.size());
    const std::string flag = "--" + std::string(f.name);
    if (rest.empty()) {
      return f.kind == Kind::boolean ? std::string() : flag + " needs a value: " + flag + "=...";
    }
    if (rest.front() != '=') continue;  // a longer flag that shares the prefix
    const std::string_view value = rest.substr(1);
    return accepts(f, value) ? std::string() : invalid(flag, value, f);
  }
  return {};
}

std::string bad_benchmark_environment() {
  for (const BenchmarkFlag& f : benchmark_flags()) {
    if (f.kind == Kind::verbosity) continue;  // its variable would be "V", too common a name to judge
    std::string name(f.name);
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const char* value = std::getenv(name.c_str());
    // Google Benchmark reads an empty boolean as true, as it does "--flag" alone.
    if (!value || (*value == '\0' && f.kind == Kind::boolean)) continue;
    if (!accepts(f, value)) return invalid(name, value, f, " in the environment");
  }
  return {};
}

}  // namespace rb::bench
