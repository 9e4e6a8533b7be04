// sum.hpp's table of the hand-written variants, in the order of the progression.
#include "kernels/cuda/sum.hpp"

namespace rb::cuda {
namespace {

constexpr NamedVariant kVariants[] = {
    {"shfl", &shfl, nullptr, "the textbook baseline: grid-stride scalar loads, warp shuffles, two launches"},
    {"vec4", &vec4, nullptr, "float4 loads, an SM-aware grid, one contiguous chunk per block"},
    {"vec4_ilp4", &vec4_ilp4, nullptr, "four independent float4 loads in flight per thread"},
    {"auto", &vec4_auto, nullptr, "vec4 or vec4_ilp4, by n"},
    {"onepass", &onepass, nullptr, "one launch: the last block adds the partials; shape and completion by n"},
    {"onepass_accf64", nullptr, &onepass_accf64, "onepass accumulated in double"},
};

}  // namespace

std::span<const NamedVariant> variants() { return kVariants; }

}  // namespace rb::cuda
