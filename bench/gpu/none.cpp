// Built instead of the GPU layer when nvcc was not found at configure time.
#include "bench/gpu/context.hpp"
#include "bench/run_context.hpp"

namespace rb::bench {

std::vector<BackendEntry> bind_registered_gpu_backends(Session&, std::string& why_not) {
  why_not = "GPU backends not built: nvcc was not found when this build was configured";
  return {};
}

void add_gpu_context() { set_context("gpu", "none (CPU-only build)"); }

void release_gpu() {}

}  // namespace rb::bench
