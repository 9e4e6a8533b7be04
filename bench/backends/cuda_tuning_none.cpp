// Built instead of cuda_tuning.cu unless -DRB_TUNING_BACKENDS=ON: no tuning rows.
#include "bench/backends/gpu_defs.hpp"

namespace rb::bench::gpu {

std::vector<GpuBackendDef> tuning_backends() { return {}; }

}  // namespace rb::bench::gpu
