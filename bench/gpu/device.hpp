#pragma once
// What the harness knows about the GPU: read once from device attributes, reported in the JSON
// context, and used for pct_peak and the L2 flush size.
#include <cstdint>
#include <optional>
#include <string>

namespace rb::bench::gpu {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  std::string pci_bus_id;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t total_bytes = 0;
  int sm_clock_khz = 0;        // maximum (boost) SM clock
  int mem_clock_khz = 0;       // maximum memory clock
  int bus_width_bits = 0;
  double peak_bytes_per_s = 0; // 2 (double data rate) x memory clock x bus width / 8
  int driver_version = 0, runtime_version = 0;
};

// The device to benchmark (by default CUDA device 0, i.e. the first of CUDA_VISIBLE_DEVICES), or nullopt
// with the reason in `why_not`. Any error from cudaGetDeviceCount means "no GPU": without a
// driver it returns cudaErrorInsufficientDriver, not success with zero devices.
std::optional<DeviceInfo> probe_device(std::string& why_not, int ordinal = 0);

// Current clocks through NVML, opened with dlopen so the binary runs where libnvidia-ml is
// absent; -1 when unavailable.
struct Clocks {
  int sm_mhz = -1;
  int mem_mhz = -1;
};
Clocks current_clocks(const std::string& pci_bus_id);

// Other processes holding a compute context on the device (NVML, the same way), busy or not; -1
// when unavailable. Asked while this process holds a context there: one entry is this process
// (under another pid in a container, where NVML reports the host's), the rest are others.
int other_compute_processes(const std::string& pci_bus_id);

}  // namespace rb::bench::gpu
