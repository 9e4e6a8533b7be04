#pragma once
// reduce_gen's command line: `reduce_gen OUT.bin -n N [--seed S] [--dist uniform|normal|harmonic]`.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/reduce_gen/values.hpp"

namespace rb::gen {

struct GenOptions {
  std::string out;             // the file to write
  std::int64_t n = 0;          // float32 values, >= 1
  std::uint64_t seed = 42;     // reduce_bench's default --seed
  GenDist dist = GenDist::uniform;
  bool quiet = false;          // no progress line
  bool help = false;
};

// A bad or missing argument; main prints what() and exits kExitUsage.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr int kExitOk = 0;
inline constexpr int kExitIo = 1;     // the file could not be written
inline constexpr int kExitUsage = 2;  // bad arguments

// args excludes the program name. Throws UsageError naming the offending argument.
GenOptions parse_args(const std::vector<std::string>& args);
std::string usage();

}  // namespace rb::gen
