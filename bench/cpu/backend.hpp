#pragma once
// The shape of a CPU backend adapter:
//   - the constructor does any set-up (thread pools, buffers); it is not timed;
//   - run() computes the sum of problem.data[0, n) and returns it; it is the timed call;
//   - structure() states how it adds (bench/summation.hpp): its accuracy bound follows from it.
// Register it with one line at namespace scope in the adapter's own file (bench/registration.hpp):
//   RB_REGISTER_BACKEND(cpu_backend<MyAdapter>("cpu/my_kernel"));
// or, for a plain function `R f(const float*, std::int64_t)`, with the kernel's structure:
//   RB_REGISTER_BACKEND(cpu_function<&f>("cpu/my_kernel", lanes(Accumulator::f32, 8)));
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/determinism.hpp"
#include "bench/registration.hpp"
#include "bench/summation.hpp"

namespace rb::bench {

struct CpuProblem {
  const float* data;  // host copy of the input; 64-byte aligned unless --offset
  std::int64_t n;
};

class CpuBackend {
 public:
  virtual ~CpuBackend() = default;
  virtual double run() = 0;
  virtual Structure structure() const = 0;
  // Threads the timed call uses (the `threads` counter).
  virtual int threads() const { return 1; }
};

struct CpuBackendDef {
  std::string name;
  std::function<std::unique_ptr<CpuBackend>(const CpuProblem&)> make;
  std::string unavailable;  // e.g. "CPU lacks AVX-512F"; empty when it can run
  Determinism determinism = Determinism::run_to_run;  // what its sums promise (bench/determinism.hpp)
};

// A backend this build or machine cannot run, listed with the reason and skipped.
inline CpuBackendDef unavailable_backend(std::string name, std::string why) {
  return {std::move(name),
          [](const CpuProblem&) -> std::unique_ptr<CpuBackend> { throw std::logic_error("unavailable backend"); },
          std::move(why)};
}

template <class Adapter>
CpuBackendDef cpu_backend(std::string name, std::string unavailable = {}) {
  return {std::move(name),
          [](const CpuProblem& p) -> std::unique_ptr<CpuBackend> { return std::make_unique<Adapter>(p); },
          std::move(unavailable)};
}

// The result type of a kernel `R f(const float*, std::int64_t)`: a float result is rounded once.
template <auto Kernel>
inline constexpr bool kFloatResult = std::is_same_v<decltype(Kernel(nullptr, 0)), float>;

template <auto Kernel>
class FunctionBackend final : public CpuBackend {
 public:
  FunctionBackend(const CpuProblem& p, Summation summation) : p_(p), summation_(std::move(summation)) {}
  double run() override { return static_cast<double>(Kernel(p_.data, p_.n)); }
  Structure structure() const override {
    Structure s = summation_(p_.n);
    s.float_result = kFloatResult<Kernel>;
    return s;
  }

 private:
  CpuProblem p_;
  Summation summation_;
};

template <auto Kernel>
CpuBackendDef cpu_function(std::string name, Summation summation, std::string unavailable = {}) {
  return {std::move(name),
          [summation = std::move(summation)](const CpuProblem& p) -> std::unique_ptr<CpuBackend> {
            return std::make_unique<FunctionBackend<Kernel>>(p, summation);
          },
          std::move(unavailable)};
}

// RB_REGISTER_BACKEND's overload for CPU backends (bench/cpu/registry.cpp keeps them).
bool register_backends(std::function<std::vector<CpuBackendDef>()> make, const char* where);
inline std::vector<CpuBackendDef> backend_list(CpuBackendDef def) {
  std::vector<CpuBackendDef> out;
  out.push_back(std::move(def));
  return out;
}
inline std::vector<CpuBackendDef> backend_list(std::vector<CpuBackendDef> defs) { return defs; }

// Every registered CPU backend, evaluated now, in sweep order (bench/registry.hpp).
std::vector<CpuBackendDef> registered_cpu_backends();

}  // namespace rb::bench
