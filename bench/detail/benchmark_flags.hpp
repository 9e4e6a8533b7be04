#pragma once
// Google Benchmark's flags that take a value, checked before benchmark::Initialize. Google
// Benchmark 1.9.5 answers a bad format, time unit or colour with its usage and exit 0 (nothing
// run, nothing said), and leaves a bad number unparsed (then reported as an unknown argument); a
// bad boolean it reads as true. Checked here, each names the flag and the values it accepts.
#include <string>
#include <string_view>

namespace rb::bench {

// Why `arg` is a bad use of one of Google Benchmark's flags ("invalid --benchmark_out_format
// 'xml': expected console, json or csv"); empty when it is good or is no such flag.
std::string bad_benchmark_flag(std::string_view arg);

// The same for the BENCHMARK_* environment variables Google Benchmark reads as those flags'
// defaults (BENCHMARK_OUT_FORMAT for --benchmark_out_format): the first bad one, or empty.
std::string bad_benchmark_environment();

}  // namespace rb::bench
