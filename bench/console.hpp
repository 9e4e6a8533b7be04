#pragma once
// Google Benchmark's console table without the counters that only the JSON needs (p10_us, p90_us,
// min_us, rel_tol, target_met, throttled): with them a row no longer fits a terminal. The JSON
// file reporter is untouched and keeps every counter.
#include <benchmark/benchmark.h>

#include <memory>

namespace rb::bench {

// The console reporter main() passes to RunSpecifiedBenchmarks, or nullptr (Google Benchmark's
// own) when the user chose a console format, colour or tabular counters.
std::unique_ptr<benchmark::BenchmarkReporter> make_console_reporter(bool user_console_flags);

}  // namespace rb::bench
