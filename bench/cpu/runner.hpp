#pragma once
#include <vector>

#include "bench/cpu/backend.hpp"
#include "bench/registry.hpp"

namespace rb::bench {

// Binds CPU backend definitions to the session: each entry runs the CPU measurement loop.
std::vector<BackendEntry> bind_cpu_backends(Session& session, std::vector<CpuBackendDef> defs);

}  // namespace rb::bench
