#pragma once
// reduce_bench's own flags. Google Benchmark's flags (--benchmark_*) pass through untouched.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/detail/element.hpp"
#include "bench/detail/sampling.hpp"
#include "common/shape.hpp"
#include "common/synth.hpp"

namespace rb::bench {

using Dist = rb::synth::Dist;

inline constexpr int kMaxOffset = 64;
inline constexpr int kMaxProcesses = 100;  // --processes

// What the timed calls sum (docs/methodology.md, "What every call is checked against").
enum class TimedData { exact, input };

struct Options {
  std::vector<std::int64_t> sizes;  // sorted, unique
  std::vector<Dtype> dtypes = {Dtype::f32};  // --dtype: the element types, in the order given
  bool sizes_given = false;         // --sizes given: every backend runs every size
  // --shapes: the shapes the backends that sum along a dimension run (common/shape.hpp). Given
  // without --sizes, only those rows run.
  std::vector<Shape2D> shapes;
  Dist dist = Dist::harmonic;
  bool dist_given = false;          // --dist given (it excludes --input)
  std::uint64_t seed = 42;
  std::string input_path;           // --input: raw little-endian float32; empty = synthetic
  int offset = 0;                   // --offset: the input starts this many floats past alignment
  // --time_on: what the timed calls sum. exact (default): the exact check's integer data, every
  // timed call compared with its integer sum; input: the --dist/--input values themselves.
  TimedData time_on = TimedData::exact;
  bool list_backends = false;
  bool help = false;
  bool version = false;             // --version: the program's name and version, then exit
  StopRule rule;                    // --precision, --min_samples, --max_samples, --max_time
  bool user_min_time = false;       // --benchmark_min_time given: Google Benchmark's rule instead
  double compare_min_time = 0;      // --compare_min_time: a Google Benchmark-rule twin per case
  int repetitions = 1;              // --benchmark_repetitions (read, and passed on)
  int processes = 1;                // --processes: the run repeated in this many fresh processes, pooled
  bool user_console_flags = false;  // --benchmark_format/_color/_counters_tabular: GB's console
  bool list_tests = false;          // --benchmark_list_tests given: do not touch data
  int gpus = 1;                     // --gpus: GPUs per process of the collective rows; 0 = all visible
  bool gpus_given = false;          // --gpus given: the collective rows run in a single process
  std::string rendezvous;           // --rendezvous: file:PATH or tcp:HOST:PORT (docs/multi-gpu.md)
  // Diagnostics (docs/methodology.md): how a GPU sample is prepared, and a record of every sample.
  // A negative value keeps the measured default of the code that reads it.
  double spin_us = -1;              // --spin_us: the spin kernel's head start before each start event
  int flush_passes = -1;            // --flush_passes: reads of the 2x-L2 buffer per cold sample
  std::int64_t page_touch_mib = -1; // --page_touch_mib: the cold page touch's span; 0 switches it off
  std::string samples_csv;          // --samples_csv: append every sample to this file
  double collective_timeout = 300;  // --collective_timeout: seconds a rank waits for its peers
};

// A bad flag or value. main prints what() and exits with kExitUsage.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses and removes reduce_bench's flags from argv; leaves argv[0] and every other argument.
Options parse_options(int& argc, char** argv);

const char* dist_name(Dist d);
const char* timed_data_name(TimedData t);
std::string usage();

}  // namespace rb::bench
