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
  normal,    // approximately standard normal: (sum of four 16-bit uniforms - 2) * sqrt(3)
  integers,  // random nonzero integers in [-8, 8]: every summation order adds them exactly (the
             // data of the exact check, bench/verify.hpp)
};

inline constexpr int kMaxOffset = 64;

struct Options {
  std::vector<std::int64_t> sizes;  // sorted, unique
  Dist dist = Dist::harmonic;
  std::uint64_t seed = 42;
  std::string input_path;           // --input: raw little-endian float32; empty = synthetic
  int offset = 0;                   // --offset: the input starts this many floats past alignment
  bool list_backends = false;
  bool help = false;
  bool user_min_time = false;       // --benchmark_min_time given: main adds no default
  bool list_tests = false;          // --benchmark_list_tests given: do not touch data
};

// A bad flag or value. main prints what() and exits with kExitUsage.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses and removes reduce_bench's flags from argv; leaves argv[0] and every other argument.
Options parse_options(int& argc, char** argv);

const char* dist_name(Dist d);
std::string usage();

}  // namespace rb::bench
