#include "bench/detail/options.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "bench/detail/benchmark_flags.hpp"
#include "common/sizes.hpp"

namespace rb::bench {
namespace {

// "--name=value" -> value when the argument is that flag; "--name" alone is an error so that a
// forgotten '=' does not silently turn the value into a positional argument.
bool take(std::string_view arg, std::string_view name, std::string& value) {
  if (!arg.starts_with(name)) return false;
  const std::string_view rest = arg.substr(name.size());
  if (rest.empty()) throw UsageError(std::string(name) + " needs a value: " + std::string(name) + "=...");
  if (rest.front() != '=') return false;  // a longer flag that shares the prefix
  value = std::string(rest.substr(1));
  if (value.empty()) throw UsageError(std::string(name) + "= needs a value");
  return true;
}

bool is_flag(std::string_view arg, std::string_view name) {
  return arg == name || arg.starts_with(std::string(name) + "=");
}

std::uint64_t parse_seed(const std::string& text) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end) {
    throw UsageError("invalid --seed '" + text + "': expected an unsigned 64-bit integer");
  }
  return v;
}

Dist parse_dist(const std::string& text) {
  if (text == "harmonic") return Dist::harmonic;
  if (text == "uniform") return Dist::uniform;
  if (text == "normal") return Dist::normal;
  if (text == "integers") return Dist::integers;
  if (text == "positive") return Dist::positive;
  throw UsageError("invalid --dist '" + text + "': expected harmonic, uniform, positive, normal or integers");
}

TimedData parse_timed_data(const std::string& text) {
  if (text == "exact") return TimedData::exact;
  if (text == "input") return TimedData::input;
  throw UsageError("invalid --time_on '" + text + "': expected exact or input");
}

int parse_offset(const std::string& text) {
  int v = -1;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end || v < 0 || v > kMaxOffset) {
    throw UsageError("invalid --offset '" + text + "': expected 0.." + std::to_string(kMaxOffset) + " floats");
  }
  return v;
}

double parse_precision(const std::string& text) {
  const bool percent = text.ends_with('%');
  const std::string number = percent ? text.substr(0, text.size() - 1) : text;
  double v = -1;
  auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  if (ec == std::errc() && ptr == number.data() + number.size() && percent) v /= 100;
  if (ec != std::errc() || ptr != number.data() + number.size() || !(v > 0 && v < 1)) {
    throw UsageError("invalid --precision '" + text +
                     "': expected a fraction in (0, 1) or a percentage, e.g. 0.005 or 0.5%");
  }
  return v;
}

std::int64_t parse_count(const std::string& flag, const std::string& text) {
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v < 1) {
    throw UsageError("invalid " + flag + " '" + text + "': expected a positive integer");
  }
  return v;
}

// A count from 0 up to `max`: the diagnostics' values, where 0 switches a step off.
std::int64_t parse_amount(const std::string& flag, const std::string& text, std::int64_t max) {
  std::int64_t v = -1;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v < 0 || v > max) {
    throw UsageError("invalid " + flag + " '" + text + "': expected an integer from 0 to " + std::to_string(max));
  }
  return v;
}

constexpr double kMaxSeconds = 3600;

// Seconds: "0.25", "0.25s" or "250ms", at most kMaxSeconds.
double parse_seconds(const std::string& flag, const std::string& text) {
  std::string number = text;
  double scale = 1;
  if (number.ends_with("ms")) {
    number.resize(number.size() - 2);
    scale = 1e-3;
  } else if (number.ends_with('s')) {
    number.pop_back();
  }
  double v = -1;
  auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  if (ec != std::errc() || ptr != number.data() + number.size() || !(v > 0)) {
    throw UsageError("invalid " + flag + " '" + text + "': expected a positive time, e.g. 0.25s or 250ms");
  }
  // Every time flag caps something: inf (or a typo of hours) would let one benchmark run forever.
  if (!(v * scale <= kMaxSeconds))
    throw UsageError("invalid " + flag + " '" + text + "': at most 3600s (an hour per benchmark)");
  return v * scale;
}

// One of reduce_bench's flags: how it reads, what --help says, and what it sets. The table below
// is both the parser and the help text, so neither can list a flag the other lacks.
struct Flag {
  std::string_view name;   // "--sizes"
  std::string_view value;  // what --help shows after '=' ("LIST"); empty: the flag takes no value
  bool rule;               // part of the stopping rule: excludes --benchmark_min_time
  void (*set)(Options&, const std::string&);
  std::string_view help;   // lines, each after the flag's column
  std::string_view alias = {};  // a short spelling of a flag without a value ("-h")
};

constexpr std::size_t kHelpColumn = 21;

const std::vector<Flag>& flags() {
  static const std::vector<Flag> table = {
      {"--sizes", "LIST", false,
       [](Options& o, const std::string& v) {
         try {
           o.sizes = parse_size_list(v);
           o.sizes_given = true;
         } catch (const std::invalid_argument& e) {
           throw UsageError(std::string("--sizes: ") + e.what());
         }
       },
       "element counts, comma-separated: 1000, 1e6, 2^20, 4K/4M/4G (decimal),\n"
       "4Ki/4Mi/4Gi (binary), A..B (A, 2A, 4A, ... <= B).\n"
       "Default: 2^10..2^31 plus 1e4,1e5,1e6,1e7,1e8,5e8,1e9; CPU backends\n"
       "take those up to 2^22, then 2^24, 2^26, 2^28, unless --sizes is given."},
      {"--shapes", "LIST", false,
       [](Options& o, const std::string& v) {
         try {
           o.shapes = parse_shapes(v);
         } catch (const std::invalid_argument& e) {
           throw UsageError(std::string("--shapes: ") + e.what());
         }
       },
       "sums along a dimension of B rows of N (row-major), comma-separated:\n"
       "BxN (each row summed, torch.sum(x, dim=1)), BxN/cols (each column,\n"
       "dim=0), T:N1..N2 (N = N1, 4 N1, ... <= N2 at B = T / N, both axes), or\n"
       "default (2^24:1..2^24,2^28:1..2^28). Runs the rows of the backends\n"
       "that sum along a dimension, named <backend>/<B>x<N>[/cols]/<mode>;\n"
       "without --sizes, only those rows. Not part of the default sweep"},
      {"--dtype", "LIST", false,
       [](Options& o, const std::string& v) {
         try {
           o.dtypes = parse_dtypes(v);
         } catch (const std::invalid_argument& e) {
           throw UsageError(std::string("--dtype: ") + e.what());
         }
       },
       "element types to sum, comma-separated: f32 (default), f64, f16, bf16,\n"
       "i32, or all. Each sums the same input stored in that type; rows of a\n"
       "type other than f32 are named <backend>@<type>/<n>/<mode>"},
      {"--dist", "NAME", false,
       [](Options& o, const std::string& v) {
         o.dist = parse_dist(v);
         o.dist_given = true;
       },
       "synthetic input: harmonic (x[i] = 1/(i+1), default), uniform (signed,\n"
       "[-1, 1)), positive (uniform [0, 1): sums grow as n/2), normal\n"
       "(approximately N(0, 1)) or integers (nonzero, [-8, 8]: summed exactly by\n"
       "any order); all but harmonic follow --seed"},
      {"--seed", "S", false, [](Options& o, const std::string& v) { o.seed = parse_seed(v); },
       "seed for --dist=uniform|positive|normal|integers (default 42)"},
      {"--offset", "K", false, [](Options& o, const std::string& v) { o.offset = parse_offset(v); },
       "start the input K floats (0..64) past a 256-byte boundary, to measure and\n"
       "test misaligned starts (default 0)"},
      {"--input", "FILE", false, [](Options& o, const std::string& v) { o.input_path = v; },
       "raw little-endian float32 values; the first n are summed"},
      {"--time_on", "DATA", false, [](Options& o, const std::string& v) { o.time_on = parse_timed_data(v); },
       "what the timed calls sum: exact (default: integers whose sum every\n"
       "order gets exactly, so every timed call is compared bit for bit;\n"
       "accuracy is measured on the input in untimed calls) or input (the\n"
       "--dist/--input values: each call is checked against the row's bound)"},
      {"--precision", "P", true, [](Options& o, const std::string& v) { o.rule.target = parse_precision(v); },
       "stop sampling a benchmark once the 95% confidence interval of its\n"
       "median is within +-P of it: 0.005 or 0.5% (default 0.5%); order\n"
       "statistics, widened when successive samples are correlated"},
      {"--min_samples", "N", true,
       [](Options& o, const std::string& v) {
         const std::int64_t n = parse_count("--min_samples", v);
         if (n < kFirstInterval) {
           throw UsageError("invalid --min_samples '" + v + "': below " + std::to_string(kFirstInterval) +
                            ", the fewest samples with a 95% interval of the median");
         }
         o.rule.min_samples = n;
       },
       "samples before the precision may stop it, 6 or more (default 20)"},
      {"--max_samples", "N", true,
       [](Options& o, const std::string& v) { o.rule.max_samples = parse_count("--max_samples", v); },
       "samples after which it stops regardless (default 100000)"},
      {"--max_time", "T", true,
       [](Options& o, const std::string& v) { o.rule.max_seconds = parse_seconds("--max_time", v); },
       "wall time after which it stops unless the target is in reach, at least\n"
       "one sample taken: 0.2, 0.2s or 200ms (default 0.2s)"},
      {"--timeout", "T", true,
       [](Options& o, const std::string& v) { o.rule.timeout_seconds = parse_seconds("--timeout", v); },
       "in reach: the samples the target is projected to need end within T of\n"
       "wall time; T also caps every benchmark's sampling (default 0.2s, at most\n"
       "3600s; a T at or below --max_time, as by default, makes --max_time a\n"
       "hard cap)"},
      {"--warmup", "T", true,
       [](Options& o, const std::string& v) { o.rule.warmup_seconds = parse_seconds("--warmup", v); },
       "CPU rows: untimed calls before the samples until the time per call stops\n"
       "falling, at most T (default 0.1s); GPU rows take one warm-up launch\n"
       "With --benchmark_min_time, Google Benchmark's own rule decides instead."},
      {"--compare_min_time", "T", true,
       [](Options& o, const std::string& v) { o.compare_min_time = parse_seconds("--compare_min_time", v); },
       "run every benchmark twice in this process: by the stopping rule, and\n"
       "by Google Benchmark's rule with min time T (named .../min_time:T), to\n"
       "check one against the other on this machine"},
      {"--processes", "P", false,
       [](Options& o, const std::string& v) {
         const std::int64_t p = parse_count("--processes", v);
         if (p < 1 || p > kMaxProcesses) {
           throw UsageError("invalid --processes '" + v + "': 1 to " + std::to_string(kMaxProcesses));
         }
         o.processes = static_cast<int>(p);
       },
       "run the sweep in P fresh processes, one after another, and pool their\n"
       "rows as repetitions: each row's interval then covers what a process\n"
       "draws once (where its buffers landed, its core, its GPU context), which\n"
       "one process cannot see (default 1; 3 or more to claim the target across\n"
       "processes; JSON --benchmark_out only; docs/methodology.md)"},
      {"--gpus", "G|all", false,
       [](Options& o, const std::string& v) {
         o.gpus = v == "all" ? 0 : static_cast<int>(std::min<std::int64_t>(parse_count("--gpus", v), 1 << 20));
         o.gpus_given = true;
       },
       "GPUs (per process) of the rows over several GPUs, which split n over\n"
       "them; those rows run with this flag or when launched as several ranks\n"
       "(docs/multi-gpu.md), not in a plain single-process run"},
      {"--rendezvous", "SPEC", false,
       [](Options& o, const std::string& v) {
         if (!v.starts_with("file:") && !v.starts_with("tcp:")) {
           throw UsageError("invalid --rendezvous '" + v + "': expected file:PATH or tcp:HOST:PORT");
         }
         o.rendezvous = v;
       },
       "how ranks launched by srun or torchrun without MPI find rank 0:\n"
       "file:PATH (shared filesystem) or tcp:HOST:PORT (docs/multi-gpu.md)"},
      {"--collective_timeout", "T", false,
       [](Options& o, const std::string& v) { o.collective_timeout = parse_seconds("--collective_timeout", v); },
       "rows over several GPUs: how long a rank waits for its peers before it\n"
       "stops with a message (default 300s)"},
      {"--spin_us", "US", false,
       [](Options& o, const std::string& v) { o.spin_us = static_cast<double>(parse_amount("--spin_us", v, 100'000)); },
       "diagnostic: the GPU spin kernel's head start before each start event,\n"
       "hot and cold (default 60 hot, 20 cold: docs/methodology.md)"},
      {"--flush_passes", "N", false,
       [](Options& o, const std::string& v) {
         o.flush_passes = static_cast<int>(parse_amount("--flush_passes", v, 16));
       },
       "diagnostic: reads of the 2x-L2 buffer before each cold sample (default 2)"},
      {"--page_touch_mib", "MIB", false,
       [](Options& o, const std::string& v) { o.page_touch_mib = parse_amount("--page_touch_mib", v, 1 << 20); },
       "diagnostic: the cold sample's page touch spans this much device memory\n"
       "(default 8192; 0 switches it off)"},
      {"--samples_csv", "FILE", false, [](Options& o, const std::string& v) { o.samples_csv = v; },
       "diagnostic: append every sample as name,run,index,ns,at_ns to FILE"},
      {"--list_backends", "", false, [](Options& o, const std::string&) { o.list_backends = true; },
       "list every backend, and why any is unavailable here, then exit"},
      {"--version", "", false, [](Options& o, const std::string&) { o.version = true; },
       "print the program's name and reduce_bench's version, then exit"},
      {"--help", "", false, [](Options& o, const std::string&) { o.help = true; }, "this text, then Google Benchmark's",
       "-h"},
  };
  return table;
}

// The flag argv's argument names, with its value in `value`; nullptr when it is not one of ours.
const Flag* match(std::string_view arg, std::string& value) {
  for (const Flag& f : flags()) {
    if (f.value.empty() ? arg == f.name || (!f.alias.empty() && arg == f.alias) : take(arg, f.name, value)) return &f;
  }
  return nullptr;
}

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Google Benchmark's flags that reduce_bench reads too; they stay in argv for Google Benchmark.
void note_benchmark_flag(std::string_view arg, Options& o) {
  if (is_flag(arg, "--benchmark_min_time")) o.user_min_time = true;
  for (const char* f : {"--benchmark_format", "--benchmark_color", "--benchmark_counters_tabular"}) {
    if (is_flag(arg, f)) o.user_console_flags = true;
  }
  if (arg.starts_with("--benchmark_repetitions=")) {
    o.repetitions = std::max(1, std::atoi(std::string(arg.substr(24)).c_str()));
  }
  // Any true value bench/detail/benchmark_flags.cpp lets through, as Google Benchmark reads it.
  for (const char* yes : {"", "=true", "=yes", "=on", "=1"}) {
    if (lowered(arg) == std::string("--benchmark_list_tests") + yes) o.list_tests = true;
  }
}

}  // namespace

const char* dist_name(Dist d) {
  switch (d) {
    case Dist::harmonic: return "harmonic";
    case Dist::uniform: return "uniform";
    case Dist::normal: return "normal";
    case Dist::integers: return "integers";
    case Dist::positive: return "positive";
  }
  return "?";
}

const char* timed_data_name(TimedData t) { return t == TimedData::exact ? "exact" : "input"; }

Options parse_options(int& argc, char** argv) {
  Options o;
  std::string_view rule_given;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    std::string value;
    if (const Flag* f = match(arg, value)) {
      f->set(o, value);
      if (f->rule) rule_given = f->name;
    } else {
      if (std::string why = bad_benchmark_flag(arg); !why.empty()) throw UsageError(why);
      note_benchmark_flag(arg, o);
      argv[out++] = argv[i];  // not ours: Google Benchmark's, or unknown (reported later)
    }
  }
  argc = out;
  if (std::string why = bad_benchmark_environment(); !why.empty()) throw UsageError(why);
  if (o.dist_given && !o.input_path.empty()) {
    throw UsageError("--dist and --input exclude each other: the file is the input");
  }
  if (!rule_given.empty() && o.user_min_time) {
    throw UsageError(std::string(rule_given) + " and --benchmark_min_time exclude each other: the first sets "
                     "reduce_bench's stopping rule, the second selects Google Benchmark's");
  }
  if (o.rule.max_samples < o.rule.min_samples) {
    throw UsageError("--max_samples (" + std::to_string(o.rule.max_samples) + ") is below --min_samples (" +
                     std::to_string(o.rule.min_samples) + ")");
  }
  if (o.sizes.empty()) o.sizes = default_sizes();
  return o;
}

std::string usage() {
  std::string u = "usage: reduce_bench [reduce_bench flags] [Google Benchmark flags]\n\nreduce_bench flags:\n";
  for (const Flag& f : flags()) {
    std::string head = "  " + std::string(f.name);
    if (!f.value.empty()) head += "=" + std::string(f.value);
    head.resize(std::max(kHelpColumn, head.size() + 2), ' ');
    std::string_view help = f.help;
    for (bool first = true; !help.empty(); first = false) {
      const std::size_t eol = std::min(help.find('\n'), help.size());
      u += (first ? head : std::string(kHelpColumn, ' ')) + std::string(help.substr(0, eol)) + "\n";
      help.remove_prefix(std::min(eol + 1, help.size()));
    }
  }
  return u + R"(
Benchmarks are named <backend>/<n>/<cold|hot>/manual_time; select them with
--benchmark_filter=REGEX. JSON: --benchmark_out=FILE --benchmark_out_format=json.
Exit status: 0 ok, 1 a benchmark failed verification or hit an error (or the output could not be
written), 2 bad usage or input (a bad value of Google Benchmark's flags too, or a
--benchmark_out file that cannot be written), 3 the filter matched no benchmark, 4 every selected
benchmark was skipped, 5 interrupted by SIGINT or SIGTERM with no failure so far (the benchmark
running ends early, the rest are skipped, the JSON holds what was measured; a second signal stops
at once, the JSON keeping the rows finished before it).
)";
}

}  // namespace rb::bench
