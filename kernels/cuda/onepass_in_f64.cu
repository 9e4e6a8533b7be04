// cuda/onepass over double input (typed.hpp: onepass_in_f64): double accumulators, a double sum.
//   Changed from onepass_accf64 (float input, double accumulators): the element type
//         (OnepassBySize<double, double>): each 16-byte load brings 2 doubles, no conversion; head
//         and tail up to 1 element each. Registers as onepass_accf64: 8 loads of 16 bytes and 8
//         double accumulators per thread on the Large shape.
#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/typed.hpp"

namespace rb::cuda {

const TypedVariant<double> onepass_in_f64 = OnepassBySize<double, double>::variant();

template TypedVariant<double> typed_onepass_with<double>(TuningEntry entry);

}  // namespace rb::cuda
