// cuda/onepass over f16 input (typed.hpp: onepass_in_f16): float accumulators, a float sum.
//   Changed from onepass: the element type (OnepassBySize<float, f16>): each 16-byte load brings
//         8 halves, converted to float in pairs (__half22float2, exact) and added pairwise before
//         they join the thread's accumulators; the head and tail hold up to 7 halves each. Shapes,
//         paths and completions are onepass's, thresholds at the same bytes (onepass.cuh).
//   Why float, not half, accumulators: a half sum overflows past 65504 and rounds at 2^-11; the
//         conversions are two per 4 bytes read, far below what the FP32 pipes issue at HBM speed.
#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/typed.hpp"

namespace rb::cuda {

const TypedVariant<f16> onepass_in_f16 = OnepassBySize<float, f16>::variant();

template TypedVariant<f16> typed_onepass_with<f16>(TuningEntry entry);

}  // namespace rb::cuda
