// Built instead of torch_sum.cpp when libtorch was not found at configure time.
#include "bench/backends/gpu_defs.hpp"

namespace rb::bench::gpu {

GpuBackendDef torch_sum() { return unavailable_backend("torch/sum", RB_TORCH_REASON); }

}  // namespace rb::bench::gpu
