// The CPU registrations (RB_REGISTER_BACKEND with a CpuBackendDef), kept from static
// initialisation until the backends are bound.
#include <vector>

#include "bench/cpu/backend.hpp"

namespace rb::bench {
namespace {

// A function-local static: registrars in other files run during static initialisation, in an
// order this file does not control.
std::vector<detail::Registration<CpuBackendDef>>& registrations() {
  static std::vector<detail::Registration<CpuBackendDef>> r;
  return r;
}

}  // namespace

bool register_backends(std::function<std::vector<CpuBackendDef>()> make, const char* where) {
  registrations().push_back({std::move(make), where});
  return true;
}

std::vector<CpuBackendDef> registered_cpu_backends() { return detail::evaluate(registrations()); }

}  // namespace rb::bench
