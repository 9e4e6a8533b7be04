#pragma once
// Device facts the launchers size their grids from: SM count and resident blocks per SM of a
// kernel, and the compute capability cuda/onepass picks its tuning entry by (tuning.cuh).
// Queried with checked calls once per device and cached, the way CUB caches device
// attributes. The first query for a device must happen outside any timed region (the variants'
// scratch_bytes() makes it): cudaOccupancy* can load the kernel's module, which may synchronize.
// Afterwards a launch reads the cache, plus a cudaGetDevice, which never synchronizes.
#include <cuda_runtime.h>

#include <array>
#include <atomic>

#include "common/cuda_check.hpp"

namespace rb::cuda {
namespace detail {

// One positive int per device ordinal, 0 until queried. Two threads racing on the first query
// both store the same value, so relaxed atomics are enough.
class PerDevice {
 public:
  template <class Query>
  int get(Query&& query) {
    int device = 0;
    RB_CUDA_CHECK(cudaGetDevice(&device));
    return get(device, query);
  }

  // The same for a given device ordinal rather than the current one.
  template <class Query>
  int get(int device, Query&& query) {
    if (device < 0 || device >= kMaxDevices) return query(device);
    int v = slots_[device].load(std::memory_order_relaxed);
    if (v == 0) {
      v = query(device);
      slots_[device].store(v, std::memory_order_relaxed);
    }
    return v;
  }

 private:
  static constexpr int kMaxDevices = 64;
  std::array<std::atomic<int>, kMaxDevices> slots_{};
};

}  // namespace detail

inline int sm_count() {
  static detail::PerDevice cache;
  return cache.get([](int device) {
    int v = 0;
    RB_CUDA_CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, device));
    return v;
  });
}

// The compute capability of a device as 100 x major + minor (900 on the H200), queried once per
// device: decode with / 100 and % 100.
inline int compute_capability(int device) {
  static detail::PerDevice cache;
  return cache.get(device, [](int d) {
    int major = 0, minor = 0;
    RB_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d));
    RB_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d));
    return 100 * major + minor;
  });
}

// ... of the current device (a cudaGetDevice and the cache after the first query).
inline int compute_capability() {
  int device = 0;
  RB_CUDA_CHECK(cudaGetDevice(&device));
  return compute_capability(device);
}

// Blocks of Kernel (Threads threads, no dynamic shared memory) that fit on one SM at once.
template <auto Kernel, int Threads>
int resident_blocks_per_sm() {
  static detail::PerDevice cache;
  return cache.get([](int) {
    int v = 0;
    RB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, Kernel, Threads, 0));
    if (v < 1) throw Error(cudaErrorInvalidConfiguration, "kernel does not fit on an SM at this block size");
    return v;
  });
}

}  // namespace rb::cuda
