// cuda/segmented over bf16 (segmented.hpp): each element converted to float exactly, float
// accumulators, a float per output (bfloat16's 8 significant bits would lose what a row adds).
#include "kernels/cuda/segmented_launch.cuh"

namespace rb::cuda {

const SegmentedVariant<bf16> segmented_bf16 = SegmentedOf<bf16>::variant();

}  // namespace rb::cuda
