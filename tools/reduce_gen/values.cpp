#include "tools/reduce_gen/values.hpp"

#include "common/synth.hpp"

namespace rb::gen {
namespace {

namespace synth = rb::synth;

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

float value(GenDist d, std::uint64_t seed, std::int64_t i) {
  switch (d) {
    case GenDist::uniform: return synth::uniform(seed, i);
    case GenDist::normal: return synth::normal(seed, i);
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
      fill_with([seed](std::int64_t i) { return synth::normal(seed, i); }, dst, begin, end);
      break;
    case GenDist::harmonic:
      fill_with([](std::int64_t i) { return synth::harmonic(i); }, dst, begin, end);
      break;
  }
}

}  // namespace rb::gen
