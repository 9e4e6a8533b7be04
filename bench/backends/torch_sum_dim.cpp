// torch/sum_dim: torch.sum(x.view({B, N}), dim) from C++ (libtorch) over a zero-copy tensor of the
// harness's buffer, on the harness's stream, for the rows (dim=1) or the columns (dim=0) of a
// shape (--shapes). The sum is written straight into the harness's outputs with torch::sum_out
// (the same reduction kernel as x.sum(dim), without the caching allocator's output), in float:
//   torch/sum_dim          f32
//   torch/sum_dim_f32@f16, torch/sum_dim_f32@bf16   16-bit input, dtype=torch.float: added in
//                          float, float outputs
// Its structure, stated for any order: one chain of the summed length (how PyTorch splits an
// output between threads depends on the shape).
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include <type_traits>
#include <vector>

#include "bench/api/gpu_backend.hpp"
#include "common/dtype.hpp"

namespace rb::bench::gpu {
namespace {

template <class T>
class TorchSumDim final : public GpuBackend {
 public:
  explicit TorchSumDim(const GpuProblemOf<T>& p) : shape_(p.shape) {
    int device = 0;
    RB_CUDA_CHECK(cudaGetDevice(&device));
    const auto index = static_cast<c10::DeviceIndex>(device);
    stream_ = c10::cuda::getStreamFromExternal(p.stream, index);
    const auto on = [&](torch::ScalarType t) { return torch::TensorOptions().dtype(t).device(torch::kCUDA, index); };
    const auto type = std::is_same_v<T, rb::bf16> ? torch::kBFloat16
                      : std::is_same_v<T, rb::f16> ? torch::kHalf
                                                   : torch::kFloat32;
    input_ = torch::from_blob(const_cast<T*>(p.input), {shape_.rows, shape_.cols}, on(type));
    output_ = torch::from_blob(p.outputs, {shape_.outputs()}, on(torch::kFloat32));
    dim_ = shape_.axis == Axis::rows ? 1 : 0;
  }
  void enqueue(cudaStream_t) override {
    const c10::cuda::CUDAStreamGuard guard(stream_);
    torch::sum_out(output_, input_, {dim_}, false, torch::kFloat32);
  }
  double result() override { return 0; }  // the outputs are the result
  Structure structure() const override {
    return {Accumulator::f32, shape_.summed(), 0};
  }

 private:
  Shape2D shape_;
  c10::cuda::CUDAStream stream_ = c10::cuda::getDefaultCUDAStream();
  torch::Tensor input_, output_;
  std::int64_t dim_ = 1;
};

}  // namespace

RB_REGISTER_BACKEND(gpu_shaped_backend<TorchSumDim<float>>("torch/sum_dim"));
RB_REGISTER_BACKEND(gpu_shaped_backend<TorchSumDim<rb::f16>, rb::f16>("torch/sum_dim_f32"));
RB_REGISTER_BACKEND(gpu_shaped_backend<TorchSumDim<rb::bf16>, rb::bf16>("torch/sum_dim_f32"));

}  // namespace rb::bench::gpu
