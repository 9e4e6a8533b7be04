// cpu/avx2/segmented: a sum along a dimension (--shapes) on the persistent thread pool
// (kernels/cpu/segmented.hpp): each row by the AVX2 kernel (rows), or each column added row by row
// in float over bands of rows whose sums are then added in band order (columns). f32, f16
// (F16C) and bf16.
#include <string>

#include "bench/api/cpu_backend.hpp"
#include "bench/api/registration.hpp"
#include "bench/backends/cpu_isa.hpp"
#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/segmented.hpp"

namespace rb::bench {
namespace {

template <auto Kernel>
class CpuSegmented final : public CpuBackend {
  using T = rb::cpu::KernelInput<Kernel>;

 public:
  explicit CpuSegmented(const CpuProblemOf<T>& p) : p_(p) {}
  double run() override {
    if (p_.shape.axis == Axis::rows) threads_.rows(p_.data, p_.shape.rows, p_.shape.cols, p_.outputs);
    else threads_.cols(p_.data, p_.shape.rows, p_.shape.cols, p_.outputs);
    return 0;  // the outputs are the result
  }
  // Rows: the AVX2 kernel's 32 float lanes and a tree over them; columns: one chain down the
  // column, then at most one addition per row band (no more bands than threads).
  Structure structure() const override {
    if (p_.shape.axis == Axis::rows) return lanes(Accumulator::f32, 32, 3)(p_.shape.cols);
    return {Accumulator::f32, p_.shape.rows, threads_.threads()};
  }
  int threads() const override { return threads_.threads(); }

 private:
  CpuProblemOf<T> p_;
  rb::cpu::SegmentedThreads<Kernel> threads_;
};

template <auto Kernel>
BackendDef<rb::cpu::KernelInput<Kernel>> segmented_row(const std::string& why) {
  auto def = cpu_backend<CpuSegmented<Kernel>, rb::cpu::KernelInput<Kernel>>("cpu/avx2/segmented", why);
  def.shaped = true;
  return def;
}

}  // namespace

RB_REGISTER_BACKEND(segmented_row<&rb::cpu::avx2_f32>(no_avx2()));
RB_REGISTER_BACKEND(segmented_row<&rb::cpu::avx2_f16>(no_avx2(true)));
RB_REGISTER_BACKEND(segmented_row<&rb::cpu::avx2_bf16>(no_avx2()));

}  // namespace rb::bench
