#pragma once
#include <cstdint>
#include <vector>

#include "bench/cpu/backend.hpp"
#include "bench/registry.hpp"

namespace rb::bench {

// The default sweep runs CPU backends up to 2^28 floats (1 GiB): past every last-level cache, so
// the DRAM-bound regime is in it, while one call at 2^31 takes up to 3 s per backend (the 18 CPU
// rows at 5e8..2^31 cost 33 s per call on the H200 host). --sizes runs them at any size.
inline constexpr std::int64_t kCpuDefaultMaxN = std::int64_t{1} << 28;

// Binds CPU backend definitions to the session: each entry runs the CPU measurement loop.
std::vector<BackendEntry> bind_cpu_backends(Session& session, std::vector<CpuBackendDef> defs);

}  // namespace rb::bench
