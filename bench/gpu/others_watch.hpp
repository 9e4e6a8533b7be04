#pragma once
// Other processes with a compute context on the benchmarked GPU during a row's samples (NVML:
// gpu/device.hpp), read before the first sample, then at most every 50 ms (a process list costs
// more than a clock read; kernels of another process share the SMs and the DRAM with the row's),
// and once after the last. The most seen is the row's gpu_others; a row with any is contended.
#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include "bench/gpu/device.hpp"

namespace rb::bench::gpu {

class OthersWatch {
 public:
  explicit OthersWatch(std::string pci_bus_id) : pci_bus_id_(std::move(pci_bus_id)) { read(); }
  void poll() {
    if (std::chrono::steady_clock::now() - last_ >= std::chrono::milliseconds(50)) read();
  }
  // The most other processes seen, after one last reading; -1: NVML cannot tell.
  int most() {
    read();
    return most_;
  }

 private:
  void read() {
    last_ = std::chrono::steady_clock::now();
    most_ = std::max(most_, other_compute_processes(pci_bus_id_));
  }
  std::string pci_bus_id_;
  std::chrono::steady_clock::time_point last_{};
  int most_ = -1;
};

}  // namespace rb::bench::gpu
