#include "bench/detail/case.hpp"

#include <cstdio>

namespace rb::bench {

std::string Case::key() const { return backend + "/" + (shape ? shape_name(*shape) : std::to_string(n)); }

std::string Case::name() const {
  std::string name = key() + (mode == Mode::cold ? "/cold" : "/hot");
  if (min_time > 0) {
    char t[32];
    std::snprintf(t, sizeof t, "/min_time:%0.3f", min_time);  // as Google Benchmark appends it
    name += t;
  }
  return name;
}

}  // namespace rb::bench
