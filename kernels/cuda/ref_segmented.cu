// ref/segmented: the floor of a sum along a dimension (ref.hpp): every byte of the input read once
// with 16-byte loads and every output written once with 16-byte stores, in one launch, nothing
// added. Its reads are ref/read's: the same shape (tuning.cuh: ReadShape), the same grid, each
// block one contiguous share of whole rows of `threads` vectors (layout.cuh: EvenShare), unroll
// loads in flight a thread. The outputs are shared the same way, and each block stores a slice of
// its share (whole rows) after every step of loads, so reads and writes are in flight together.
// What it read is folded into one word stored only if impossible, so no load can be dropped.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>

#include "common/cuda_check.hpp"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/ref.hpp"
#include "kernels/cuda/tuning.cuh"

namespace rb::cuda::ref {
namespace {

constexpr int kThreads = ReadShape::threads;
constexpr int kUnroll = ReadShape::unroll;
constexpr std::int64_t kStep = std::int64_t{kUnroll} * kThreads;  // vectors a block loads a step

struct Plan {
  const uint4* body;  // the input's 16-byte aligned vectors
  const unsigned char* bytes;
  std::int64_t head, body_end, size;  // bytes before the body, its end, the input's size
  EvenShare reads, writes;            // over vectors in, float4s out
  float* out;
  std::int64_t outputs;
};

__device__ __forceinline__ unsigned fold(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }

__global__ void __launch_bounds__(kThreads, ReadShape::blocks_per_sm) read_write_kernel(Plan p, unsigned* sink) {
  const Range r = p.reads.block(blockIdx.x), w = p.writes.block(blockIdx.x);
  auto* out4 = reinterpret_cast<float4*>(p.out);
  // Whole rows of stores a step, spread over the steps of loads.
  const std::int64_t steps = ceil_div(r.end - r.begin, kStep);
  const std::int64_t slice = steps > 0 ? ceil_div(ceil_div(w.end - w.begin, steps), kThreads) * kThreads : 0;
  std::int64_t o = w.begin;
  const auto store = [&](std::int64_t until) {
    for (std::int64_t k = o + threadIdx.x; k < until; k += kThreads) out4[k] = float4{0, 0, 0, 0};
    o = until;
  };
  unsigned folded = 0;
  std::int64_t i = r.begin + threadIdx.x;
  const std::int64_t full_end = r.end - std::int64_t{kUnroll - 1} * kThreads;
#pragma unroll 1
  for (; i < full_end; i += kStep) {
    uint4 v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) v[k] = __ldg(p.body + i + k * kThreads);
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) folded ^= fold(v[k]);
    store(o + slice < w.end ? o + slice : w.end);
  }
  if (i < r.end) {
    uint4 v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) v[k] = i + k * kThreads < r.end ? __ldg(p.body + i + k * kThreads) : uint4{};
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) folded ^= fold(v[k]);
  }
  store(w.end);
  if (blockIdx.x == 0) {  // the bytes before and after the body, the outputs past the last float4
    for (std::int64_t b = threadIdx.x; b < p.head; b += kThreads) folded ^= p.bytes[b];
    for (std::int64_t b = p.body_end + threadIdx.x; b < p.size; b += kThreads) folded ^= p.bytes[b];
    for (std::int64_t k = p.outputs / 4 * 4 + threadIdx.x; k < p.outputs; k += kThreads) p.out[k] = 0.0f;
  }
  if (folded == 0x9E3779B9u && threadIdx.x == 0) *sink = blockIdx.x;  // keeps every load live
}

}  // namespace

void read_write(const void* in, std::size_t bytes, float* out, std::int64_t outputs, unsigned* sink, int sm_count,
                cudaStream_t stream) {
  if (bytes == 0 && outputs == 0) return;
  if (reinterpret_cast<std::uintptr_t>(out) % 16 != 0)
    throw std::invalid_argument("ref::read_write: the outputs must be 16-byte aligned");
  const auto* base = static_cast<const unsigned char*>(in);
  const auto size = static_cast<std::int64_t>(bytes);
  const auto misaligned = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(in) % 16);
  const std::int64_t head = std::min<std::int64_t>(size, misaligned ? 16 - misaligned : 0);
  const std::int64_t vecs = (size - head) / 16;
  // ref/read's grid rule: whole tiles per block, the machine's resident blocks at most.
  const int grid = work_sized_grid(std::max(vecs, ceil_div(outputs, 4)), kStep, sm_count * ReadShape::blocks_per_sm);
  const Plan p{reinterpret_cast<const uint4*>(base + head),
               base,
               head,
               head + vecs * 16,
               size,
               EvenShare::make(vecs, kThreads, grid),
               EvenShare::make(outputs / 4, kThreads, grid),
               out,
               outputs};
  read_write_kernel<<<grid, kThreads, 0, stream>>>(p, sink);
  RB_CUDA_CHECK_LAUNCH();
}

}  // namespace rb::cuda::ref
