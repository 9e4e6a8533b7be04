// cuda/onepass over bf16 input (typed.hpp: onepass_in_bf16): float accumulators, a float sum.
//   Changed from onepass: the element type (OnepassBySize<float, bf16>): each 16-byte load brings
//         8 bfloat16s, converted to float in pairs (__bfloat1622float2: exact, a shift) and added
//         pairwise; head and tail up to 7 elements each. Everything else as onepass_in_f16.cu.
//   Why float accumulators: bfloat16 keeps 8 significant bits, so a bf16 sum would lose any
//         element below 2^-8 of the running total.
#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/typed.hpp"

namespace rb::cuda {

const TypedVariant<bf16> onepass_in_bf16 = OnepassBySize<float, bf16>::variant();

template TypedVariant<bf16> typed_onepass_with<bf16>(TuningEntry entry);

}  // namespace rb::cuda
