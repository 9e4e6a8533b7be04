#pragma once
// The one adapter every hand-written CUDA variant shares (kernels/cuda/sum.hpp's shape):
//   constructor (untimed): scratch sized for n by the variant, which also queries and caches the
//     SM count and occupancy there, then prepare() (onepass zeroes its counter and slots) and a stream sync;
//   enqueue: the variant's launches, nothing else;
//   result: the float or double the variant wrote.
// Float variants are checked as f32_tree, double ones as f64 (bench/verify.hpp).
#include <memory>
#include <string>
#include <type_traits>

#include "bench/gpu/backend.hpp"
#include "kernels/cuda/sum.hpp"

namespace rb::bench::gpu {

template <class Out>
class CudaKernelSum final : public GpuBackend {
  static_assert(std::is_same_v<Out, float> || std::is_same_v<Out, double>);

 public:
  CudaKernelSum(const GpuProblem& p, const rb::cuda::Variant<Out>& v) : v_(v), in_(p.input), n_(p.n), out_(p.out) {
    const std::size_t bytes = v_.scratch_bytes(n_);
    scratch_ = p.scratch.get(bytes);
    v_.prepare(scratch_, bytes, p.stream);
    RB_CUDA_CHECK(cudaStreamSynchronize(p.stream));
  }
  void enqueue(cudaStream_t stream) override { v_.sum(in_, n_, scratch_, target(), stream); }
  double result() override {
    if constexpr (std::is_same_v<Out, double>) return out_.read_f64();
    else return out_.read_f32();
  }

 private:
  Out* target() const {
    if constexpr (std::is_same_v<Out, double>) return out_.f64();
    else return out_.f32();
  }

  rb::cuda::Variant<Out> v_;
  const float* in_;
  std::int64_t n_;
  ResultSlot out_;
  void* scratch_ = nullptr;
};

template <class Out>
GpuBackendDef cuda_kernel(std::string name, const rb::cuda::Variant<Out>& v) {
  constexpr Accumulation acc = std::is_same_v<Out, double> ? Accumulation::f64 : Accumulation::f32_tree;
  return {std::move(name), acc,
          [v](const GpuProblem& p) -> std::unique_ptr<GpuBackend> { return std::make_unique<CudaKernelSum<Out>>(p, v); },
          {}};
}

}  // namespace rb::bench::gpu
