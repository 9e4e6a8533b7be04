// triton/sum_dim: the sums along one dimension of a shape (--shapes) written in Triton
// (kernels/triton/sum.py: rows_kernel, cols_kernel) as its tutorials write a row reduction, one
// program per block of rows or of columns, compiled once per tile when the adapter is constructed
// (untimed) and launched from C++ on the harness's stream; float outputs, added in float:
//   triton/sum_dim        f32
//   triton/sum_dim@f16, triton/sum_dim@bf16   16-bit input, each value widened to float
#include <algorithm>
#include <memory>
#include <string>

#include "bench/api/gpu_backend.hpp"
#include "bench/backends/triton_rows.hpp"
#include "bench/detail/case.hpp"
#include "common/dtype.hpp"
#include "kernels/triton/launch.hpp"

namespace rb::bench::gpu {
namespace {

// One output's additions: each of its lanes adds every BLOCK-th value of the summed axis (the
// chain), then tl.sum adds the lanes: at most all a thread holds in sequence, then a tree over the
// lanes.
Structure sum_dim_structure(const rb::triton::SumDim& k, const Shape2D& s) {
  const bool rows = s.axis == Axis::rows;
  const std::int64_t lanes = rows ? k.block_n() : k.block_r();
  const std::int64_t held = std::min<std::int64_t>(lanes, rb::triton::kSumDimTile / k.threads());
  return {Accumulator::f32, (s.summed() + lanes - 1) / lanes, held + tree_depth(lanes)};
}

template <class T>
class TritonSumDim final : public GpuBackend {
 public:
  explicit TritonSumDim(const GpuProblemOf<T>& p) : in_(p.input), shape_(p.shape), out_(p.outputs), kernel_(make(p)) {}
  void enqueue(cudaStream_t stream) override { kernel_.sum(in_, out_, stream); }
  double result() override { return 0; }  // the outputs are the result
  Structure structure() const override { return sum_dim_structure(kernel_, shape_); }

 private:
  // A triton that cannot be imported here skips the row; a kernel that does not compile fails it.
  static rb::triton::SumDim make(const GpuProblemOf<T>& p) {
    try {
      return {p.input, rb::dtype_of<T>, p.shape.rows, p.shape.cols, p.shape.axis == Axis::rows, p.outputs};
    } catch (const rb::triton::Unavailable& e) {
      throw Skip(std::string("triton unavailable: ") + e.what());
    }
  }

  const T* in_;
  Shape2D shape_;
  float* out_;
  rb::triton::SumDim kernel_;
};

template <class T>
BackendDef<T> sum_dim_row(std::string name) {
  BackendDef<T> def = gpu_shaped_backend<TritonSumDim<T>, T>(std::move(name));
  def.probe = triton_probe;
  return def;
}

}  // namespace

RB_REGISTER_BACKEND(sum_dim_row<float>("triton/sum_dim"));
RB_REGISTER_BACKEND(sum_dim_row<rb::f16>("triton/sum_dim"));
RB_REGISTER_BACKEND(sum_dim_row<rb::bf16>("triton/sum_dim"));

}  // namespace rb::bench::gpu
