// cub: cub::DeviceReduce as a user should call it: temporary storage sized once and allocated
// outside the timed region, 64-bit num_items (CCCL >= 2.2), the harness's stream.
//   cub, cub@f64    DeviceReduce::Sum into the input's type
//   cub@f16, @bf16  DeviceReduce::Reduce with cuda::std::plus<float> and a float init into a float:
//                   CUB accumulates in the operator's result type, so the 16-bit values are added
//                   in float (Sum with a 16-bit output would add in 16 bits; with a float output
//                   and 16-bit input it does not compile in CCCL 3.0)
//   cub@i32         DeviceReduce::Reduce with plus<long long> into a 64-bit integer: exact (Sum
//                   would add in int32 and wrap)
//   cub/acc16@f16,  DeviceReduce::Sum into the input's own 16-bit type, as a user calling Sum on
//   cub/acc16@bf16  half data gets it: CUB then adds in that type (u = 2^-11 or 2^-8, f16 overflows
//                   past 65504). The trap, made visible: no bound exists, its error is reported
//                   and its exact check uses data exact in 16 bits (bench/detail/exact_data.hpp).
// For n <= 4096 floats CUB runs one single-tile kernel, above that two (a grid over tiles, then one
// block over the partials): the step between 2^12 and 2^13 in every CUB sweep.
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include "bench/backends/cub_structure.hpp"
#include "common/dtype.hpp"
#include "kernels/cuda/elements.cuh"

namespace rb::bench::gpu {
namespace {

// T: the storage type summed; Acc: what CUB adds in and writes (T itself: the input's own type).
template <class T, class Acc = T>
class CubSum final : public GpuBackend {
  using In = rb::cuda::DeviceType<T>;
  using Out = rb::cuda::DeviceType<Acc>;

 public:
  explicit CubSum(const GpuProblemOf<T>& p)
      : in_(reinterpret_cast<const In*>(p.input)), n_(p.n), out_(p.out), sm_count_(p.sm_count) {
    RB_CUDA_CHECK(reduce(nullptr, temp_bytes_, p.stream));
    temp_ = p.scratch.get(temp_bytes_);
  }
  void enqueue(cudaStream_t s) override { RB_CUDA_CHECK(reduce(temp_, temp_bytes_, s)); }
  double result() override { return out_.read<Acc>(); }
  ResultIn result_in() const override { return slot_for<Acc>(); }
  Structure structure() const override { return cub_reduce_structure(n_, sm_count_, accumulator_for<Acc>()); }

 private:
  cudaError_t reduce(void* temp, std::size_t& bytes, cudaStream_t s) const {
    if constexpr (std::is_same_v<In, Out>) return cub::DeviceReduce::Sum(temp, bytes, in_, out_.as<Out>(), n_, s);
    else return cub::DeviceReduce::Reduce(temp, bytes, in_, out_.as<Out>(), n_, ::cuda::std::plus<Out>{}, Out{0}, s);
  }

  const In* in_;
  std::int64_t n_;
  ResultSlot out_;
  int sm_count_;
  void* temp_ = nullptr;
  std::size_t temp_bytes_ = 0;
};

}  // namespace

RB_REGISTER_BACKEND(gpu_backend<CubSum<float>>("cub"));
RB_REGISTER_BACKEND(gpu_backend<CubSum<double>, double>("cub"));
RB_REGISTER_BACKEND(gpu_backend<CubSum<rb::f16, float>, rb::f16>("cub"));
RB_REGISTER_BACKEND(gpu_backend<CubSum<rb::bf16, float>, rb::bf16>("cub"));
RB_REGISTER_BACKEND(gpu_backend<CubSum<std::int32_t, long long>, std::int32_t>("cub"));
RB_REGISTER_BACKEND(gpu_backend<CubSum<rb::f16>, rb::f16>("cub/acc16"));
RB_REGISTER_BACKEND(gpu_backend<CubSum<rb::bf16>, rb::bf16>("cub/acc16"));

}  // namespace rb::bench::gpu
