// torch/sum: the PyTorch baseline from C++. torch::sum over a zero-copy tensor (torch::from_blob)
// of the harness's own device buffer, on the harness's stream (wrapped as a c10 external stream),
// so the same events time it. Each call allocates its 0-d output through PyTorch's caching
// allocator (no cudaMalloc after the warm-up) and runs PyTorch's reduction kernel: what
// `x.sum()` costs a PyTorch user, minus Python.
// Its structure, as stated for the bound: PyTorch's reduction kernel keeps 4 accumulators per
// thread and, for one output, spreads the input over many blocks; stated conservatively as at
// least one warp per SM (SMs x 32 x 4 chains), then warp, block and cross-block trees (64).
// Per element type (--dtype), what PyTorch documents and does: f16 and bf16 add in float and the
// result is rounded to the input's type (torch/sum@f16), unless dtype=torch.float asks for a float
// result (torch/sum_f32@f16); f64 adds in double; i32 sums into int64 (exact).
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include <optional>
#include <type_traits>
#include <vector>

#include "bench/backends/cub_structure.hpp"
#include "common/dtype.hpp"

namespace rb::bench::gpu {
namespace {

template <class T>
constexpr torch::ScalarType scalar_type() {
  if constexpr (std::is_same_v<T, double>) return torch::kFloat64;
  else if constexpr (std::is_same_v<T, rb::f16>) return torch::kHalf;
  else if constexpr (std::is_same_v<T, rb::bf16>) return torch::kBFloat16;
  else if constexpr (std::is_same_v<T, std::int32_t>) return torch::kInt32;
  else return torch::kFloat32;
}

// kFloatResult: torch::sum(x, torch::kFloat), for 16-bit inputs.
template <class T, bool kFloatResult = false>
class TorchSum final : public GpuBackend {
 public:
  explicit TorchSum(const GpuProblemOf<T>& p) : n_(p.n), sm_count_(p.sm_count) {
    int device = 0;
    RB_CUDA_CHECK(cudaGetDevice(&device));
    const auto index = static_cast<c10::DeviceIndex>(device);
    stream_ = c10::cuda::getStreamFromExternal(p.stream, index);
    input_ = torch::from_blob(const_cast<T*>(p.input), {p.n},
                              torch::TensorOptions().dtype(scalar_type<T>()).device(torch::kCUDA, index));
  }
  void enqueue(cudaStream_t) override {
    const c10::cuda::CUDAStreamGuard guard(stream_);
    result_ = kFloatResult ? torch::sum(input_, torch::kFloat32) : torch::sum(input_);
  }
  double result() override {
    const c10::cuda::CUDAStreamGuard guard(stream_);
    return result_.item<double>();  // copies on the harness's stream and waits for it
  }
  Structure structure() const override {
    constexpr bool kHalves = std::is_same_v<T, rb::f16> || std::is_same_v<T, rb::bf16>;
    constexpr Accumulator acc = std::is_same_v<T, double>         ? Accumulator::f64
                                : std::is_same_v<T, std::int32_t> ? Accumulator::i64
                                                                  : Accumulator::f32;
    Structure s = blocked(acc, n_, std::int64_t{sm_count_} * 128, 1, 64, acc == Accumulator::f32);
    if (kHalves && !kFloatResult) {  // the float sum rounded once to the input's type
      s.float_result = false;
      s.result_u = std::is_same_v<T, rb::f16> ? 0x1p-11 : 0x1p-8;
    }
    return s;
  }

 private:
  std::int64_t n_;
  int sm_count_;
  c10::cuda::CUDAStream stream_ = c10::cuda::getDefaultCUDAStream();
  torch::Tensor input_;
  torch::Tensor result_;
};

// The 16-bit types: PyTorch's default (a 16-bit result) and dtype=torch.float.
template <class T>
std::vector<BackendDef<T>> half_rows() {
  return {gpu_backend<TorchSum<T>, T>("torch/sum"), gpu_backend<TorchSum<T, true>, T>("torch/sum_f32")};
}

}  // namespace

RB_REGISTER_BACKEND(gpu_backend<TorchSum<float>>("torch/sum"));
RB_REGISTER_BACKEND(gpu_backend<TorchSum<double>, double>("torch/sum"));
RB_REGISTER_BACKEND(gpu_backend<TorchSum<std::int32_t>, std::int32_t>("torch/sum"));
RB_REGISTER_BACKEND(half_rows<rb::f16>());
RB_REGISTER_BACKEND(half_rows<rb::bf16>());

}  // namespace rb::bench::gpu
