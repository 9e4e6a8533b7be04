// Every GPU backend, one line each. The order here is the order of the sweep.
#include "bench/backends/backends.hpp"
#include "bench/backends/gpu_defs.hpp"
#include "bench/gpu/runner.hpp"

namespace rb::bench {

std::vector<BackendEntry> gpu_backend_entries(Session& session, std::string& why_not) {
  using namespace gpu;
  std::vector<GpuBackendDef> defs = {
      cub_sum(),
      cuda_shfl(),
      cuda_vec4(),
      cuda_vec4_ilp4(),
      cuda_auto(),
      cuda_onepass(),
      cuda_onepass_f64(),
      thrust_reduce(),
      thrust_reduce_cached(),
      torch_sum(),
      ref_launch(),
      ref_read(),
  };
  for (auto& def : triton_backends()) defs.push_back(std::move(def));
  for (auto& def : tuning_backends()) defs.push_back(std::move(def));
  return bind_gpu_backends(session, std::move(defs), why_not);
}

}  // namespace rb::bench
