// The rows of the sums along a dimension (--shapes, common/shape.hpp) that are ours:
//   cuda/segmented     kernels/cuda/segmented.hpp: one launch for every shape, outputs in float;
//                      its scratch prepared (zeroed) once per row, outside the timed region, and
//                      left zero by every launch
//   ref/segmented      the floor of a shape (kernels/cuda/ref.hpp: read_write): the input read and
//                      the outputs written once, nothing added; timing only (bytes/s counts both)
#include <algorithm>
#include <vector>

#include "bench/api/gpu_backend.hpp"
#include "kernels/cuda/ref.hpp"
#include "kernels/cuda/segmented.hpp"

namespace rb::bench::gpu {
namespace {

// The longest chain and the tree of one output's sum, by plan (segmented.hpp): a thread adds a
// whole short row; 4 to 32 lanes share a row; a row's blocks each add a share and the last adds
// their partials (two levels of at most kSegmentedFanIn, stated as 64 additions); a column's
// blocks each add a slab of per_block rows, 8 warps stacked, then the same completion.
Structure segmented_structure(const rb::cuda::SegmentedGeometry& g, const Shape2D& s) {
  using rb::cuda::SegmentedPlan;
  const std::int64_t len = s.summed();
  switch (g.plan) {
    case SegmentedPlan::rows_tile: return {Accumulator::f32, len, 0};
    case SegmentedPlan::rows_warp: return {Accumulator::f32, (len + 3) / 4 + 4, 5};
    case SegmentedPlan::rows_blocks: {
      const std::int64_t lanes = std::max<std::int64_t>(1, g.per_block * g.threads);
      return {Accumulator::f32, (len + lanes - 1) / lanes + 8, tree_depth(g.threads) + 64};
    }
    case SegmentedPlan::cols_flat:
    case SegmentedPlan::cols_tile:
      return {Accumulator::f32, std::min(len, std::max<std::int64_t>(g.per_block, 1)), 3 + 64};
    default: return {Accumulator::f32, len, 0};
  }
}

template <class T>
class CudaSegmented final : public GpuBackend {
 public:
  explicit CudaSegmented(const GpuProblemOf<T>& p) : in_(p.input), shape_(p.shape), out_(p.outputs) {
    const std::size_t bytes = rb::cuda::segmented_of<T>().scratch_bytes(shape_);
    scratch_ = p.scratch.get(std::max<std::size_t>(bytes, 1));
    rb::cuda::segmented_of<T>().prepare(scratch_, bytes, p.stream);
  }
  void enqueue(cudaStream_t stream) override { rb::cuda::segmented_of<T>().sum(in_, shape_, scratch_, out_, stream); }
  double result() override { return 0; }  // the outputs are the result
  Structure structure() const override {
    return segmented_structure(rb::cuda::segmented_of<T>().geometry(shape_), shape_);
  }

 private:
  const T* in_;
  Shape2D shape_;
  float* out_;
  void* scratch_ = nullptr;
};

template <class T>
class RefSegmented final : public GpuBackend {
 public:
  explicit RefSegmented(const GpuProblemOf<T>& p)
      : in_(p.input), bytes_(static_cast<std::size_t>(p.n) * sizeof(T)), shape_(p.shape), out_(p.outputs),
        sm_count_(p.sm_count) {
    sink_ = static_cast<unsigned*>(p.scratch.get(sizeof(unsigned)));
  }
  void enqueue(cudaStream_t stream) override {
    rb::cuda::ref::read_write(in_, bytes_, out_, shape_.outputs(), sink_, sm_count_, stream);
  }
  double result() override { return 0; }
  Structure structure() const override { return {Accumulator::none}; }

 private:
  const T* in_;
  std::size_t bytes_;
  Shape2D shape_;
  float* out_;
  int sm_count_;
  unsigned* sink_ = nullptr;
};

template <class T>
std::vector<BackendDef<T>> rows() {
  return {gpu_shaped_backend<CudaSegmented<T>, T>("cuda/segmented"),
          gpu_shaped_backend<RefSegmented<T>, T>("ref/segmented")};
}

}  // namespace

RB_REGISTER_BACKEND(rows<float>());
RB_REGISTER_BACKEND(rows<rb::f16>());
RB_REGISTER_BACKEND(rows<rb::bf16>());

}  // namespace rb::bench::gpu
