#pragma once
// A CPU row whose order of additions changes from call to call: 8 lanes on odd calls, a single
// chain on even ones. Exact and within its stated bound each time, with other bits: only a
// determinism promise can catch it (bench/api/determinism.hpp).
#include <cstdint>

#include "bench/api/cpu_backend.hpp"
#include "kernels/cpu/accumulate.hpp"
#include "kernels/cpu/unrolled.hpp"

namespace rb::test {

class ChangesOrder final : public bench::CpuBackend {
 public:
  explicit ChangesOrder(const bench::CpuProblem& p) : p_(p) {}
  double run() override {
    return calls_++ % 2 == 0 ? rb::cpu::unrolled8_f32(p_.data, p_.n) : rb::cpu::accumulate_f32(p_.data, p_.n);
  }
  bench::Structure structure() const override { return bench::lanes(bench::Accumulator::f32, 1)(p_.n); }

 private:
  bench::CpuProblem p_;
  int calls_ = 0;
};

}  // namespace rb::test
