// ref/segmented: the floor of a sum along a dimension (ref.hpp): every byte of the input read once
// with 16-byte loads and every output written once, in one launch, nothing added. Each block
// streams one contiguous share of the input (four loads in flight per thread) and writes one share
// of the outputs; what it read is folded into one word that is stored only if it is impossible, so
// no load can be dropped.
#include <cuda_runtime.h>

#include <cstdint>

#include "common/cuda_check.hpp"
#include "kernels/cuda/ref.hpp"

namespace rb::cuda::ref {
namespace {

constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 4;
constexpr int kUnroll = 4;

template <class I>
__device__ I lesser(I a, I b) {
  return a < b ? a : b;
}

__global__ void __launch_bounds__(kThreads) read_write_kernel(const unsigned char* in, std::size_t bytes, float* out,
                                                              std::int64_t outputs, unsigned* sink) {
  const std::size_t head = lesser<std::size_t>(bytes, (16 - reinterpret_cast<std::uintptr_t>(in) % 16) % 16);
  const auto* v = reinterpret_cast<const uint4*>(in + head);
  const std::size_t vecs = (bytes - head) / 16;
  const std::size_t share = (vecs + gridDim.x - 1) / gridDim.x;
  const std::size_t begin = lesser(vecs, share * blockIdx.x), end = lesser(vecs, begin + share);
  unsigned fold = 0;
  std::size_t i = begin + threadIdx.x;
  for (; i + (kUnroll - 1) * kThreads < end; i += kUnroll * kThreads) {
    uint4 x[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) x[u] = __ldcs(v + i + u * kThreads);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) fold ^= x[u].x ^ x[u].y ^ x[u].z ^ x[u].w;
  }
  for (; i < end; i += kThreads) {
    const uint4 x = __ldcs(v + i);
    fold ^= x.x ^ x.y ^ x.z ^ x.w;
  }
  if (blockIdx.x == 0) {  // the unaligned head and the tail, bytewise
    const std::size_t tail = head + vecs * 16;
    for (std::size_t b = threadIdx.x; b < head; b += kThreads) fold ^= in[b];
    for (std::size_t b = tail + threadIdx.x; b < bytes; b += kThreads) fold ^= in[b];
  }
  const std::int64_t per = (outputs + gridDim.x - 1) / gridDim.x;
  const std::int64_t o_begin = lesser<std::int64_t>(outputs, per * blockIdx.x);
  const std::int64_t o_end = lesser<std::int64_t>(outputs, o_begin + per);
  for (std::int64_t o = o_begin + threadIdx.x; o < o_end; o += kThreads) out[o] = 0.0f;
  if (fold == 0x9E3779B9u && threadIdx.x == 0) *sink = blockIdx.x;  // keeps every load live
}

}  // namespace

void read_write(const void* in, std::size_t bytes, float* out, std::int64_t outputs, unsigned* sink, int sm_count,
                cudaStream_t stream) {
  if (bytes == 0 && outputs == 0) return;
  read_write_kernel<<<sm_count * kBlocksPerSm, kThreads, 0, stream>>>(static_cast<const unsigned char*>(in), bytes,
                                                                      out, outputs, sink);
  RB_CUDA_CHECK_LAUNCH();
}

}  // namespace rb::cuda::ref
