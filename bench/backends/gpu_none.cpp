// Built instead of gpu_list.cpp when nvcc was not found at configure time.
#include "bench/backends/backends.hpp"

namespace rb::bench {

std::vector<BackendEntry> gpu_backend_entries(Session&, std::string& why_not) {
  why_not = "GPU backends not built: nvcc was not found when this build was configured";
  return {};
}

}  // namespace rb::bench
