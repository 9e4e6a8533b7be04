// cuda/onepass over int32 input (typed.hpp: onepass_in_i32): 64-bit integer accumulators, exact.
//   Changed from onepass: the element type and accumulator (OnepassBySize<long long, int32_t>):
//         each 16-byte load brings 4 int32s, each sign-extended before its first addition; the
//         partials travel through slots with the sign bit flipped (slots.cuh). Integer addition
//         is associative, so the sum is exact and the same in any order while |sum| < 2^63
//         (always for n <= 2^32).
#include <cstdint>

#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/typed.hpp"

namespace rb::cuda {

const TypedVariant<std::int32_t> onepass_in_i32 = OnepassBySize<long long, std::int32_t>::variant();

template TypedVariant<std::int32_t> typed_onepass_with<std::int32_t>(TuningEntry entry);

}  // namespace rb::cuda
