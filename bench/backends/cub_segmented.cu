// CUB's segmented reduce over the rows of a shape (--shapes), as a user calls it: temporary
// storage sized once and allocated outside the timed region, the harness's stream, float outputs
// (f16 and bf16 input added in float through Reduce with plus<float>: CUB adds in the operator's
// type).
//   cub/segmented        DeviceSegmentedReduce with offsets: B + 1 64-bit row offsets in device
//                        memory (written once, untimed), begin = offsets, end = offsets + 1
//   cub/segmented_fixed  the fixed segment size overload (CCCL >= 3.4: -DRB_CCCL=v3.4.2); no
//                        offsets read. Unavailable, with the reason, in older CCCLs
// CUB sums contiguous segments only: a column sum (dim=0) is skipped with the reason.
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>
#include <cuda/version>

#include <string>
#include <vector>

#include "bench/api/gpu_backend.hpp"
#include "bench/detail/case.hpp"
#include "kernels/cuda/elements.cuh"

namespace rb::bench::gpu {
namespace {

constexpr bool kFixedSize = CCCL_VERSION >= 3004000;

std::string fixed_size_unavailable() {
  if (kFixedSize) return {};
  return "the fixed-size DeviceSegmentedReduce needs CCCL >= 3.4 (this build: " + std::to_string(CCCL_MAJOR_VERSION) +
         "." + std::to_string(CCCL_MINOR_VERSION) + "." + std::to_string(CCCL_PATCH_VERSION) +
         "; configure with -DRB_CCCL=v3.4.2)";
}

__global__ void row_offsets_kernel(std::int64_t* offsets, std::int64_t rows, std::int64_t cols) {
  for (std::int64_t r = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; r <= rows;
       r += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    offsets[r] = r * cols;
  }
}

// kFixed: the fixed-size overload. Its structure, stated for any order: one chain of the row's
// length (CUB picks a thread, a warp or a block per segment by its length).
template <class T, bool kFixed>
class CubSegmented final : public GpuBackend {
  using In = rb::cuda::DeviceType<T>;

 public:
  explicit CubSegmented(const GpuProblemOf<T>& p)
      : in_(reinterpret_cast<const In*>(p.input)), shape_(p.shape), out_(p.outputs) {
    if (shape_.axis != Axis::rows) throw Skip("CUB's segmented reduce sums contiguous segments: no column sum");
    if (kFixed && shape_.cols > 0x7FFFFFFF) throw Skip("the fixed segment size is an int: N above 2^31 - 1");
    if (!kFixed) {
      offsets_ = DeviceBuffer(static_cast<std::size_t>(shape_.rows + 1) * sizeof(std::int64_t));
      row_offsets_kernel<<<1024, 256, 0, p.stream>>>(offsets_.as<std::int64_t>(), shape_.rows, shape_.cols);
      RB_CUDA_CHECK_LAUNCH();
    }
    RB_CUDA_CHECK(reduce(nullptr, temp_bytes_, p.stream));
    temp_ = p.scratch.get(std::max<std::size_t>(temp_bytes_, 1));
  }
  void enqueue(cudaStream_t s) override { RB_CUDA_CHECK(reduce(temp_, temp_bytes_, s)); }
  double result() override { return 0; }  // the outputs are the result
  Structure structure() const override {
    return {Accumulator::f32, shape_.cols, 0};
  }

 private:
  cudaError_t reduce(void* temp, std::size_t& bytes, cudaStream_t s) const {
    const auto plus = ::cuda::std::plus<float>{};
    if constexpr (kFixed) {
#if CCCL_VERSION >= 3004000
      return cub::DeviceSegmentedReduce::Reduce(temp, bytes, in_, out_, shape_.rows, static_cast<int>(shape_.cols),
                                                plus, 0.0f, s);
#else
      return cudaErrorNotSupported;
#endif
    } else {
      const std::int64_t* offsets = offsets_.as<std::int64_t>();
      return cub::DeviceSegmentedReduce::Reduce(temp, bytes, in_, out_, shape_.rows, offsets, offsets + 1, plus, 0.0f,
                                                s);
    }
  }

  const In* in_;
  Shape2D shape_;
  float* out_;
  DeviceBuffer offsets_;
  void* temp_ = nullptr;
  std::size_t temp_bytes_ = 0;
};

template <class T>
std::vector<BackendDef<T>> rows() {
  return {gpu_shaped_backend<CubSegmented<T, false>, T>("cub/segmented"),
          gpu_shaped_backend<CubSegmented<T, true>, T>("cub/segmented_fixed", fixed_size_unavailable())};
}

}  // namespace

RB_REGISTER_BACKEND(rows<float>());
RB_REGISTER_BACKEND(rows<rb::f16>());
RB_REGISTER_BACKEND(rows<rb::bf16>());

}  // namespace rb::bench::gpu
