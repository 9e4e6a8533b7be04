// ref/*: the reference rows (kernels/cuda/ref.hpp), floors to judge the reductions against.
//   ref/launch: the empty kernel. It computes no sum: its structure is Accumulator::none, so the
//     harness reports its time and skips both checks (and bytes/s, which would mean nothing).
//   ref/read: onepass's read phase alone (ref_read.hpp, which serves every element type).
#include <limits>
#include <vector>

#include "bench/backends/cub_structure.hpp"
#include "bench/backends/ref_read.hpp"
#include "kernels/cuda/ref.hpp"
#include "kernels/cuda/tuning.cuh"

namespace rb::bench::gpu {
namespace {

class RefLaunch final : public GpuBackend {
 public:
  explicit RefLaunch(const GpuProblem&) {}
  void enqueue(cudaStream_t stream) override { rb::cuda::ref::launch_empty(stream); }
  double result() override { return std::numeric_limits<double>::quiet_NaN(); }  // no sum computed
  Structure structure() const override { return {Accumulator::none}; }
};


}  // namespace

RB_REGISTER_BACKEND(std::vector<BackendDef<float>>{gpu_backend<RefLaunch>("ref/launch"),
                                                   gpu_backend<RefRead<float>>("ref/read")});

}  // namespace rb::bench::gpu
