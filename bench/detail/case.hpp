#pragma once
// One benchmark's identity (backend, n or shape, mode, element type) and the two ways a case stops
// short.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "common/shape.hpp"

#include "bench/detail/element.hpp"

namespace rb::bench {

enum class Mode { cold, hot };

// One benchmark: <backend>/<n>/<mode>, or <backend>/<B>x<N>[/cols]/<mode> for a sum along a
// dimension (common/shape.hpp); the backend's name ends in @<dtype> for types other than f32
// (bench/detail/element.hpp).
struct Case {
  std::string backend;
  std::int64_t n = 0;  // the elements read: B x N for a shape
  Mode mode = Mode::hot;
  Dtype dtype = Dtype::f32;
  std::optional<Shape2D> shape = {};  // a sum along a dimension (--shapes); empty: the sum of x[0, n)
  // > 0: timed by Google Benchmark's rule with this min time, as the twin --compare_min_time
  // registers beside the stopping rule's case; the name then ends in /min_time:<seconds>.
  double min_time = 0;
  std::string name() const;
  // The benchmark's name without its mode: what the exact check is done once for.
  std::string key() const;
  // The sums one call writes: 1, or the shape's outputs (floats).
  std::int64_t outputs() const noexcept { return shape ? shape->outputs() : 1; }
  // The bytes one call moves: n elements of the case's type read, and a shape's float outputs
  // written (the one-dimensional sum's single result is not counted).
  std::int64_t bytes() const noexcept { return n * dtype_bytes(dtype) + written_bytes(); }
  std::int64_t written_bytes() const noexcept { return shape ? shape->outputs() * 4 : 0; }
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
