#pragma once
// reduce_bench's own flags. Google Benchmark's flags (--benchmark_*) pass through untouched.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace rb::bench {

// What the synthetic input holds (--dist). Both are generated identically on the GPU and the CPU.
enum class Dist {
  harmonic,  // x[i] = 1 / (i + 1): the seed study's default; positive, slowly shrinking
  uniform,   // signed uniform in [-1, 1) from a counter-based hash of (seed, i)
};

struct Options {
  std::vector<std::int64_t> sizes;  // sorted, unique
  Dist dist = Dist::harmonic;
  std::uint64_t seed = 42;
  std::string input_path;           // --input: raw little-endian float32; empty = synthetic
  bool list_backends = false;
  bool help = false;
  bool user_min_time = false;       // --benchmark_min_time given: do not add kDefaultMinTime
  bool list_tests = false;          // --benchmark_list_tests given: do not touch data
};

// Google Benchmark's default (0.5 s of measured time per benchmark) would make a GPU sweep take
// tens of minutes: a 5 us kernel then runs 100,000 iterations, each with a flush and a host sync.
// 20 ms of measured time still averages thousands of iterations at small n and >= 10 at 2^31.
// A bare number: "0.02s" is rejected by Google Benchmark 1.7 (Debian 12).
inline constexpr const char* kDefaultMinTime = "--benchmark_min_time=0.02";

// A bad flag or value. main prints what() and exits with kExitUsage.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses and removes reduce_bench's flags from argv; leaves argv[0] and every other argument.
Options parse_options(int& argc, char** argv);

const char* dist_name(Dist d);
std::string usage();

}  // namespace rb::bench
