// cuda/segmented over float32 (segmented.hpp): float accumulators, a float per output.
#include "kernels/cuda/segmented_launch.cuh"

namespace rb::cuda {

const SegmentedVariant<float> segmented_f32 = SegmentedOf<float>::variant();

}  // namespace rb::cuda
