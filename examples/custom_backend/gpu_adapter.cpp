// The adapter that hands gpu_sum.cu to reduce_bench's harness (bench/api/gpu_backend.hpp): the
// constructor takes scratch for the partials (untimed), enqueue() only launches, result() reads
// the sum back, structure() states how the kernels add.
#include <cstdint>

#include "bench/api/gpu_backend.hpp"
#include "gpu_sum.hpp"

namespace {

using namespace rb::bench;

class MyCudaSum final : public gpu::GpuBackend {
 public:
  explicit MyCudaSum(const gpu::GpuProblem& p)
      : in_(p.input), n_(p.n), out_(p.out),
        partials_(static_cast<float*>(p.scratch.get(my::kMaxBlocks * sizeof(float)))) {}
  void enqueue(cudaStream_t stream) override { my::gpu_sum(in_, n_, partials_, out_.f32(), stream); }
  double result() override { return out_.read_f32(); }
  // blocks x 256 float chains over x, then the block tree (8 levels), each final thread's chain
  // over blocks / 256 partials, and the final tree (8 levels).
  Structure structure() const override {
    const int blocks = my::gpu_sum_blocks(n_);
    const std::int64_t tree =
        tree_depth(my::kThreads) + (blocks + my::kThreads - 1) / my::kThreads + tree_depth(my::kThreads);
    return blocked(Accumulator::f32, n_, std::int64_t{blocks} * my::kThreads, 1, tree);
  }

 private:
  const float* in_;
  std::int64_t n_;
  gpu::ResultSlot out_;
  float* partials_;
};

}  // namespace

RB_REGISTER_BACKEND(rb::bench::gpu::gpu_backend<MyCudaSum>("my/cuda_two_pass"));
