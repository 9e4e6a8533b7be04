// The registrations of GPU rows with their own loop (bench/gpu/loops.hpp).
#include "bench/gpu/loops.hpp"

namespace rb::bench::gpu {

bool register_backends(std::function<std::vector<GpuLoopDef>()> make, const char* where) {
  return ::rb::bench::detail::add_registration(std::move(make), where);
}

std::vector<GpuLoopDef> registered_gpu_loops() {
  return ::rb::bench::detail::evaluate(::rb::bench::detail::registrations<GpuLoopDef>());
}

}  // namespace rb::bench::gpu
