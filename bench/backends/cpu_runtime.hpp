#pragma once
// The adapter for a multithreaded CPU backend: any runtime object from kernels/cpu
// (Threads<K>, OpenMP<K>, StdPar<K>, StdReducePar, ...) with
//   R operator()(const float*, std::int64_t)   the timed sum
//   int threads() const                        the `threads` counter
// The runtime is constructed with the adapter, outside the timed loop: that is where a thread
// pool starts its threads.
//   cpu_runtime<rb::cpu::Threads<rb::cpu::avx2_f32>>("cpu/avx2_f32/threads", Accumulation::...)
#include <string>

#include "bench/cpu/backend.hpp"

namespace rb::bench {

template <class Runtime>
class RuntimeBackend final : public CpuBackend {
 public:
  explicit RuntimeBackend(const CpuProblem& p) : p_(p) {}
  double run() override { return static_cast<double>(runtime_(p_.data, p_.n)); }
  int threads() const override { return runtime_.threads(); }

 private:
  CpuProblem p_;
  Runtime runtime_;
};

template <class Runtime>
CpuBackendDef cpu_runtime(std::string name, Accumulation acc, std::string unavailable = {}) {
  return cpu_backend<RuntimeBackend<Runtime>>(std::move(name), acc, std::move(unavailable));
}

}  // namespace rb::bench
