// ref/segmented: the floor of a sum along a dimension (ref.hpp): every byte of the input read once
// with 16-byte loads and every output written once with 16-byte stores, in one launch, nothing
// added. A full machine of blocks of ref/read's shape each streams one contiguous share of
// the input, kUnroll loads in flight per thread, and writes its share of the outputs a slice per
// step of reads, so reads and writes are in flight together (a kernel that wrote after reading
// would leave the write bandwidth idle half the time). What it read is folded into one word that
// is stored only if it is impossible, so no load can be dropped.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>

#include "common/cuda_check.hpp"
#include "kernels/cuda/ref.hpp"
#include "kernels/cuda/tuning.cuh"

namespace rb::cuda::ref {
namespace {

// ref/read's shape (tuning.cuh: ReadShape), which reads at the ceiling, and its register budget.
constexpr int kThreads = ReadShape::threads;
constexpr int kBlocksPerSm = ReadShape::blocks_per_sm;
constexpr int kUnroll = ReadShape::unroll;

template <class I>
__device__ I lesser(I a, I b) {
  return a < b ? a : b;
}

// [begin, end) of `count` items for this block: contiguous shares.
struct Share {
  std::int64_t begin, end;
};
__device__ Share share_of(std::int64_t count) {
  const std::int64_t per = (count + gridDim.x - 1) / gridDim.x;
  const std::int64_t begin = lesser<std::int64_t>(count, per * blockIdx.x);
  return {begin, lesser<std::int64_t>(count, begin + per)};
}

__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    read_write_kernel(const unsigned char* in, std::int64_t bytes, float* out, std::int64_t outputs, unsigned* sink) {
  const auto misaligned = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(in) % 16);
  const std::int64_t head = lesser<std::int64_t>(bytes, misaligned ? 16 - misaligned : 0);
  const auto* v = reinterpret_cast<const uint4*>(in + head);
  const Share read = share_of((bytes - head) / 16);
  const Share write = share_of(outputs / 4);  // float4s; the last outputs % 4 by block 0
  auto* out4 = reinterpret_cast<float4*>(out);
  constexpr std::int64_t kStep = std::int64_t{kUnroll} * kThreads;
  const std::int64_t steps = (read.end - read.begin + kStep - 1) / kStep;
  const std::int64_t per_step = steps > 0 ? (write.end - write.begin + steps - 1) / steps : write.end - write.begin;
  unsigned fold = 0;
  std::int64_t o = write.begin;
  for (std::int64_t s = 0; s < (steps > 0 ? steps : 1); ++s) {
    const std::int64_t i = read.begin + s * kStep + threadIdx.x;
    uint4 x[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) x[u] = i + u * kThreads < read.end ? __ldg(v + i + u * kThreads) : uint4{};
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) fold ^= x[u].x ^ x[u].y ^ x[u].z ^ x[u].w;
    const std::int64_t o_end = lesser<std::int64_t>(write.end, o + per_step);
    for (std::int64_t k = o + threadIdx.x; k < o_end; k += kThreads) out4[k] = float4{0, 0, 0, 0};
    o = o_end;
  }
  if (blockIdx.x == 0) {  // the unaligned head and the tail bytes, the outputs past the last float4
    const std::int64_t tail = head + (bytes - head) / 16 * 16;
    for (std::int64_t b = threadIdx.x; b < head; b += kThreads) fold ^= in[b];
    for (std::int64_t b = tail + threadIdx.x; b < bytes; b += kThreads) fold ^= in[b];
    for (std::int64_t k = outputs / 4 * 4 + threadIdx.x; k < outputs; k += kThreads) out[k] = 0.0f;
  }
  if (fold == 0x9E3779B9u && threadIdx.x == 0) *sink = blockIdx.x;  // keeps every load live
}

}  // namespace

void read_write(const void* in, std::size_t bytes, float* out, std::int64_t outputs, unsigned* sink, int sm_count,
                cudaStream_t stream) {
  if (bytes == 0 && outputs == 0) return;
  if (reinterpret_cast<std::uintptr_t>(out) % 16 != 0)
    throw std::invalid_argument("ref::read_write: the outputs must be 16-byte aligned");
  read_write_kernel<<<sm_count * kBlocksPerSm, kThreads, 0, stream>>>(
      static_cast<const unsigned char*>(in), static_cast<std::int64_t>(bytes), out, outputs, sink);
  RB_CUDA_CHECK_LAUNCH();
}

}  // namespace rb::cuda::ref
