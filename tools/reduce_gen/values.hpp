#pragma once
// The values reduce_gen writes. uniform and harmonic are bench/synth.hpp's own functions (so a
// file equals reduce_bench's synthetic input bitwise); normal exists only here, on the host.
// Every value depends only on (dist, seed, i): files can be written in any chunk order and a
// shorter file is a prefix of a longer one.
#include <cstdint>
#include <optional>
#include <string_view>

namespace rb::gen {

enum class GenDist { uniform, normal, harmonic };

const char* dist_name(GenDist d);
std::optional<GenDist> dist_from_name(std::string_view name);

// Standard normal by Box-Muller on 64 hashed bits of (seed, i): the high 32 bits give
// u1 in (0, 1), the low 32 bits u2 in [0, 1); one value per index (the sine partner is dropped
// so that x[i] needs nothing but i). Computed in double and rounded once to float. |x| < 6.8:
// the 32-bit u1 truncates tails beyond 6.8 sigma, expected fewer than 0.02 values per 10^9.
// Deterministic for a seed given the same libm (glibc's log/cos are correctly rounded in
// practice); the file, not the formula, is what a run should be reproduced from.
float normal(std::uint64_t seed, std::int64_t i);

float value(GenDist d, std::uint64_t seed, std::int64_t i);

// dst[0, end - begin) = x[begin, end).
void fill(GenDist d, std::uint64_t seed, float* dst, std::int64_t begin, std::int64_t end);

}  // namespace rb::gen
