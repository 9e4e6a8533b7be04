// A user's CPU kernel and its adapter, registered with reduce_bench's harness in one line.
// sum4 keeps four float accumulators, each over every fourth element, and adds them pairwise at
// the end: that is lanes(Accumulator::f32, 4) (bench/api/summation.hpp), from which the harness
// derives the accuracy bound it checks every result against.
#include <cstdint>

#include "bench/api/cpu_backend.hpp"

namespace {

float sum4(const float* x, std::int64_t n) {
  float lane[4] = {0, 0, 0, 0};
  std::int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    for (int l = 0; l < 4; ++l) lane[l] += x[i + l];
  }
  for (int l = 0; i < n; ++i, ++l) lane[l] += x[i];  // the last n % 4: still one chain per lane
  return (lane[0] + lane[1]) + (lane[2] + lane[3]);
}

}  // namespace

RB_REGISTER_BACKEND(rb::bench::cpu_function<&sum4>("my/cpu_sum4", rb::bench::lanes(rb::bench::Accumulator::f32, 4)));
