#pragma once
// The console: a short preamble and one line per benchmark, each at most kConsoleWidth columns.
// The preamble names the build, the host, the GPU, the input and the rule, and counts the
// unavailable backends (--list_backends and the JSON give the reasons). A row shows the median,
// GB/s, % of the DRAM peak (GPU rows), the median's 95% interval, the sample count and what was
// verified, and CONTENDED where other processes' load reached the row (bench/detail/contention.hpp);
// the interval of a row short of its target or contended is marked *. Skip and error messages are
// cut to the width (the closing summary and the JSON keep them whole). The JSON file reporter is
// untouched and keeps every counter.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace rb::bench {

inline constexpr std::size_t kConsoleWidth = 160;

// The console reporter main() passes to RunSpecifiedBenchmarks, or nullptr (Google Benchmark's
// own) when the user chose a console format, colour or tabular counters.
std::unique_ptr<benchmark::BenchmarkReporter> make_console_reporter(bool user_console_flags);

// `line` cut to `width` characters, ending in "..." when cut (the console prints ASCII only).
std::string fit(const std::string& line, std::size_t width = kConsoleWidth);

// The executable running (argv[0]'s last component) and the harness it is built on:
// "reduce_bench 0.1.0", or "my_bench with reduce_bench 0.1.0" for a bench of one's own.
std::string program_and_version(std::string_view argv0, std::string_view version);

// A time in seconds with three or four significant digits and a unit of its own (ns, us, ms, s).
std::string format_time(double seconds);

}  // namespace rb::bench
