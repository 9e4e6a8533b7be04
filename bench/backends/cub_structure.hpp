#pragma once
// CUB's stated structure, for the rows that run CUB's DeviceReduce (cub.cu and thrust.cu) and the
// adapters that state theirs beside it; it brings the adapter interface with it.
#include <cstdint>

#include "bench/api/gpu_backend.hpp"

namespace rb::bench::gpu {

// CUB's DeviceReduce (and Thrust's reduce, which runs it), as stated for its bound: blocks of 256
// threads, each thread adding its items in sequence, at least one block per SM (its even-share
// grid is SMs x occupancy x 5 at large n: the chain stated here is an upper bound, not its
// length), then the block tree (8 levels) and a second pass over at most SMs x 40 partials by
// one block of 256 (a chain of <= 21 on an H200, plus 8 levels). 64 covers both with room.
// `acc`: what it adds in (float for float and 16-bit inputs summed into a float).
inline Structure cub_reduce_structure(std::int64_t n, int sm_count, Accumulator acc = Accumulator::f32) {
  return blocked(acc, n, std::int64_t{sm_count} * 256, 1, 64, acc == Accumulator::f32);
}

}  // namespace rb::bench::gpu
