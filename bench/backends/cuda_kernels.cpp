// cuda/*: the hand-written kernels (kernels/cuda/), one definition each, all through the same
// adapter (cuda_kernel.hpp).
#include "bench/backends/cuda_kernel.hpp"
#include "bench/backends/gpu_defs.hpp"
#include "kernels/cuda/sum.hpp"

namespace rb::bench::gpu {

// One registration, in the order of the progression.
RB_REGISTER_BACKEND(std::vector<GpuBackendDef>{
    cuda_kernel("cuda/shfl", rb::cuda::shfl),
    cuda_kernel("cuda/vec4", rb::cuda::vec4),
    cuda_kernel("cuda/vec4_ilp4", rb::cuda::vec4_ilp4),
    cuda_kernel("cuda/auto", rb::cuda::vec4_auto),
    cuda_kernel("cuda/onepass", rb::cuda::onepass),
    cuda_kernel("cuda/onepass_f64", rb::cuda::onepass_f64),
});

}  // namespace rb::bench::gpu
