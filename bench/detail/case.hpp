#pragma once
// One benchmark's identity (backend, n, mode, element type) and the two ways a case stops short.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "bench/detail/element.hpp"

namespace rb::bench {

enum class Mode { cold, hot };

// One benchmark: <backend>/<n>/<mode>, the backend's name ending in @<dtype> for types other
// than f32 (bench/detail/element.hpp).
struct Case {
  std::string backend;
  std::int64_t n = 0;
  Mode mode = Mode::hot;
  Dtype dtype = Dtype::f32;
  // > 0: timed by Google Benchmark's rule with this min time, as the twin --compare_min_time
  // registers beside the stopping rule's case; the name then ends in /min_time:<seconds>.
  double min_time = 0;
  std::string name() const;
  // The bytes one call reads: n elements of the case's type.
  std::int64_t bytes() const noexcept { return n * dtype_bytes(dtype); }
};

// This case cannot run here (too large for memory, longer than the input file, ...). Not an
// error: the benchmark is skipped with the message and the run's exit status stays 0.
struct Skip : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A check that a backend broke while the exact check ran it (bench/gpu/stream_check.hpp): the row
// fails with the message, as a verification failure.
struct CheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace rb::bench
