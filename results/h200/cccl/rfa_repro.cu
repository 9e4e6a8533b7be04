// Stand-alone reproducer of the cub/gpu_to_gpu finding (results/h200/cccl/README.md): does
// cub::DeviceReduce::Sum with cuda::execution::determinism::gpu_to_gpu return the exact sum of
// small integers? No harness, CUB's default memory resource; run_to_run beside it.
//   nvcc -std=c++20 -arch=sm_90 -O2 -I<cccl>/cub -I<cccl>/thrust -I<cccl>/libcudacxx/include rfa_repro.cu
#include <cub/device/device_reduce.cuh>
#include <cuda/std/execution>
#include <cuda/stream_ref>
#include <cuda/version>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                                         \
  do {                                                                                                \
    cudaError_t e_ = (x);                                                                             \
    if (e_ != cudaSuccess) {                                                                          \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e_));                                            \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

// x[i] = (7919 i mod 17) - 8: integers in [-8, 8], every partial sum exact in float.
__global__ void fill(float* x, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    x[i] = static_cast<float>((i * 7919) % 17) - 8.0f;
}

// A period of 17 sums to 0 (7919 is prime to 17), so only the last n mod 17 values count.
double exact(std::int64_t n) {
  double s = 0;
  for (std::int64_t i = n - n % 17; i < n; ++i) s += static_cast<double>((i * 7919) % 17) - 8.0;
  return s;
}

template <class Requirement>
double sum(const float* x, std::int64_t n, float* out, cudaStream_t s) {
  const auto env = cuda::std::execution::env{cuda::stream_ref{s}, cuda::execution::require(Requirement{})};
  CK(cub::DeviceReduce::Sum(x, out, n, env));
  float h = 0;
  CK(cudaMemcpyAsync(&h, out, sizeof h, cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  return h;
}

int main() {
  using gpu_to_gpu = cuda::execution::determinism::gpu_to_gpu_t;
  using run_to_run = cuda::execution::determinism::run_to_run_t;
  const std::int64_t cap = std::int64_t{1} << 31;
  float *x = nullptr, *out = nullptr;
  CK(cudaMalloc(&x, cap * sizeof(float)));
  CK(cudaMalloc(&out, 16));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  fill<<<1024, 256, 0, s>>>(x, cap);
  CK(cudaGetLastError());
  std::printf("CCCL %d\n", CCCL_VERSION);
  for (const std::int64_t n : {std::int64_t{1} << 24, std::int64_t{1} << 28, std::int64_t{1} << 29, std::int64_t{1} << 30, cap}) {
    std::printf("n = %lld: exact %.0f, gpu_to_gpu %.9g, run_to_run %.9g\n", static_cast<long long>(n), exact(n),
                sum<gpu_to_gpu>(x, n, out, s), sum<run_to_run>(x, n, out, s));
  }
  // The smallest failing n: a scan from 2^28 in steps of 2^23, then bisection.
  const auto good = [&](std::int64_t n) { return sum<gpu_to_gpu>(x, n, out, s) == exact(n); };
  std::int64_t lo = 0, hi = 0;
  for (std::int64_t n = std::int64_t{1} << 28; n <= cap; n += std::int64_t{1} << 23) {
    if (!good(n)) {
      hi = n;
      break;
    }
    lo = n;
  }
  if (hi == 0) {
    std::printf("no failure up to 2^31\n");
    return 0;
  }
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (good(mid) ? lo : hi) = mid;
  }
  std::printf("first failure found: n = %lld (n - 1 = %lld passes); next sizes:", static_cast<long long>(hi), static_cast<long long>(lo));
  for (std::int64_t n = hi; n < hi + 6; ++n) std::printf(" %s", good(n) ? "ok" : "WRONG");
  std::printf("\n");
  return 0;
}
