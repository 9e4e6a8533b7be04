// cuda/*: the hand-written kernels (kernels/cuda/), one row per entry of their table, all through
// the same adapter (cuda_kernel.hpp).
#include <cuda_runtime.h>

#include <exception>
#include <string>
#include <vector>

#include "bench/backends/cuda_kernel.hpp"
#include "bench/backends/cub_structure.hpp"
#include "bench/detail/run_context.hpp"
#include "kernels/cuda/sum.hpp"

namespace rb::bench::gpu {

namespace {

std::string note_onepass_tuning() {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};  // no device: the rows are unavailable for that reason already
  }
  try {
    set_context("onepass_tuning", rb::cuda::onepass_tuning_name(device));
  } catch (const std::exception&) {
    (void)cudaGetLastError();
  }
  return {};
}

// cuda/<name> for every entry of kernels/cuda/sum.hpp's table, in its order (the progression).
std::vector<BackendDef<float>> cuda_kernels() {
  std::vector<BackendDef<float>> out;
  for (const auto& v : rb::cuda::variants()) {
    const std::string name = "cuda/" + std::string(v.name);
    out.push_back(v.f32 ? cuda_kernel(name, *v.f32) : cuda_kernel(name, *v.f64));
    // onepass picks its launch shapes by the device's architecture: the JSON context says which.
    if (name.starts_with("cuda/onepass")) out.back().probe = note_onepass_tuning;
  }
  return out;
}

}  // namespace

// One registration for the whole table.
RB_REGISTER_BACKEND(cuda_kernels());

}  // namespace rb::bench::gpu
