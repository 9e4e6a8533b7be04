// ref/*: the reference rows (kernels/cuda/ref.hpp), floors to judge the reductions against.
//   ref/launch: the empty kernel. It computes no sum: its structure is Accumulator::none, so the
//     harness reports its time and skips both checks (and bytes/s, which would mean nothing).
//   ref/read: onepass's read phase alone. enqueue() times only the kernel that streams x and
//     writes one partial per block; result() adds those partials on the host, after timing, in
//     double and in block order. The row is therefore a bound no one-launch reduction of that
//     shape can beat, and it is still verified like a sum (every element read exactly once).
#include <limits>
#include <vector>

#include "bench/backends/cub_structure.hpp"
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

class RefRead final : public GpuBackend {
 public:
  explicit RefRead(const GpuProblem& p)
      : in_(p.input), n_(p.n), stream_(p.stream), blocks_(rb::cuda::ref::read_blocks(p.n)) {
    partials_ = static_cast<float*>(p.scratch.get(static_cast<std::size_t>(blocks_) * sizeof(float)));
  }
  void enqueue(cudaStream_t stream) override { rb::cuda::ref::read(in_, n_, partials_, stream); }
  double result() override {
    std::vector<float> host(static_cast<std::size_t>(blocks_));
    RB_CUDA_CHECK(
        cudaMemcpyAsync(host.data(), partials_, host.size() * sizeof(float), cudaMemcpyDeviceToHost, stream_));
    RB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    double sum = 0;
    for (const float v : host) sum += v;
    return sum;
  }
  // onepass's read phase (kernel_structure without the completion), then the partials in double.
  Structure structure() const override {
    using Shape = rb::cuda::ReadShape;
    Structure s = blocked(Accumulator::f32, n_, std::int64_t{blocks_} * Shape::threads, 4,
                          tree_depth(Shape::unroll) + 1 + tree_depth(Shape::threads));
    s.chain += Shape::unroll;
    s.f64_adds = blocks_;
    s.float_result = false;
    return s;
  }

 private:
  const float* in_;
  std::int64_t n_;
  cudaStream_t stream_;
  int blocks_;
  float* partials_ = nullptr;
};

}  // namespace

RB_REGISTER_BACKEND(std::vector<BackendDef<float>>{gpu_backend<RefLaunch>("ref/launch"),
                                                   gpu_backend<RefRead>("ref/read")});

}  // namespace rb::bench::gpu
