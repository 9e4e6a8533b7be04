#include "bench/gpu/device.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include "kernels/cuda/error.cuh"

namespace rb::bench::gpu {

std::optional<DeviceInfo> probe_device(std::string& why_not) {
  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    why_not = std::string("no usable CUDA device (") + cudaGetErrorName(e) + ": " + cudaGetErrorString(e) + ")";
    (void)cudaGetLastError();  // clear it: later code must not trip over it
    return std::nullopt;
  }
  if (count == 0) {
    why_not = "no CUDA device";
    return std::nullopt;
  }
  DeviceInfo d;
  RB_CUDA_CHECK(cudaSetDevice(d.ordinal));
  cudaDeviceProp prop{};
  RB_CUDA_CHECK(cudaGetDeviceProperties(&prop, d.ordinal));
  d.name = prop.name;
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.sm_count = prop.multiProcessorCount;
  d.l2_bytes = prop.l2CacheSize;
  d.total_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  // CUDA 13 removed cudaDeviceProp::clockRate / memoryClockRate: attributes still have them.
  RB_CUDA_CHECK(cudaDeviceGetAttribute(&d.sm_clock_khz, cudaDevAttrClockRate, d.ordinal));
  RB_CUDA_CHECK(cudaDeviceGetAttribute(&d.mem_clock_khz, cudaDevAttrMemoryClockRate, d.ordinal));
  RB_CUDA_CHECK(cudaDeviceGetAttribute(&d.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, d.ordinal));
  d.peak_bytes_per_s = 2.0 * d.mem_clock_khz * 1e3 * d.bus_width_bits / 8.0;
  RB_CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
  RB_CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  char bus[32] = {};
  RB_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, d.ordinal));
  d.pci_bus_id = bus;
  return d;
}

Clocks current_clocks(const std::string& pci_bus_id) {
  Clocks c;
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return c;
  using Device = void*;
  using InitFn = int (*)();
  using ByBusFn = int (*)(const char*, Device*);
  using ClockFn = int (*)(Device, int, unsigned int*);
  auto init = reinterpret_cast<InitFn>(dlsym(lib, "nvmlInit_v2"));
  auto by_bus = reinterpret_cast<ByBusFn>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
  auto clock = reinterpret_cast<ClockFn>(dlsym(lib, "nvmlDeviceGetClockInfo"));
  auto shutdown = reinterpret_cast<InitFn>(dlsym(lib, "nvmlShutdown"));
  constexpr int kClockSm = 1, kClockMem = 2;  // nvmlClockType_t
  if (init && by_bus && clock && shutdown && init() == 0) {
    Device dev = nullptr;
    unsigned int mhz = 0;
    if (by_bus(pci_bus_id.c_str(), &dev) == 0) {
      if (clock(dev, kClockSm, &mhz) == 0) c.sm_mhz = static_cast<int>(mhz);
      if (clock(dev, kClockMem, &mhz) == 0) c.mem_mhz = static_cast<int>(mhz);
    }
    shutdown();
  }
  dlclose(lib);
  return c;
}

}  // namespace rb::bench::gpu
