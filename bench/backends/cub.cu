// cub: cub::DeviceReduce::Sum as a user should call it: temporary storage sized once and
// allocated outside the timed region, 64-bit num_items (CCCL >= 2.2), the harness's stream.
// For n <= 4096 CUB runs one single-tile kernel, above that two (a grid over tiles, then one
// block over the partials): the step between 2^12 and 2^13 in every CUB sweep.
#include <cub/device/device_reduce.cuh>

#include "bench/backends/cub_structure.hpp"

namespace rb::bench::gpu {
namespace {

class CubSum final : public GpuBackend {
 public:
  explicit CubSum(const GpuProblem& p) : in_(p.input), n_(p.n), out_(p.out), sm_count_(p.sm_count) {
    RB_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes_, in_, out_.f32(), n_, p.stream));
    temp_ = p.scratch.get(temp_bytes_);
  }
  void enqueue(cudaStream_t s) override {
    RB_CUDA_CHECK(cub::DeviceReduce::Sum(temp_, temp_bytes_, in_, out_.f32(), n_, s));
  }
  double result() override { return out_.read_f32(); }
  ResultIn result_in() const override { return ResultIn::slot_f32; }
  Structure structure() const override { return cub_reduce_structure(n_, sm_count_); }

 private:
  const float* in_;
  std::int64_t n_;
  ResultSlot out_;
  int sm_count_;
  void* temp_ = nullptr;
  std::size_t temp_bytes_ = 0;
};

}  // namespace

RB_REGISTER_BACKEND(gpu_backend<CubSum>("cub"));

}  // namespace rb::bench::gpu
