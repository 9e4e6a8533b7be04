#pragma once
// The values reduce_gen writes: common/synth.hpp's own functions, so a file equals reduce_bench's
// synthetic input (--dist, --seed) bitwise, on the GPU as on the CPU.
// Every value depends only on (dist, seed, i): files can be written in any chunk order and a
// shorter file is a prefix of a longer one.
#include <cstdint>
#include <optional>
#include <string_view>

namespace rb::gen {

enum class GenDist { uniform, normal, harmonic };

const char* dist_name(GenDist d);
std::optional<GenDist> dist_from_name(std::string_view name);

float value(GenDist d, std::uint64_t seed, std::int64_t i);

// dst[0, end - begin) = x[begin, end).
void fill(GenDist d, std::uint64_t seed, float* dst, std::int64_t begin, std::int64_t end);

}  // namespace rb::gen
