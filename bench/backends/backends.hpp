#pragma once
// The backend lists, as main sees them (no CUDA types).
#include <string>
#include <vector>

#include "bench/registry.hpp"

namespace rb::bench {

std::vector<BackendEntry> cpu_backend_entries(Session& session);  // backends/cpu_list.cpp
// Without a usable GPU (or without CUDA in this build) the entries are unavailable, or absent,
// and `why_not` says why.
std::vector<BackendEntry> gpu_backend_entries(Session& session, std::string& why_not);  // gpu_list.cpp
}  // namespace rb::bench
