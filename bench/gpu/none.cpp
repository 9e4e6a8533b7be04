// Built instead of the GPU layer when nvcc was not found at configure time.
#include "bench/gpu/context.hpp"
#include "bench/detail/run_context.hpp"

namespace rb::bench {

template <class T>
std::vector<BackendEntry> bind_gpu_rows(Session&, std::vector<BackendDef<T>> defs, std::string& why_not) {
  why_not = std::string(kGpuNotBuilt) + ": nvcc was not found when this build was configured";
  std::vector<BackendEntry> out;
  for (const auto& def : defs) {
    BackendEntry e;
    e.name = def.name + dtype_suffix(dtype_of<T>);
    e.dtype = dtype_of<T>;
    e.unavailable = why_not;
    e.determinism = def.determinism;
    e.shaped = def.shaped;
    e.collective = def.collective();
    out.push_back(std::move(e));
  }
  return out;
}

#define RB_BIND_GPU_ROWS(T) \
  template std::vector<BackendEntry> bind_gpu_rows(Session&, std::vector<BackendDef<T>>, std::string&);
RB_FOR_EACH_ELEMENT_TYPE(RB_BIND_GPU_ROWS)

void add_gpu_context() { set_context("gpu", "none (CPU-only build)"); }

void release_gpu() {}

}  // namespace rb::bench
