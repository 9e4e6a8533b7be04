#include "tools/reduce_gen/values.hpp"

#include <cmath>
#include <numbers>

#include "bench/synth.hpp"

namespace rb::gen {
namespace {

namespace synth = rb::bench::synth;

// XORed into the seed so that normal's stream is not uniform's for the same seed.
constexpr std::uint64_t kNormalStream = 0x6E6F726D616C2121ULL;  // "normal!!"
constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;

template <class F>
void fill_with(F f, float* dst, std::int64_t begin, std::int64_t end) {
  for (std::int64_t i = begin; i < end; ++i) dst[i - begin] = f(i);
}

}  // namespace

const char* dist_name(GenDist d) {
  switch (d) {
    case GenDist::uniform: return "uniform";
    case GenDist::normal: return "normal";
    case GenDist::harmonic: return "harmonic";
  }
  return "?";
}

std::optional<GenDist> dist_from_name(std::string_view name) {
  for (const auto d : {GenDist::uniform, GenDist::normal, GenDist::harmonic}) {
    if (name == dist_name(d)) return d;
  }
  return std::nullopt;
}

float normal(std::uint64_t seed, std::int64_t i) {
  const std::uint64_t bits = synth::mix(synth::mix(seed ^ kNormalStream) + kGolden * static_cast<std::uint64_t>(i));
  const double u1 = (static_cast<double>(bits >> 32) + 0.5) * 0x1p-32;  // never 0: log is finite
  const double u2 = static_cast<double>(bits & 0xFFFFFFFFULL) * 0x1p-32;
  return static_cast<float>(std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2));
}

float value(GenDist d, std::uint64_t seed, std::int64_t i) {
  switch (d) {
    case GenDist::uniform: return synth::uniform(seed, i);
    case GenDist::normal: return normal(seed, i);
    case GenDist::harmonic: return synth::harmonic(i);
  }
  return 0.0f;
}

void fill(GenDist d, std::uint64_t seed, float* dst, std::int64_t begin, std::int64_t end) {
  // One loop per distribution, not a switch per value: the uniform loop is a few integer ops.
  switch (d) {
    case GenDist::uniform:
      fill_with([seed](std::int64_t i) { return synth::uniform(seed, i); }, dst, begin, end);
      break;
    case GenDist::normal:
      fill_with([seed](std::int64_t i) { return normal(seed, i); }, dst, begin, end);
      break;
    case GenDist::harmonic:
      fill_with([](std::int64_t i) { return synth::harmonic(i); }, dst, begin, end);
      break;
  }
}

}  // namespace rb::gen
