// The tuning grids (-DRB_TUNING_BACKENDS=ON): launch shapes of cuda/onepass and of the Triton
// kernels, registered as tune/* rows next to the real backends. Pick winners from
//   reduce_bench --benchmark_filter='tune/|cuda/onepass|triton/|cub' --sizes=...
#include "bench/backends/gpu_defs.hpp"

namespace rb::bench::gpu {

std::vector<GpuBackendDef> tuning_backends() {
  auto out = cuda_tuning_backends();
  for (auto& def : triton_tuning_backends()) out.push_back(std::move(def));
  return out;
}

}  // namespace rb::bench::gpu
