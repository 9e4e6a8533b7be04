// The CPU registrations (RB_REGISTER_BACKEND with a CpuBackendDef), kept from static
// initialisation until the backends are bound (bench/registration.hpp).
#include "bench/cpu/backend.hpp"

namespace rb::bench {

bool register_backends(std::function<std::vector<CpuBackendDef>()> make, const char* where) {
  return detail::add_registration(std::move(make), where);
}

std::vector<CpuBackendDef> registered_cpu_backends() { return detail::evaluate(detail::registrations<CpuBackendDef>()); }

}  // namespace rb::bench
