#pragma once
// The adapter for a multithreaded CPU backend: any runtime object from kernels/cpu
// (Threads<K>, OpenMP<K>, StdPar<K>, StdReducePar, ...) with
//   R operator()(const T*, std::int64_t)       the timed sum
//   int threads() const                        the `threads` counter
//   int parts(std::int64_t n) const            the chunks it cuts n into, each summed by one call
//                                              of the kernel, the partials added in double
// The runtime is constructed with the adapter, outside the timed loop: that is where a thread
// pool starts its threads. Its structure is the kernel's at the longest chunk, plus the double
// additions of the partials:
//   cpu_runtime<rb::cpu::Threads<rb::cpu::avx2_f32>>("cpu/avx2_f32/threads", lanes(Accumulator::f32, 32))
// T is float unless the runtime names another element_type (Threads<avx2_bf16>: bf16), whose
// chunks then start on its chunk_align elements; an integer partial (i32) is added exactly.
#include <string>
#include <type_traits>

#include "bench/cpu/backend.hpp"
#include "kernels/cpu/parallel.hpp"

namespace rb::bench {

// The element type a runtime sums and the multiple its chunk boundaries fall on.
template <class Runtime>
struct RuntimeElement {
  using type = float;
  static constexpr std::int64_t chunk_align = rb::cpu::kChunkAlign;
};
template <class Runtime>
  requires requires { typename Runtime::element_type; }
struct RuntimeElement<Runtime> {
  using type = typename Runtime::element_type;
  static constexpr std::int64_t chunk_align = Runtime::chunk_align;
};

template <class Runtime>
class RuntimeBackend final : public CpuBackend {
  using T = typename RuntimeElement<Runtime>::type;

 public:
  RuntimeBackend(const CpuProblemOf<T>& p, const Summation& kernel)
      : p_(p),
        summation_(over_chunks(
            kernel, [this](std::int64_t n) { return runtime_.parts(n); }, RuntimeElement<Runtime>::chunk_align)) {}
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
BackendDef<typename RuntimeElement<Runtime>::type> cpu_runtime(std::string name, Summation kernel,
                                                               std::string unavailable = {}) {
  using T = typename RuntimeElement<Runtime>::type;
  return {std::move(name),
          OnCpu<T>{[kernel = std::move(kernel)](const CpuProblemOf<T>& p) -> std::unique_ptr<CpuBackend> {
            return std::make_unique<RuntimeBackend<Runtime>>(p, kernel);
          }},
          std::move(unavailable)};
}

}  // namespace rb::bench
