#pragma once
// Device facts the launchers size their grids from: SM count and resident blocks per SM of a
// kernel. Queried with checked calls once per device and cached, the way CUB caches device
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
