// Built instead of the GPU layer when nvcc was not found at configure time.
#include "bench/gpu/context.hpp"
#include "bench/run_context.hpp"

namespace rb::bench {

std::vector<BackendEntry> bind_gpu_rows(Session&, std::vector<BackendDef<float>> defs, std::string& why_not) {
  why_not = "GPU backends not built: nvcc was not found when this build was configured";
  std::vector<BackendEntry> out;
  for (const auto& def : defs) {
    BackendEntry e;
    e.name = def.name;
    e.unavailable = why_not;
    e.determinism = def.determinism;
    e.collective = def.collective();
    out.push_back(std::move(e));
  }
  return out;
}

void add_gpu_context() { set_context("gpu", "none (CPU-only build)"); }

void release_gpu() {}

}  // namespace rb::bench
