#pragma once
#include <string>
#include <vector>

#include "bench/gpu/backend.hpp"
#include "bench/registry.hpp"

namespace rb::bench::gpu {

// Binds GPU backend definitions to the session: each entry runs the GPU measurement loop.
// Without a usable device every entry is unavailable and `why_not` says why.
std::vector<BackendEntry> bind_gpu_backends(Session& session, std::vector<GpuBackendDef> defs,
                                            std::string& why_not);

}  // namespace rb::bench::gpu
