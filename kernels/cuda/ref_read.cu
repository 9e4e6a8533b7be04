// ref/read: onepass's read phase alone (tuning.cuh: ReadShape = onepass's large shape, same grid
// rule), for every element type (float: ref.hpp; the others: typed.hpp), with onepass's loads,
// conversions and accumulator: every block streams its chunk with the same loads in flight,
// reduces it, and writes partials[block]. No completion, no second kernel: the caller adds the
// partials after timing. So it is the fastest a one-launch sum of this shape can be at each n, and
// cuda/onepass minus ref/read is what onepass's completion costs. It is still checked: the
// partials must add up to the reference, which proves every element was read exactly once.
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
__global__ __launch_bounds__(Shape::threads, Shape::blocks_per_sm) void read_kernel(SplitOf<T> x, EvenShare share,
                                                                                    Acc* partials) {
  __shared__ BlockSumStorage<Acc, Shape::threads> storage;
  const Acc s = block_chunk_sum<Acc, Shape>(x, share, storage);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

// T: the storage type of sum.hpp and typed.hpp.
template <class T>
struct Read {
  using Acc = SumType<T>;
  static constexpr auto kKernel = &read_kernel<cuda::detail::DeviceElementOf<T>, Acc>;
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
      return Read<f16>::blocks(n);
    case Dtype::bf16:
      return Read<bf16>::blocks(n);
    case Dtype::f64:
      return Read<double>::blocks(n);
    case Dtype::i32:
      return Read<std::int32_t>::blocks(n);
    case Dtype::f32:
      break;
  }
  return read_blocks(n);
}

int read_blocks(std::int64_t n) { return Read<float>::blocks(n); }

void read(const float* in, std::int64_t n, float* partials, cudaStream_t stream) {
  Read<float>::read(in, n, partials, stream);
}
void read(const f16* in, std::int64_t n, float* partials, cudaStream_t stream) {
  Read<f16>::read(in, n, partials, stream);
}
void read(const bf16* in, std::int64_t n, float* partials, cudaStream_t stream) {
  Read<bf16>::read(in, n, partials, stream);
}
void read(const double* in, std::int64_t n, double* partials, cudaStream_t stream) {
  Read<double>::read(in, n, partials, stream);
}
void read(const std::int32_t* in, std::int64_t n, long long* partials, cudaStream_t stream) {
  Read<std::int32_t>::read(in, n, partials, stream);
}

}  // namespace rb::cuda::ref
