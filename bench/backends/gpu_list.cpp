// Every GPU backend, one line each. The order here is the order of the sweep.
#include "bench/backends/backends.hpp"
#include "bench/backends/gpu_defs.hpp"
#include "bench/gpu/runner.hpp"

namespace rb::bench {

std::vector<BackendEntry> gpu_backend_entries(Session& session, std::string& why_not) {
  using namespace gpu;
  return bind_gpu_backends(session,
                           {
                               cub_sum(),
                               thrust_reduce(),
                               thrust_reduce_cached(),
                               thrust_transform_reduce(),
                           },
                           why_not);
}

}  // namespace rb::bench
