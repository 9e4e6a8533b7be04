// triton/two_pass and triton/onepass: kernels written in Triton (kernels/triton/sum.py), compiled
// once through the embedded interpreter when the adapter is constructed (untimed), launched from
// C++ with the CUDA runtime: no Python between the events. Built when pybind11 and an embeddable
// Python were found (bench/CMakeLists.txt); `import triton` is probed when the backends are bound.
// For the other element types (--dtype): triton/onepass@<type>, the same kernel converting each
// value exactly to float (f16, bf16), int64 (i32) or adding in double (f64); and
// triton/onepass_acc16@f16, @bf16, the kernel with no conversion, adding in the 16-bit type.
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench/backends/cub_structure.hpp"
#include "bench/backends/triton_rows.hpp"
#include "bench/detail/session.hpp"
#include "kernels/triton/launch.hpp"

namespace rb::bench::gpu {
namespace {

// A triton that cannot be imported here skips the benchmark; a kernel that does not compile fails it.
template <class Make>
auto compiled(Make make) {
  try {
    return make();
  } catch (const rb::triton::Unavailable& e) {
    throw Skip(std::string("triton unavailable: ") + e.what());
  }
}

// How sum.py's kernels add, as stated for the bound. Each program keeps a BLOCK-wide float vector
// accumulator, one lane per element position; tl.sum then adds BLOCK / threads values in each
// thread and a shuffle tree across the program's threads. two_pass: a tile per program, then one
// program over the partials; onepass: each lane over every programs-th tile, then one program
// over at most kMaxPrograms partials.
Structure triton_structure(std::int64_t n, rb::triton::TwoPassShape shape, const rb::triton::TwoPass&) {
  const std::int64_t threads = 32 * shape.warps, tiles = (n + shape.block - 1) / shape.block;
  const std::int64_t tl_sum = shape.block / threads + tree_depth(threads);
  return {Accumulator::f32, (tiles + shape.block - 1) / shape.block + tl_sum, tl_sum, 0, true};
}
// onepass in `acc` at any element type: the lanes' chain and both tl.sum trees are the same
// additions whatever the type (a thread reduces the BLOCK / threads values it holds in sequence).
Structure onepass_structure(std::int64_t n, rb::triton::OnepassShape shape, const rb::triton::Onepass& k,
                            Accumulator acc, bool float_result) {
  const std::int64_t threads = 32 * shape.warps, programs = std::max<std::int64_t>(k.programs(), 1);
  const std::int64_t chain = (n + shape.block * programs - 1) / (shape.block * programs) + 1;
  return {acc, chain, shape.block / threads + rb::triton::kMaxPrograms / threads + 2 * tree_depth(threads), 0,
          float_result};
}
Structure triton_structure(std::int64_t n, rb::triton::OnepassShape shape, const rb::triton::Onepass& k) {
  return onepass_structure(n, shape, k, Accumulator::f32, true);
}

template <class Kernel, class Shape>
class TritonSum final : public GpuBackend {
 public:
  TritonSum(const GpuProblem& p, Shape shape)
      : in_(p.input),
        n_(p.n),
        shape_(shape),
        out_(p.out),
        kernel_(compiled([&] { return Kernel(p.input, p.n, shape); })) {
    scratch_ = p.scratch.get(kernel_.scratch_bytes());
    if constexpr (requires { kernel_.prepare(scratch_, p.stream); }) kernel_.prepare(scratch_, p.stream);
  }
  void enqueue(cudaStream_t s) override { kernel_.sum(in_, scratch_, out_.f32(), s); }
  double result() override { return out_.read_f32(); }
  ResultIn result_in() const override { return ResultIn::slot_f32; }
  Structure structure() const override { return triton_structure(n_, shape_, kernel_); }

 private:
  const float* in_;
  std::int64_t n_;
  Shape shape_;
  ResultSlot out_;
  Kernel kernel_;
  void* scratch_ = nullptr;
};

template <class Kernel, class Shape>
BackendDef<float> triton_def(std::string name, Shape shape) {
  BackendDef<float> def{std::move(name), OnGpu<float>{[shape](const GpuProblem& p) -> std::unique_ptr<GpuBackend> {
                          return std::make_unique<TritonSum<Kernel, Shape>>(p, shape);
                        }}};
  def.probe = triton_probe;
  return def;
}


// onepass over T (f64, f16, bf16, i32). Out, the result slot's type: double for f64, int64 for i32,
// float for 16-bit inputs, whichever the accumulator (a 16-bit sum converts to float exactly).
template <class T>
using OnepassOut = std::conditional_t<std::is_same_v<T, double>, double,
                                      std::conditional_t<std::is_same_v<T, std::int32_t>, long long, float>>;

// widen: each value converted exactly, then added in float (f16, bf16), double (f64) or int64
// (i32). Otherwise (f16, bf16 only) added in the input's own type: every addition on an element's
// path, lanes and both trees, rounds to 11 (f16) or 8 (bf16) significant bits, as Triton from 3.3
// adds a 16-bit tensor and tl.sum's over one (sum.py). An older Triton's tl.sum widened bf16 to
// float: fewer roundings than stated, so the stated bound still holds there.
template <class T>
constexpr Accumulator onepass_accumulator(bool widen) {
  if constexpr (std::is_same_v<T, rb::f16>) return widen ? Accumulator::f32 : Accumulator::f16;
  else if constexpr (std::is_same_v<T, rb::bf16>) return widen ? Accumulator::f32 : Accumulator::bf16;
  else return accumulator_for<OnepassOut<T>>();
}

template <class T>
class TritonOnepassTyped final : public GpuBackend {
  using Out = OnepassOut<T>;

 public:
  TritonOnepassTyped(const GpuProblemOf<T>& p, bool widen)
      : in_(p.input), n_(p.n), acc_(onepass_accumulator<T>(widen)), out_(p.out),
        kernel_(compiled([&] { return rb::triton::Onepass(p.input, p.n, {rb::dtype_of<T>, widen}); })) {
    scratch_ = p.scratch.get(kernel_.scratch_bytes());
    kernel_.prepare(scratch_, p.stream);
  }
  void enqueue(cudaStream_t s) override { kernel_.sum(in_, scratch_, out_.as<Out>(), s); }
  double result() override { return out_.read<Out>(); }
  ResultIn result_in() const override { return slot_for<Out>(); }
  // A float accumulator's sum is the float result (as the f32 row states); a 16-bit one's converts
  // to float exactly, a double is the result itself, an int64 is exact.
  Structure structure() const override {
    return onepass_structure(n_, rb::triton::kOnepassShape, kernel_, acc_, acc_ == Accumulator::f32);
  }

 private:
  const T* in_;
  std::int64_t n_;
  Accumulator acc_;
  ResultSlot out_;
  rb::triton::Onepass kernel_;
  void* scratch_ = nullptr;
};

template <class T>
BackendDef<T> triton_onepass_typed(std::string name, bool widen) {
  BackendDef<T> def{std::move(name), OnGpu<T>{[widen](const GpuProblemOf<T>& p) -> std::unique_ptr<GpuBackend> {
                      return std::make_unique<TritonOnepassTyped<T>>(p, widen);
                    }}};
  def.probe = triton_probe;
  return def;
}

// The 16-bit types: the widening row, then the same kernel adding in the input's type.
template <class T>
std::vector<BackendDef<T>> triton_onepass_16bit() {
  return {triton_onepass_typed<T>("triton/onepass", true), triton_onepass_typed<T>("triton/onepass_acc16", false)};
}

}  // namespace

std::string triton_probe() {
  const std::string why = rb::triton::unavailable_reason();
  return why.empty() ? why : "triton: " + why;
}

BackendDef<float> triton_two_pass(std::string name, rb::triton::TwoPassShape shape) {
  return triton_def<rb::triton::TwoPass>(std::move(name), shape);
}

BackendDef<float> triton_onepass(std::string name, rb::triton::OnepassShape shape) {
  return triton_def<rb::triton::Onepass>(std::move(name), shape);
}

RB_REGISTER_BACKEND(std::vector<BackendDef<float>>{triton_two_pass("triton/two_pass", rb::triton::kTwoPassShape),
                                               triton_onepass("triton/onepass", rb::triton::kOnepassShape)});
RB_REGISTER_BACKEND(triton_onepass_typed<double>("triton/onepass", true));
RB_REGISTER_BACKEND(triton_onepass_16bit<rb::f16>());
RB_REGISTER_BACKEND(triton_onepass_16bit<rb::bf16>());
RB_REGISTER_BACKEND(triton_onepass_typed<std::int32_t>("triton/onepass", true));

}  // namespace rb::bench::gpu
