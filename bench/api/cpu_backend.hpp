#pragma once
// The shape of a CPU backend adapter:
//   - the constructor does any set-up (thread pools, buffers); it is not timed;
//   - run() computes the sum of problem.data[0, n) and returns it; it is the timed call;
//   - structure() states how it adds (bench/api/summation.hpp): its accuracy bound follows from it.
// Register it with one line at namespace scope in the adapter's own file (bench/api/registration.hpp):
//   RB_REGISTER_BACKEND(cpu_backend<MyAdapter>("cpu/my_kernel"));
// or, for a plain function `R f(const float*, std::int64_t)`, with the kernel's structure:
//   RB_REGISTER_BACKEND(cpu_function<&f>("cpu/my_kernel", lanes(Accumulator::f32, 8)));
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/api/definition.hpp"
#include "bench/api/determinism.hpp"
#include "bench/api/registration.hpp"
#include "bench/api/summation.hpp"
#include "common/shape.hpp"

namespace rb::bench {

template <class T>
struct CpuProblemOf {
  const T* data;  // host copy of the input; 64-byte aligned unless --offset
  std::int64_t n;
  // A shaped row's (BackendDef::shaped): data[0, n) as shape.rows x shape.cols, and where each
  // run() writes its shape.outputs() sums (poisoned before every call; run()'s value is ignored).
  // The one-dimensional rows get 1 x n and no outputs.
  Shape2D shape = {};
  float* outputs = nullptr;
};
using CpuProblem = CpuProblemOf<float>;

class CpuBackend {
 public:
  virtual ~CpuBackend() = default;
  virtual double run() = 0;
  virtual Structure structure() const = 0;
  // Threads the timed call uses (the `threads` counter).
  virtual int threads() const { return 1; }
};

// A backend this build or machine cannot run, listed with the reason and skipped.
inline BackendDef<float> unavailable_backend(std::string name, std::string why) {
  return {std::move(name), OnCpu<float>{}, std::move(why)};
}

// T: the element type the adapter sums (its constructor takes a CpuProblemOf<T>).
template <class Adapter, class T = float>
BackendDef<T> cpu_backend(std::string name, std::string unavailable = {}) {
  return {std::move(name), OnCpu<T>{[](const CpuProblemOf<T>& p) -> std::unique_ptr<CpuBackend> {
            return std::make_unique<Adapter>(p);
          }},
          std::move(unavailable)};
}

// The result type of a kernel `R f(const T*, std::int64_t)`: a float result is rounded once.
template <auto Kernel>
inline constexpr bool kFloatResult = std::is_same_v<decltype(Kernel(nullptr, 0)), float>;

// The element type T of a kernel `R f(const T*, std::int64_t)`.
template <class F>
struct KernelElementOf;
template <class R, class T>
struct KernelElementOf<R (*)(const T*, std::int64_t) noexcept> {
  using type = T;
};
template <class R, class T>
struct KernelElementOf<R (*)(const T*, std::int64_t)> {
  using type = T;
};
template <auto Kernel>
using KernelElement = typename KernelElementOf<decltype(Kernel)>::type;

template <auto Kernel>
class FunctionBackend final : public CpuBackend {
 public:
  using Problem = CpuProblemOf<KernelElement<Kernel>>;
  FunctionBackend(const Problem& p, Summation summation) : p_(p), summation_(std::move(summation)) {}
  double run() override { return static_cast<double>(Kernel(p_.data, p_.n)); }
  Structure structure() const override {
    Structure s = summation_(p_.n);
    s.float_result = kFloatResult<Kernel>;
    return s;
  }

 private:
  Problem p_;
  Summation summation_;
};

template <auto Kernel>
BackendDef<KernelElement<Kernel>> cpu_function(std::string name, Summation summation, std::string unavailable = {}) {
  using T = KernelElement<Kernel>;
  return {std::move(name),
          OnCpu<T>{[summation = std::move(summation)](const CpuProblemOf<T>& p) -> std::unique_ptr<CpuBackend> {
            return std::make_unique<FunctionBackend<Kernel>>(p, summation);
          }},
          std::move(unavailable)};
}

}  // namespace rb::bench
