#pragma once
// The adapter for a multithreaded CPU backend: any runtime object from kernels/cpu
// (Threads<K>, OpenMP<K>, StdPar<K>, StdReducePar, ...) with
//   using element_type = T                     what it sums
//   R operator()(const T*, std::int64_t)       the timed sum
//   int threads() const                        the `threads` counter
//   int parts(std::int64_t n) const            the chunks it cuts n into (on 64-byte multiples,
//                                              kChunkAlignOf<T>), each summed by one call of the
//                                              kernel, the partials added in double
// The runtime is constructed with the adapter, outside the timed loop: that is where a thread
// pool starts its threads. Its structure is the kernel's at the longest chunk, plus the double
// additions of the partials:
//   cpu_runtime<rb::cpu::Threads<rb::cpu::avx2_f32>>("cpu/avx2/threads", lanes(Accumulator::f32, 32))
// An integer partial (Threads<avx2_i32>) is added exactly.
#include <string>
#include <type_traits>

#include "bench/api/cpu_backend.hpp"
#include "kernels/cpu/parallel.hpp"

namespace rb::bench {

template <class Runtime>
class RuntimeBackend final : public CpuBackend {
  using T = typename Runtime::element_type;

 public:
  RuntimeBackend(const CpuProblemOf<T>& p, const Summation& kernel)
      : p_(p),
        summation_(over_chunks(
            kernel, [this](std::int64_t n) { return runtime_.parts(n); }, rb::cpu::kChunkAlignOf<T>)) {}
  double run() override { return static_cast<double>(runtime_(p_.data, p_.n)); }
  Structure structure() const override {
    using R = std::invoke_result_t<Runtime&, const T*, std::int64_t>;
    Structure s = summation_(p_.n);
    s.float_result = std::is_same_v<R, float>;
    if constexpr (std::is_integral_v<R>) s.f64_adds = 0;  // int64 partials, added exactly
    return s;
  }
  int threads() const override { return runtime_.threads(); }

 private:
  CpuProblemOf<T> p_;
  Runtime runtime_;
  Summation summation_;
};

template <class Runtime>
BackendDef<typename Runtime::element_type> cpu_runtime(std::string name, Summation kernel,
                                                               std::string unavailable = {}) {
  using T = typename Runtime::element_type;
  return {std::move(name),
          OnCpu<T>{[kernel = std::move(kernel)](const CpuProblemOf<T>& p) -> std::unique_ptr<CpuBackend> {
            return std::make_unique<RuntimeBackend<Runtime>>(p, kernel);
          }},
          std::move(unavailable)};
}

}  // namespace rb::bench
