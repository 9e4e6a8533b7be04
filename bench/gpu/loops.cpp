// The registrations of GPU rows with their own loop (bench/gpu/loops.hpp).
#include "bench/gpu/loops.hpp"

namespace rb::bench::gpu {
namespace {

std::vector<::rb::bench::detail::Registration<GpuLoopDef>>& registrations() {
  static std::vector<::rb::bench::detail::Registration<GpuLoopDef>> r;
  return r;
}

}  // namespace

bool register_backends(std::function<std::vector<GpuLoopDef>()> make, const char* where) {
  registrations().push_back({std::move(make), where});
  return true;
}

std::vector<GpuLoopDef> registered_gpu_loops() { return ::rb::bench::detail::evaluate(registrations()); }

}  // namespace rb::bench::gpu
