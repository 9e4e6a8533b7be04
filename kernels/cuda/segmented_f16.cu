// cuda/segmented over f16 (segmented.hpp): each element converted to float exactly, float
// accumulators, a float per output (half's 11 significant bits would lose what a row adds).
#include "kernels/cuda/segmented_launch.cuh"

namespace rb::cuda {

const SegmentedVariant<f16> segmented_f16 = SegmentedOf<f16>::variant();

}  // namespace rb::cuda
