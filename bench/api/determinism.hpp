#pragma once
// What a backend promises about the bits of its sum, in CUB's terms (cuda::execution::determinism):
//   not_guaranteed  no promise: the order of additions may change from call to call (float
//                   atomics, a work-stealing scheduler, an OpenMP reduction's combine order)
//   run_to_run      the same bits on every call with the same input on the same device (for a CPU
//                   row: the same machine and thread count)
//   gpu_to_gpu      the same bits on any GPU (CUB's reproducible accumulation)
// The harness holds every row to its promise: a row that promises run_to_run or more and returns
// different bits from two calls fails verification (bench/detail/verify.hpp, check_repeatable).
#include <string_view>

namespace rb::bench {

enum class Determinism { not_guaranteed, run_to_run, gpu_to_gpu };

// A backend definition (BackendDef, bench/api/definition.hpp) with its promise stated; a definition
// that states none promises run_to_run.
template <class Def>
Def promising(Determinism d, Def def) {
  def.determinism = d;
  return def;
}

constexpr std::string_view determinism_name(Determinism d) noexcept {
  switch (d) {
    case Determinism::not_guaranteed: return "not_guaranteed";
    case Determinism::run_to_run: return "run_to_run";
    case Determinism::gpu_to_gpu: return "gpu_to_gpu";
  }
  return "?";
}

}  // namespace rb::bench
