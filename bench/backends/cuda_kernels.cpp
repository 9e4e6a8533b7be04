// cuda/*: the hand-written kernels (kernels/cuda/), one definition each, all through the same
// adapter (cuda_kernel.hpp).
#include "bench/backends/cuda_kernel.hpp"
#include "bench/backends/gpu_defs.hpp"
#include "kernels/cuda/sum.hpp"

namespace rb::bench::gpu {

GpuBackendDef cuda_shfl() { return cuda_kernel("cuda/shfl", rb::cuda::shfl); }
GpuBackendDef cuda_vec4() { return cuda_kernel("cuda/vec4", rb::cuda::vec4); }
GpuBackendDef cuda_vec4_ilp4() { return cuda_kernel("cuda/vec4_ilp4", rb::cuda::vec4_ilp4); }
GpuBackendDef cuda_auto() { return cuda_kernel("cuda/auto", rb::cuda::vec4_auto); }
GpuBackendDef cuda_onepass() { return cuda_kernel("cuda/onepass", rb::cuda::onepass); }
GpuBackendDef cuda_onepass_f64() { return cuda_kernel("cuda/onepass_f64", rb::cuda::onepass_f64); }

}  // namespace rb::bench::gpu
