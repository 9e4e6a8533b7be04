#pragma once
// The synthetic inputs, written once for both sides: the GPU generates its buffer with these
// functions and the CPU generates its copy (and the reference) with the same ones. Every step is
// exact or correctly rounded in IEEE float (integer hashing, int->float conversion, one division
// or one scale-and-subtract), so both sides hold bitwise the same values; a GPU test checks it.
#include <cstdint>

#include "bench/options.hpp"

#if defined(__CUDACC__)
#define RB_HOST_DEVICE __host__ __device__
#else
#define RB_HOST_DEVICE
#endif

namespace rb::bench::synth {

// splitmix64's finalizer: a bijective mix, so distinct (seed, i) give independent-looking bits.
RB_HOST_DEVICE inline std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

RB_HOST_DEVICE inline float harmonic(std::int64_t i) {
  return 1.0f / static_cast<float>(i + 1);
}

// 24 random bits k -> k / 2^23 - 1: exact in float, uniform over [-1, 1) on a 2^-23 grid.
RB_HOST_DEVICE inline float uniform(std::uint64_t seed, std::int64_t i) {
  const std::uint64_t bits = mix(mix(seed) + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(i));
  const auto k = static_cast<std::uint32_t>(bits >> 40);
  return static_cast<float>(k) * (1.0f / 8388608.0f) - 1.0f;
}

RB_HOST_DEVICE inline float value(Dist dist, std::uint64_t seed, std::int64_t i) {
  return dist == Dist::harmonic ? harmonic(i) : uniform(seed, i);
}

}  // namespace rb::bench::synth
