// The GPU registrations (RB_REGISTER_BACKEND with a gpu::GpuBackendDef), kept from static
// initialisation until the backends are bound.
#include <vector>

#include "bench/gpu/backend.hpp"

namespace rb::bench::gpu {
namespace {

// A function-local static: registrars in other files run during static initialisation, in an
// order this file does not control.
std::vector<::rb::bench::detail::Registration<GpuBackendDef>>& registrations() {
  static std::vector<::rb::bench::detail::Registration<GpuBackendDef>> r;
  return r;
}

}  // namespace

bool register_backends(std::function<std::vector<GpuBackendDef>()> make, const char* where) {
  registrations().push_back({std::move(make), where});
  return true;
}

std::vector<GpuBackendDef> registered_gpu_backends() { return ::rb::bench::detail::evaluate(registrations()); }

}  // namespace rb::bench::gpu
