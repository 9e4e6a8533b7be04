// torch/sum: the PyTorch baseline from C++. torch::sum over a zero-copy tensor (torch::from_blob)
// of the harness's own device buffer, on the harness's stream (wrapped as a c10 external stream),
// so the same events time it. Each call allocates its 0-d output through PyTorch's caching
// allocator (no cudaMalloc after the warm-up) and runs PyTorch's reduction kernel: what
// `x.sum()` costs a PyTorch user, minus Python.
// Its structure, as stated for the bound: PyTorch's reduction kernel keeps 4 float accumulators
// per thread and, for one output, spreads the input over many blocks; stated conservatively as
// at least one warp per SM (SMs x 32 x 4 chains), then warp, block and cross-block trees (64).
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include "bench/backends/cub_structure.hpp"

namespace rb::bench::gpu {
namespace {

class TorchSum final : public GpuBackend {
 public:
  explicit TorchSum(const GpuProblem& p) : n_(p.n), sm_count_(p.sm_count) {
    int device = 0;
    RB_CUDA_CHECK(cudaGetDevice(&device));
    const auto index = static_cast<c10::DeviceIndex>(device);
    stream_ = c10::cuda::getStreamFromExternal(p.stream, index);
    input_ = torch::from_blob(const_cast<float*>(p.input), {p.n},
                              torch::TensorOptions().dtype(torch::kFloat32).device(torch::kCUDA, index));
  }
  void enqueue(cudaStream_t) override {
    const c10::cuda::CUDAStreamGuard guard(stream_);
    result_ = torch::sum(input_);
  }
  double result() override {
    const c10::cuda::CUDAStreamGuard guard(stream_);
    return result_.item<float>();  // copies on the harness's stream and waits for it
  }
  Structure structure() const override { return blocked(Accumulator::f32, n_, std::int64_t{sm_count_} * 128, 1, 64); }

 private:
  std::int64_t n_;
  int sm_count_;
  c10::cuda::CUDAStream stream_ = c10::cuda::getDefaultCUDAStream();
  torch::Tensor input_;
  torch::Tensor result_;
};

}  // namespace

RB_REGISTER_BACKEND(gpu_backend<TorchSum>("torch/sum"));

}  // namespace rb::bench::gpu
