// Built instead of triton.cpp when the build has no embeddable Python or no pybind11.
#include "bench/backends/gpu_defs.hpp"

namespace rb::bench::gpu {

std::vector<GpuBackendDef> triton_backends() {
  return {unavailable_backend("triton/two_pass", RB_TRITON_REASON), unavailable_backend("triton/onepass", RB_TRITON_REASON)};
}

std::vector<GpuBackendDef> triton_tuning_backends() { return {}; }

}  // namespace rb::bench::gpu
