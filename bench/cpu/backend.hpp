#pragma once
// The shape of a CPU backend adapter:
//   - the constructor does any set-up (thread pools, buffers); it is not timed;
//   - run() computes the sum of problem.data[0, n) and returns it; it is the timed call.
// Register it with one line in bench/backends/cpu_list.cpp:
//   cpu_backend<MyAdapter>("cpu/my_kernel", Accumulation::f32_tree)
// or, for a plain function `R f(const float*, std::int64_t)`:
//   cpu_function<&f>("cpu/my_kernel", Accumulation::f32_tree)
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "bench/verify.hpp"

namespace rb::bench {

struct CpuProblem {
  const float* data;  // host copy of the input; 64-byte aligned unless --offset
  std::int64_t n;
};

class CpuBackend {
 public:
  virtual ~CpuBackend() = default;
  virtual double run() = 0;
  // Threads the timed call uses (the `threads` counter).
  virtual int threads() const { return 1; }
};

struct CpuBackendDef {
  std::string name;
  Accumulation accumulation;
  std::function<std::unique_ptr<CpuBackend>(const CpuProblem&)> make;
  std::string unavailable;  // e.g. "CPU lacks AVX-512F"; empty when it can run
};

template <class Adapter>
CpuBackendDef cpu_backend(std::string name, Accumulation acc, std::string unavailable = {}) {
  return {std::move(name), acc,
          [](const CpuProblem& p) -> std::unique_ptr<CpuBackend> { return std::make_unique<Adapter>(p); },
          std::move(unavailable)};
}

template <auto Kernel>
class FunctionBackend final : public CpuBackend {
 public:
  explicit FunctionBackend(const CpuProblem& p) : p_(p) {}
  double run() override { return static_cast<double>(Kernel(p_.data, p_.n)); }

 private:
  CpuProblem p_;
};

template <auto Kernel>
CpuBackendDef cpu_function(std::string name, Accumulation acc, std::string unavailable = {}) {
  return cpu_backend<FunctionBackend<Kernel>>(std::move(name), acc, std::move(unavailable));
}

}  // namespace rb::bench
