// Probe: does a cold call pay for fetching its own code from HBM?
// Modes, interleaved per round: A cold (flush + page touch + spin + timed call);
// B the same with an untimed call of the same backend on separate buffers after the flush
// (its code back in L2, its data not); C with an untimed call of another backend instead.
#include <cuda_runtime.h>
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kernels/cuda/ref.hpp"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/typed.hpp"

#define CK(x)                                                                           \
  do {                                                                                  \
    cudaError_t e_ = (x);                                                               \
    if (e_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

__global__ void spin(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}
__global__ void flush(const uint4* __restrict__ b, size_t count, unsigned* sink) {
  unsigned acc = 0;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count; i += size_t{gridDim.x} * blockDim.x) {
    const uint4 v = b[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9E3779B9u) *sink = acc;
}
__global__ void touch(const char* b, size_t pages, size_t page, unsigned* sink) {
  unsigned acc = 0;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < pages; i += size_t{gridDim.x} * blockDim.x)
    acc ^= __ldcg(reinterpret_cast<const unsigned*>(b + i * page));
  if (acc == 0x9E3779B9u) *sink = acc;
}
__global__ void fill(float* x, long long n, unsigned seed) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += gridDim.x * 256ll) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    x[i] = static_cast<float>(h & 0xFFFF) / 65536.0f;
  }
}
__global__ void to_double(const float* x, double* y, long long n) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += gridDim.x * 256ll) y[i] = x[i];
}

struct Buffers {  // one set of device buffers for one backend call
  float* f = nullptr;
  double* d = nullptr;
  void* scratch = nullptr;
  size_t scratch_bytes = 0;
  void* out = nullptr;
};

struct Backend {
  std::string name;
  std::function<void(Buffers&, long long, cudaStream_t)> setup;  // allocates scratch/out
  std::function<void(Buffers&, long long, cudaStream_t)> call;
};

int main() {
  int sms = 0, l2 = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  int clock_khz = 0;
  CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const size_t flush_bytes = 2 * size_t(l2);
  void *fb, *pb;
  unsigned* sink;
  CK(cudaMalloc(&fb, flush_bytes));
  CK(cudaMemset(fb, 0, flush_bytes));
  const size_t page = size_t{2} << 20, pages_bytes = size_t{8} << 30;
  CK(cudaMalloc(&pb, pages_bytes));
  CK(cudaMemset(pb, 0, pages_bytes));
  CK(cudaMalloc(&sink, 4));
  const long long maxn = 1ll << 24;

  std::vector<Backend> backends;
  backends.push_back({"cuda/onepass",
                      [](Buffers& b, long long n, cudaStream_t st) {
                        b.scratch_bytes = rb::cuda::onepass.scratch_bytes(n);
                        CK(cudaMalloc(&b.scratch, std::max<size_t>(b.scratch_bytes, 16)));
                        rb::cuda::onepass.prepare(b.scratch, b.scratch_bytes, st);
                        CK(cudaMalloc(&b.out, 16));
                      },
                      [](Buffers& b, long long n, cudaStream_t st) {
                        rb::cuda::onepass.sum(b.f, n, b.scratch, static_cast<float*>(b.out), st);
                      }});
  backends.push_back({"cuda/onepass@f64",
                      [](Buffers& b, long long n, cudaStream_t st) {
                        b.scratch_bytes = rb::cuda::onepass_in_f64.scratch_bytes(n);
                        CK(cudaMalloc(&b.scratch, std::max<size_t>(b.scratch_bytes, 16)));
                        rb::cuda::onepass_in_f64.prepare(b.scratch, b.scratch_bytes, st);
                        CK(cudaMalloc(&b.out, 16));
                      },
                      [](Buffers& b, long long n, cudaStream_t st) {
                        rb::cuda::onepass_in_f64.sum(b.d, n, b.scratch, static_cast<double*>(b.out), st);
                      }});
  backends.push_back({"ref/read",
                      [](Buffers& b, long long n, cudaStream_t) {
                        CK(cudaMalloc(&b.out, sizeof(float) * std::max(1, rb::cuda::ref::read_blocks(n))));
                      },
                      [](Buffers& b, long long n, cudaStream_t st) {
                        rb::cuda::ref::read(b.f, n, static_cast<float*>(b.out), st);
                      }});
  backends.push_back({"ref/read@f64",
                      [](Buffers& b, long long n, cudaStream_t) {
                        const int k = rb::cuda::ref::read_blocks(rb::Dtype::f64, n);
                        CK(cudaMalloc(&b.out, sizeof(double) * std::max(1, k)));
                      },
                      [](Buffers& b, long long n, cudaStream_t st) {
                        rb::cuda::ref::read(b.d, n, static_cast<double*>(b.out), st);
                      }});
  backends.push_back({"cub",
                      [](Buffers& b, long long n, cudaStream_t st) {
                        CK(cub::DeviceReduce::Sum(nullptr, b.scratch_bytes, b.f, static_cast<float*>(b.out), n, st));
                        CK(cudaMalloc(&b.scratch, std::max<size_t>(b.scratch_bytes, 16)));
                        CK(cudaMalloc(&b.out, 16));
                      },
                      [](Buffers& b, long long n, cudaStream_t st) {
                        CK(cub::DeviceReduce::Sum(b.scratch, b.scratch_bytes, b.f, static_cast<float*>(b.out), n, st));
                      }});
  const size_t nb = backends.size();
  // Two input sets: [0] timed, [1] the untimed call's.
  float* fin[2];
  double* din[2];
  for (int k = 0; k < 2; ++k) {
    CK(cudaMalloc(&fin[k], maxn * sizeof(float)));
    CK(cudaMalloc(&din[k], maxn * sizeof(double)));
    fill<<<1024, 256, 0, s>>>(fin[k], maxn, 17u + k);
    to_double<<<1024, 256, 0, s>>>(fin[k], din[k], maxn);
  }
  CK(cudaGetLastError());
  const std::vector<long long> sizes = {1ll << 13, 1ll << 15, 1ll << 16, 1ll << 17, 1ll << 18, 1ll << 20};
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const int rounds = std::atoi(std::getenv("ROUNDS") ? std::getenv("ROUNDS") : "600");
  const long long spin_cycles = static_cast<long long>(clock_khz) * 20 / 1000;  // 20 us
  std::mt19937 rng(7);
  std::printf("backend n mode median_us p25 p75 mean samples\n");
  for (long long n : sizes) {
    // buffers per backend, per set
    std::vector<Buffers> buf(nb * 2);
    for (size_t i = 0; i < nb; ++i)
      for (int k = 0; k < 2; ++k) {
        Buffers& b = buf[i * 2 + k];
        b.f = fin[k];
        b.d = din[k];
        backends[i].setup(b, n, s);
      }
    CK(cudaStreamSynchronize(s));
    // warm every backend once
    for (size_t i = 0; i < nb; ++i) backends[i].call(buf[i * 2], n, s);
    CK(cudaStreamSynchronize(s));
    {  // the sums agree: onepass, onepass@f64 and cub over the same values
      float a = 0, c = 0;
      double d = 0;
      CK(cudaMemcpy(&a, buf[0].out, 4, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(&d, buf[2].out, 8, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(&c, buf[8].out, 4, cudaMemcpyDeviceToHost));
      std::printf("# n %lld onepass %.6g onepass@f64 %.9g cub %.6g\n", n, a, d, c);
      if (std::abs(a - d) > 1e-5 * std::abs(d) || std::abs(c - d) > 1e-5 * std::abs(d)) {
        std::fprintf(stderr, "sums disagree\n");
        return 1;
      }
    }
    std::vector<std::vector<float>> t(nb * 4);
    std::vector<int> order(nb * 4);
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    for (int r = 0; r < rounds; ++r) {
      std::shuffle(order.begin(), order.end(), rng);
      for (int cell : order) {
        const size_t i = static_cast<size_t>(cell) / 4;
        const int mode = cell % 4;
        for (int p = 0; p < 2; ++p) {
          flush<<<sms * 4, 512, 0, s>>>(static_cast<const uint4*>(fb), flush_bytes / 16, sink);
        }
        touch<<<16, 256, 0, s>>>(static_cast<const char*>(pb), pages_bytes / page, page, sink);
        if (mode == 1) backends[i].call(buf[i * 2 + 1], n, s);
        if (mode == 2) {
          // another backend's code: ref/read for a sum, onepass for ref/read
          const size_t other = backends[i].name.rfind("ref/", 0) == 0 ? (backends[i].name.find("f64") != std::string::npos ? 1 : 0)
                                                                      : (backends[i].name.find("f64") != std::string::npos ? 3 : 2);
          backends[other].call(buf[other * 2 + 1], n, s);
        }
        if (mode == 3) rb::cuda::ref::launch_empty(s);
        spin<<<1, 1, 0, s>>>(spin_cycles);
        CK(cudaEventRecord(e0, s));
        backends[i].call(buf[i * 2], n, s);
        CK(cudaEventRecord(e1, s));
        CK(cudaGetLastError());
        CK(cudaEventSynchronize(e1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t[static_cast<size_t>(cell)].push_back(ms * 1000.f);
      }
    }
    const char* mname[4] = {"A", "B", "C", "D"};
    for (size_t cell = 0; cell < t.size(); ++cell) {
      auto v = t[cell];
      std::sort(v.begin(), v.end());
      double mean = 0;
      for (float x : v) mean += x;
      mean /= v.size();
      std::printf("%s %lld %s %.3f %.3f %.3f %.3f %zu\n", backends[cell / 4].name.c_str(), n, mname[cell % 4],
                  v[v.size() / 2], v[v.size() / 4], v[3 * v.size() / 4], mean, v.size());
    }
    std::fflush(stdout);
    for (auto& b : buf) {
      if (b.scratch) CK(cudaFree(b.scratch));
      if (b.out) CK(cudaFree(b.out));
    }
  }
  return 0;
}
