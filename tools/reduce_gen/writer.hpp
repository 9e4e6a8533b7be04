#pragma once
// Streams generated values to a file in fixed-size chunks: memory stays bounded (two chunk
// buffers) however large the file, and generating one chunk overlaps writing the previous one.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include "tools/reduce_gen/values.hpp"

namespace rb::gen {

// Values per chunk: 16 MiB buffers, two of them (32 MiB) — under the 64 MiB RSS budget, and
// large enough that each write(2) and each parallel fill amortizes its fixed cost.
inline constexpr std::int64_t kChunkValues = std::int64_t{1} << 22;

struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Progress {
  std::int64_t written = 0;  // values on disk (handed to the kernel) so far
  std::int64_t total = 0;
  double seconds = 0;        // since the start
};

// Writes x[0, n) of dist/seed to path as little-endian float32, calling progress after every
// chunk. Throws WriteError (path and reason); a regular file it could not finish is removed.
void write_values(const std::string& path, GenDist dist, std::uint64_t seed, std::int64_t n,
                  const std::function<void(const Progress&)>& progress = {});

}  // namespace rb::gen
