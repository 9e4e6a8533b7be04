#include "bench/gpu/harness_kernels.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>

#include "common/synth.hpp"
#include "common/cuda_check.hpp"

namespace rb::bench::gpu {
namespace {

__global__ void spin_kernel(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

__global__ void flush_kernel(const uint4* __restrict__ buf, std::size_t count, unsigned* sink) {
  unsigned acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const uint4 v = buf[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  // The buffer is zeroed, so this never stores; the compiler cannot know that, so it keeps
  // every load.
  if (acc == 0x9E3779B9u) *sink = acc;
}

__global__ void page_touch_kernel(const char* buf, std::size_t pages, std::size_t page_bytes, unsigned* sink) {
  unsigned acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < pages;
       i += std::size_t{gridDim.x} * blockDim.x) {
    acc ^= __ldcg(reinterpret_cast<const unsigned*>(buf + i * page_bytes));
  }
  if (acc == 0x9E3779B9u) *sink = acc;  // as flush_kernel: never true, keeps the loads
}

__global__ void generate_kernel(float* x, std::int64_t begin, std::int64_t n, Dist dist, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    x[i] = synth::value(dist, seed, begin + i);
  }
}

__global__ void fill_kernel(float* x, std::int64_t count, float value) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    x[i] = value;
  }
}

// The nonzeros travel as the kernel's parameter (kSparseCount of them: under 1 KB).
struct SparsePoints {
  int count;
  std::int64_t index[kSparseCount];
  float value[kSparseCount];
};

__global__ void scatter_kernel(float* x, SparsePoints p) {
  if (static_cast<int>(threadIdx.x) < p.count) x[p.index[threadIdx.x]] = p.value[threadIdx.x];
}

__global__ void keep_and_poison_kernel(unsigned* slot, unsigned* keep) {
  const unsigned i = threadIdx.x;
  if (keep) keep[i] = slot[i];
  slot[i] = 0xFFFFFFFFu;
}

__global__ void compare_kernel(const unsigned* __restrict__ got, const unsigned* __restrict__ want, std::int64_t count,
                               unsigned long long* wrong, unsigned long long* first) {
  unsigned long long mine = 0, lowest = ~0ull;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < count; i += stride) {
    if (got[i] != want[i]) {
      if (mine++ == 0) lowest = static_cast<unsigned long long>(i);
    }
  }
  if (mine) {
    atomicAdd(wrong, mine);
    atomicMin(first, lowest);
  }
}

}  // namespace

void enqueue_compare(cudaStream_t stream, const float* got, const float* want, std::int64_t count,
                     unsigned long long* wrong, unsigned long long* first) {
  if (count <= 0) return;
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(4096, (count + 255) / 256));
  compare_kernel<<<blocks, 256, 0, stream>>>(reinterpret_cast<const unsigned*>(got),
                                              reinterpret_cast<const unsigned*>(want), count, wrong, first);
  RB_CUDA_CHECK_LAUNCH();
}

void enqueue_keep_and_poison(cudaStream_t stream, void* slot, void* keep) {
  keep_and_poison_kernel<<<1, 4, 0, stream>>>(static_cast<unsigned*>(slot), static_cast<unsigned*>(keep));
  RB_CUDA_CHECK_LAUNCH();
}

void enqueue_fill(cudaStream_t stream, float* x, std::int64_t count, float value) {
  if (count <= 0) return;
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(1024, (count + 255) / 256));
  fill_kernel<<<blocks, 256, 0, stream>>>(x, count, value);
  RB_CUDA_CHECK_LAUNCH();
}

void enqueue_scatter(cudaStream_t stream, float* x, const SparseSet& set) {
  SparsePoints p{};
  p.count = static_cast<int>(std::min<std::size_t>(set.index.size(), kSparseCount));
  for (int k = 0; k < p.count; ++k) {
    p.index[k] = set.index[static_cast<std::size_t>(k)];
    p.value[k] = set.value[static_cast<std::size_t>(k)];
  }
  if (p.count == 0) return;
  scatter_kernel<<<1, kSparseCount, 0, stream>>>(x, p);
  RB_CUDA_CHECK_LAUNCH();
}

namespace {

// The same rules as bench/detail/element.cpp, in device arithmetic: x * 2^20 is exact in float, and
// rintf rounds to nearest even as nearbyint does on the host.
template <class T>
__device__ T stored_as(float x);
template <>
__device__ double stored_as<double>(float x) { return x; }
template <>
__device__ __half stored_as<__half>(float x) { return __float2half_rn(x); }
template <>
__device__ __nv_bfloat16 stored_as<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }
template <>
__device__ std::int32_t stored_as<std::int32_t>(float x) {
  if (isnan(x)) return 0;
  const float v = fminf(fmaxf(rintf(x * kI32Scale), static_cast<float>(-kI32Max)), static_cast<float>(kI32Max));
  return static_cast<std::int32_t>(v);
}

template <class T>
__global__ void store_kernel(const float* __restrict__ src, T* __restrict__ dst, std::int64_t count) {
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
    dst[i] = stored_as<T>(src[i]);
  }
}

template <class T>
void launch_store(cudaStream_t stream, const float* src, void* dst, std::int64_t count) {
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(4096, (count + 255) / 256));
  store_kernel<T><<<blocks, 256, 0, stream>>>(src, static_cast<T*>(dst), count);
  RB_CUDA_CHECK_LAUNCH();
}

}  // namespace

void enqueue_store(cudaStream_t stream, Dtype d, const float* src, void* dst, std::int64_t count) {
  if (count <= 0) return;
  switch (d) {
    case Dtype::f32:
      RB_CUDA_CHECK(cudaMemcpyAsync(dst, src, static_cast<std::size_t>(count) * sizeof(float), cudaMemcpyDeviceToDevice,
                                    stream));
      return;
    case Dtype::f64: return launch_store<double>(stream, src, dst, count);
    case Dtype::f16: return launch_store<__half>(stream, src, dst, count);
    case Dtype::bf16: return launch_store<__nv_bfloat16>(stream, src, dst, count);
    case Dtype::i32: return launch_store<std::int32_t>(stream, src, dst, count);
  }
}

void enqueue_spin(cudaStream_t stream, long long cycles) {
  spin_kernel<<<1, 1, 0, stream>>>(cycles);
  RB_CUDA_CHECK_LAUNCH();
}

void enqueue_l2_flush(cudaStream_t stream, const void* buf, std::size_t bytes, unsigned* sink, int sm_count) {
  flush_kernel<<<4 * sm_count, 512, 0, stream>>>(static_cast<const uint4*>(buf), bytes / sizeof(uint4), sink);
  RB_CUDA_CHECK_LAUNCH();
}

void enqueue_page_touch(cudaStream_t stream, const void* buf, std::size_t bytes, std::size_t page_bytes,
                        unsigned* sink) {
  const std::size_t pages = bytes / page_bytes;
  if (pages == 0) return;
  const auto blocks = static_cast<unsigned>(std::min<std::size_t>(1024, (pages + 255) / 256));
  page_touch_kernel<<<blocks, 256, 0, stream>>>(static_cast<const char*>(buf), pages, page_bytes, sink);
  RB_CUDA_CHECK_LAUNCH();
}

void enqueue_generate(cudaStream_t stream, float* x, std::int64_t n, Dist dist, std::uint64_t seed) {
  enqueue_generate_range(stream, x, 0, n, dist, seed);
}

void enqueue_generate_range(cudaStream_t stream, float* x, std::int64_t begin, std::int64_t end, Dist dist,
                            std::uint64_t seed) {
  if (end <= begin) return;
  generate_kernel<<<4096, 256, 0, stream>>>(x, begin, end - begin, dist, seed);
  RB_CUDA_CHECK_LAUNCH();
}

}  // namespace rb::bench::gpu
