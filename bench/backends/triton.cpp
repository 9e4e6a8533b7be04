// triton/two_pass and triton/onepass: kernels written in Triton (kernels/triton/sum.py), compiled
// once through the embedded interpreter when the adapter is constructed (untimed), launched from
// C++ with the CUDA runtime: no Python between the events. Built when pybind11 and an embeddable
// Python were found (bench/CMakeLists.txt); `import triton` is probed when the backends are bound.
#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bench/backends/cub_structure.hpp"
#include "bench/session.hpp"
#include "kernels/triton/launch.hpp"

namespace rb::bench::gpu {
namespace {

std::string probe() {
  const std::string why = rb::triton::unavailable_reason();
  return why.empty() ? why : "triton: " + why;
}

// A triton that cannot be imported here skips the benchmark; a kernel that does not compile fails it.
template <class Kernel, class Shape>
Kernel compiled(const GpuProblem& p, Shape shape) {
  try {
    return Kernel(p.input, p.n, shape);
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
Structure triton_structure(std::int64_t n, rb::triton::OnepassShape shape, const rb::triton::Onepass& k) {
  const std::int64_t threads = 32 * shape.warps, programs = std::max<std::int64_t>(k.programs(), 1);
  const std::int64_t chain = (n + shape.block * programs - 1) / (shape.block * programs) + 1;
  return {Accumulator::f32, chain,
          shape.block / threads + rb::triton::kMaxPrograms / threads + 2 * tree_depth(threads), 0, true};
}

template <class Kernel, class Shape>
class TritonSum final : public GpuBackend {
 public:
  TritonSum(const GpuProblem& p, Shape shape)
      : in_(p.input), n_(p.n), shape_(shape), out_(p.out), kernel_(compiled<Kernel>(p, shape)) {
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
  def.probe = probe;
  return def;
}

BackendDef<float> triton_two_pass(std::string name, rb::triton::TwoPassShape shape) {
  return triton_def<rb::triton::TwoPass>(std::move(name), shape);
}

BackendDef<float> triton_onepass(std::string name, rb::triton::OnepassShape shape) {
  return triton_def<rb::triton::Onepass>(std::move(name), shape);
}

// The tuning grid (-DRB_TUNING_BACKENDS=ON): launch shapes of both kernels, as tune/* rows.
[[maybe_unused]] std::vector<BackendDef<float>> triton_tuning_backends() {
  std::vector<BackendDef<float>> out;
  for (const auto& [block, warps] : {std::pair{1024, 4}, {2048, 4}, {4096, 8}, {8192, 8}, {8192, 16}}) {
    out.push_back(triton_two_pass("tune/triton_two_pass/b" + std::to_string(block) + "_w" + std::to_string(warps),
                                  {block, warps}));
  }
  for (const auto& [block, warps, progs] : {std::tuple{2048, 4, 8}, {4096, 4, 4}, {4096, 8, 2}, {4096, 8, 4},
                                           {4096, 8, 8}, {8192, 8, 2}, {8192, 8, 4}, {8192, 16, 2},
                                           {8192, 16, 4}, {16384, 16, 2}}) {
    out.push_back(triton_onepass("tune/triton_onepass/b" + std::to_string(block) + "_w" + std::to_string(warps) +
                                     "_p" + std::to_string(progs),
                                 {block, warps, progs}));
  }
  return out;
}

}  // namespace

RB_REGISTER_BACKEND(std::vector<BackendDef<float>>{triton_two_pass("triton/two_pass", rb::triton::kTwoPassShape),
                                               triton_onepass("triton/onepass", rb::triton::kOnepassShape)});
#if RB_TUNING_BACKENDS
RB_REGISTER_BACKEND(triton_tuning_backends());
#endif

}  // namespace rb::bench::gpu
