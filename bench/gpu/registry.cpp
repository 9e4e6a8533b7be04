// The GPU registrations (RB_REGISTER_BACKEND with a gpu::GpuBackendDef), kept from static
// initialisation until the backends are bound (bench/registration.hpp).
#include "bench/gpu/backend.hpp"

namespace rb::bench::gpu {

bool register_backends(std::function<std::vector<GpuBackendDef>()> make, const char* where) {
  return ::rb::bench::detail::add_registration(std::move(make), where);
}

std::vector<GpuBackendDef> registered_gpu_backends() {
  return ::rb::bench::detail::evaluate(::rb::bench::detail::registrations<GpuBackendDef>());
}

}  // namespace rb::bench::gpu
