// cuda/*: the hand-written kernels (kernels/cuda/), one row per entry of their table, all through
// the same adapter (cuda_kernel.hpp).
#include <string>
#include <vector>

#include "bench/backends/cuda_kernel.hpp"
#include "bench/backends/gpu_defs.hpp"
#include "kernels/cuda/sum.hpp"

namespace rb::bench::gpu {

namespace {

// cuda/<name> for every entry of kernels/cuda/sum.hpp's table, in its order (the progression).
std::vector<GpuBackendDef> cuda_kernels() {
  std::vector<GpuBackendDef> out;
  for (const auto& v : rb::cuda::variants()) {
    const std::string name = "cuda/" + std::string(v.name);
    out.push_back(v.f32 ? cuda_kernel(name, *v.f32) : cuda_kernel(name, *v.f64));
  }
  return out;
}

}  // namespace

// One registration for the whole table.
RB_REGISTER_BACKEND(cuda_kernels());

}  // namespace rb::bench::gpu
