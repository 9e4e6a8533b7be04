#pragma once
// The synthetic inputs, written once for both sides: the GPU generates its buffer with these
// functions and the CPU generates its copy (and the reference) with the same ones. Every step is
// exact or correctly rounded in IEEE float (integer hashing, int->float conversion, one division
// or one scale-and-subtract), so both sides hold bitwise the same values; a GPU test checks it.
#include <cstdint>


#if defined(__CUDACC__)
#define RB_HOST_DEVICE __host__ __device__
#else
#define RB_HOST_DEVICE
#endif

namespace rb::synth {

// What a synthetic input holds (reduce_bench --dist, reduce_gen). Generated identically on the
// GPU and the CPU.
enum class Dist {
  harmonic,  // x[i] = 1 / (i + 1): positive, slowly shrinking
  uniform,   // signed uniform in [-1, 1) from a counter-based hash of (seed, i)
  normal,    // approximately standard normal: (sum of four 16-bit uniforms - 2) * sqrt(3)
  integers,  // random nonzero integers in [-8, 8], neighbours of different parity: every summation
             // order adds them exactly (the data of the exact check)
  positive,  // uniform in [0, 1): the same draws as uniform, halved and shifted; sums grow as n / 2
};


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

// Irwin-Hall: four 16-bit uniforms from one hash, summed exactly (each is k / 2^16), centred and
// scaled to unit variance with one rounding: approximately N(0, 1), bounded by +-2 sqrt(3).
RB_HOST_DEVICE inline float normal(std::uint64_t seed, std::int64_t i) {
  const std::uint64_t bits =
      mix(mix(seed ^ 0x6A09E667F3BCC909ULL) + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(i));
  const auto u = [bits](int k) { return static_cast<float>((bits >> (16 * k)) & 0xFFFFu) * (1.0f / 65536.0f); };
  return ((u(0) + u(1)) + (u(2) + u(3)) - 2.0f) * 1.7320508075688772f;
}

// A sign and a magnitude from one hash: odd (1, 3, 5, 7) at even i, even (2, 4, 6, 8) at odd i, so
// no element is zero, neighbours always differ (reading x[i+-1] for x[i] changes the sum by an odd
// number) and two neighbours never cancel (their sum is odd). Random signs keep every partial sum
// of any order that does not look at the values a random walk: |partial| stays below 2^24 with
// overwhelming probability (Hoeffding: P < 2 exp(-2^48 / (2 * 64 * m)) for a partial of m terms,
// ~e^-512 at m = 2^32), so float additions of them are exact.
RB_HOST_DEVICE inline float integer(std::uint64_t seed, std::int64_t i) {
  const std::uint64_t bits =
      mix(mix(seed ^ 0xB7E151628AED2A6BULL) + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(i));
  const auto magnitude = static_cast<float>(2 * ((bits >> 32) & 3u) + 1 + static_cast<std::uint64_t>(i & 1));
  // The sign as a factor of +-1 (exact), not a branch: a random sign mispredicts half the time, and
  // the host generates billions of these for the exact check's data and references.
  return (1.0f - 2.0f * static_cast<float>(bits >> 63)) * magnitude;
}

RB_HOST_DEVICE inline float value(Dist dist, std::uint64_t seed, std::int64_t i) {
  switch (dist) {
    case Dist::harmonic: return harmonic(i);
    case Dist::uniform: return uniform(seed, i);
    case Dist::normal: return normal(seed, i);
    case Dist::integers: return integer(seed, i);
    case Dist::positive: return 0.5f * uniform(seed, i) + 0.5f;  // k / 2^24: exact
  }
  return 0.0f;
}

}  // namespace rb::synth
