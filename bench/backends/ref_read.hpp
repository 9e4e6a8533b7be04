#pragma once
// ref/read of every element type: onepass's read phase alone (kernels/cuda/ref.hpp for floats,
// kernels/cuda/typed.hpp for the others). enqueue() times only the kernel that streams x and
// writes one partial per block; result() adds those partials on the host, after timing, in double
// and in block order. The row is a bound no one-launch reduction of that shape can beat, and it is
// still verified like a sum (every element read exactly once).
#include <cstdint>
#include <vector>

#include "bench/api/gpu_backend.hpp"
#include "kernels/cuda/ref.hpp"
#include "kernels/cuda/tuning.cuh"
#include "kernels/cuda/typed.hpp"

namespace rb::bench::gpu {

template <class T>
class RefRead final : public GpuBackend {
  using Out = rb::cuda::SumType<T>;  // what a block adds in and writes

 public:
  explicit RefRead(const GpuProblemOf<T>& p)
      : in_(p.input), n_(p.n), stream_(p.stream), blocks_(rb::cuda::ref::read_blocks(dtype_of<T>, p.n)) {
    partials_ = static_cast<Out*>(p.scratch.get(static_cast<std::size_t>(blocks_) * sizeof(Out)));
  }
  void enqueue(cudaStream_t stream) override { rb::cuda::ref::read(in_, n_, partials_, stream); }
  double result() override {
    std::vector<Out> host(static_cast<std::size_t>(blocks_));
    RB_CUDA_CHECK(cudaMemcpyAsync(host.data(), partials_, host.size() * sizeof(Out), cudaMemcpyDeviceToHost, stream_));
    RB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    double sum = 0;
    for (const Out v : host) sum += static_cast<double>(v);
    return sum;
  }
  // onepass's read phase (kernel_structure without the completion), then the partials in double.
  Structure structure() const override {
    using Shape = rb::cuda::ReadShape;
    Structure s = blocked(accumulator_for<Out>(), n_, std::int64_t{blocks_} * Shape::threads,
                          16 / static_cast<int>(sizeof(T)), tree_depth(Shape::unroll) + 1 + tree_depth(Shape::threads));
    s.chain += Shape::unroll;
    s.f64_adds = blocks_;
    s.float_result = false;
    return s;
  }

 private:
  const T* in_;
  std::int64_t n_;
  cudaStream_t stream_;
  int blocks_;
  Out* partials_ = nullptr;
};

}  // namespace rb::bench::gpu
