#pragma once
// The adapter for a multithreaded CPU backend: any runtime object from kernels/cpu
// (Threads<K>, OpenMP<K>, StdPar<K>, StdReducePar, ...) with
//   R operator()(const float*, std::int64_t)   the timed sum
//   int threads() const                        the `threads` counter
//   int parts(std::int64_t n) const            the chunks it cuts n into, each summed by one call
//                                              of the kernel, the partials added in double
// The runtime is constructed with the adapter, outside the timed loop: that is where a thread
// pool starts its threads. Its structure is the kernel's at the longest chunk, plus the double
// additions of the partials:
//   cpu_runtime<rb::cpu::Threads<rb::cpu::avx2_f32>>("cpu/avx2_f32/threads", lanes(Accumulator::f32, 32))
#include <string>
#include <type_traits>

#include "bench/cpu/backend.hpp"
#include "kernels/cpu/parallel.hpp"

namespace rb::bench {

template <class Runtime>
class RuntimeBackend final : public CpuBackend {
 public:
  RuntimeBackend(const CpuProblem& p, const Summation& kernel)
      : p_(p),
        summation_(over_chunks(
            kernel, [this](std::int64_t n) { return runtime_.parts(n); }, rb::cpu::kChunkAlign)) {}
  double run() override { return static_cast<double>(runtime_(p_.data, p_.n)); }
  Structure structure() const override {
    Structure s = summation_(p_.n);
    s.float_result = std::is_same_v<std::invoke_result_t<Runtime&, const float*, std::int64_t>, float>;
    return s;
  }
  int threads() const override { return runtime_.threads(); }

 private:
  CpuProblem p_;
  Runtime runtime_;
  Summation summation_;
};

template <class Runtime>
BackendDef<float> cpu_runtime(std::string name, Summation kernel, std::string unavailable = {}) {
  return {std::move(name),
          OnCpu<float>{[kernel = std::move(kernel)](const CpuProblem& p) -> std::unique_ptr<CpuBackend> {
            return std::make_unique<RuntimeBackend<Runtime>>(p, kernel);
          }},
          std::move(unavailable)};
}

}  // namespace rb::bench
