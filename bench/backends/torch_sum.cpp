// torch/sum: the PyTorch baseline from C++. torch::sum over a zero-copy tensor (torch::from_blob)
// of the harness's own device buffer, on the harness's stream (wrapped as a c10 external stream),
// so the same events time it. Each call allocates its 0-d output through PyTorch's caching
// allocator (no cudaMalloc after the warm-up) and runs PyTorch's reduction kernel: what
// `x.sum()` costs a PyTorch user, minus Python.
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include "bench/backends/gpu_defs.hpp"

namespace rb::bench::gpu {
namespace {

class TorchSum final : public GpuBackend {
 public:
  explicit TorchSum(const GpuProblem& p) {
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

 private:
  c10::cuda::CUDAStream stream_ = c10::cuda::getDefaultCUDAStream();
  torch::Tensor input_;
  torch::Tensor result_;
};

}  // namespace

GpuBackendDef torch_sum() { return gpu_backend<TorchSum>("torch/sum", Accumulation::f32_tree); }

}  // namespace rb::bench::gpu
