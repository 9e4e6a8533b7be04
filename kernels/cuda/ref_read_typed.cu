// ref/read for the typed onepass (typed.hpp: ref::read over f16, bf16, double and int32): as
// ref_read.cu, the read phase alone with the Large shape and the same grid rule, here with the
// typed onepass's loads, conversions and accumulator, so that a typed onepass minus its typed
// ref/read is the price of its completion. Every block writes its partial; nothing combines them.
#include <algorithm>
#include <cstdint>

#include "common/cuda_check.hpp"
#include "kernels/cuda/chunk_sum.cuh"
#include "kernels/cuda/elements.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/ref.hpp"
#include "kernels/cuda/residency.cuh"
#include "kernels/cuda/tuning.cuh"
#include "kernels/cuda/typed.hpp"

namespace rb::cuda::ref {
namespace {

using Shape = ReadShape;

template <class T, class Acc>
__global__ __launch_bounds__(Shape::threads, Shape::blocks_per_sm) void typed_read_kernel(SplitOf<T> x, EvenShare share,
                                                                                          Acc* partials) {
  __shared__ BlockSumStorage<Acc, Shape::threads> storage;
  const Acc s = block_chunk_sum<Acc, Shape>(x, share, storage);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

// T: the storage type of typed.hpp.
template <class T>
struct TypedRead {
  using Acc = SumType<T>;
  static constexpr auto kKernel = &typed_read_kernel<cuda::detail::DeviceElementOf<T>, Acc>;
  static constexpr std::int64_t kTile = std::int64_t{Shape::threads} * Shape::unroll * (16 / std::int64_t{sizeof(T)});

  static int blocks(std::int64_t n) {
    const int fit = resident_blocks_per_sm<kKernel, Shape::threads>();
    return work_sized_grid(n, kTile, sm_count() * std::min(Shape::blocks_per_sm, fit));
  }

  static void read(const T* in, std::int64_t n, Acc* partials, cudaStream_t stream) {
    const auto x = split_aligned(cuda::detail::device_elements(in), n);
    const int grid = blocks(n);
    kKernel<<<grid, Shape::threads, 0, stream>>>(x, EvenShare::make(x.body_n, Shape::threads, grid), partials);
    RB_CUDA_CHECK_LAUNCH();
  }
};

}  // namespace

int read_blocks(Dtype dtype, std::int64_t n) {
  switch (dtype) {
    case Dtype::f16:
      return TypedRead<f16>::blocks(n);
    case Dtype::bf16:
      return TypedRead<bf16>::blocks(n);
    case Dtype::f64:
      return TypedRead<double>::blocks(n);
    case Dtype::i32:
      return TypedRead<std::int32_t>::blocks(n);
    case Dtype::f32:
      break;
  }
  return read_blocks(n);
}

void read(const f16* in, std::int64_t n, float* partials, cudaStream_t stream) {
  TypedRead<f16>::read(in, n, partials, stream);
}
void read(const bf16* in, std::int64_t n, float* partials, cudaStream_t stream) {
  TypedRead<bf16>::read(in, n, partials, stream);
}
void read(const double* in, std::int64_t n, double* partials, cudaStream_t stream) {
  TypedRead<double>::read(in, n, partials, stream);
}
void read(const std::int32_t* in, std::int64_t n, long long* partials, cudaStream_t stream) {
  TypedRead<std::int32_t>::read(in, n, partials, stream);
}

}  // namespace rb::cuda::ref
