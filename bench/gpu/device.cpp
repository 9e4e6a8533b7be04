#include "bench/gpu/device.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>

#include "common/cuda_check.hpp"

namespace rb::bench::gpu {

namespace {

// The runtime reports a missing driver as an insufficient one: tell the two apart.
std::string no_device_cause(cudaError_t e) {
  if (e == cudaErrorNoDevice) return "no CUDA device";
  if (e == cudaErrorInsufficientDriver) {
    void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!driver) return "no NVIDIA driver (libcuda.so.1 not found)";
    dlclose(driver);
    int have = 0, need = 0;
    (void)cudaDriverGetVersion(&have);
    (void)cudaRuntimeGetVersion(&need);
    const auto v = [](int x) { return std::to_string(x / 1000) + "." + std::to_string(x % 1000 / 10); };
    return "the NVIDIA driver supports CUDA " + v(have) + ", this build needs " + v(need);
  }
  return std::string("no usable CUDA device (") + cudaGetErrorName(e) + ": " + cudaGetErrorString(e) + ")";
}

}  // namespace

std::optional<DeviceInfo> probe_device(std::string& why_not, int ordinal) {
  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    why_not = no_device_cause(e);
    (void)cudaGetLastError();  // clear it: later code must not trip over it
    return std::nullopt;
  }
  if (count <= ordinal) {
    why_not = count == 0 ? "no CUDA device"
                         : "no CUDA device " + std::to_string(ordinal) + " (" + std::to_string(count) + " visible)";
    return std::nullopt;
  }
  DeviceInfo d;
  d.ordinal = ordinal;
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

namespace {

// NVML through dlopen (no link-time dependency), opened on first use and kept for the process:
// nvmlInit can take milliseconds, and the runner asks for the clock after every benchmark run.
class Nvml {
 public:
  static Nvml& get() {
    static Nvml nvml;
    return nvml;
  }
  Clocks clocks(const std::string& pci_bus_id) const {
    Clocks c;
    if (!ready_) return c;
    Device dev = nullptr;
    unsigned int mhz = 0;
    constexpr int kClockSm = 1, kClockMem = 2;  // nvmlClockType_t
    if (by_bus_(pci_bus_id.c_str(), &dev) == 0) {
      if (clock_(dev, kClockSm, &mhz) == 0) c.sm_mhz = static_cast<int>(mhz);
      if (clock_(dev, kClockMem, &mhz) == 0) c.mem_mhz = static_cast<int>(mhz);
    }
    return c;
  }
  int other_processes(const std::string& pci_bus_id) const {
    Device dev = nullptr;
    if (!ready_ || !processes_ || by_bus_(pci_bus_id.c_str(), &dev) != 0) return -1;
    ProcessInfo info[64];
    unsigned int count = 64;
    const int status = processes_(dev, &count, info);
    constexpr int kInsufficientSize = 7;  // NVML_ERROR_INSUFFICIENT_SIZE: count holds the number
    if (status != 0 && status != kInsufficientSize) return -1;
    // One entry is this process, under our pid or, in a container, the host's: the others remain.
    return std::max(0, static_cast<int>(count) - 1);
  }

 private:
  using Device = void*;
  using InitFn = int (*)();
  using ByBusFn = int (*)(const char*, Device*);
  using ClockFn = int (*)(Device, int, unsigned int*);
  // nvmlProcessInfo_t of the _v2 and _v3 calls (the same layout).
  struct ProcessInfo {
    unsigned int pid;
    unsigned long long used_memory;
    unsigned int gpu_instance, compute_instance;
  };
  using ProcessesFn = int (*)(Device, unsigned int*, ProcessInfo*);

  Nvml() {
    lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib_) return;
    auto init = reinterpret_cast<InitFn>(dlsym(lib_, "nvmlInit_v2"));
    by_bus_ = reinterpret_cast<ByBusFn>(dlsym(lib_, "nvmlDeviceGetHandleByPciBusId_v2"));
    clock_ = reinterpret_cast<ClockFn>(dlsym(lib_, "nvmlDeviceGetClockInfo"));
    shutdown_ = reinterpret_cast<InitFn>(dlsym(lib_, "nvmlShutdown"));
    processes_ = reinterpret_cast<ProcessesFn>(dlsym(lib_, "nvmlDeviceGetComputeRunningProcesses_v3"));
    if (!processes_) processes_ = reinterpret_cast<ProcessesFn>(dlsym(lib_, "nvmlDeviceGetComputeRunningProcesses_v2"));
    ready_ = init && by_bus_ && clock_ && shutdown_ && init() == 0;
  }
  ~Nvml() {
    if (ready_) shutdown_();
    if (lib_) dlclose(lib_);
  }

  void* lib_ = nullptr;
  ByBusFn by_bus_ = nullptr;
  ClockFn clock_ = nullptr;
  InitFn shutdown_ = nullptr;
  ProcessesFn processes_ = nullptr;  // optional: clocks work without it
  bool ready_ = false;
};

}  // namespace

Clocks current_clocks(const std::string& pci_bus_id) { return Nvml::get().clocks(pci_bus_id); }

int other_compute_processes(const std::string& pci_bus_id) { return Nvml::get().other_processes(pci_bus_id); }

}  // namespace rb::bench::gpu
