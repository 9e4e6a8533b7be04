#pragma once
// The SM clock during a benchmark's samples, read through NVML after the first sample and then at
// most every 10 ms (a read costs microseconds of host time, outside the events; none is taken
// after the last sample, when an idle GPU may already have lowered its clock). A benchmark is
// flagged when the lowest clock seen falls below kThrottleFraction (gpu/context.hpp) of the
// device's maximum: nvbench's throttle check, with its threshold relative to the maximum clock
// rather than the default one. Used by the single-GPU loop and, once per GPU, by the nccl/* rows.
#include <chrono>
#include <string>
#include <utility>

#include "bench/gpu/context.hpp"
#include "bench/gpu/device.hpp"

namespace rb::bench::gpu {

class ClockWatch {
 public:
  // `max_sm_khz`: the device's maximum SM clock (DeviceInfo::sm_clock_khz).
  ClockWatch(std::string pci_bus_id, int max_sm_khz) : pci_bus_id_(std::move(pci_bus_id)), max_sm_khz_(max_sm_khz) {}
  void poll() {
    const auto t = std::chrono::steady_clock::now();
    if (t - last_ < std::chrono::milliseconds(10)) return;
    last_ = t;
    const int mhz = current_clocks(pci_bus_id_).sm_mhz;
    if (mhz > 0 && (lowest_ < 0 || mhz < lowest_)) lowest_ = mhz;
  }
  int lowest_mhz() const noexcept { return lowest_; }  // -1: no reading
  bool throttled() const noexcept { return lowest_ > 0 && lowest_ < kThrottleFraction * max_sm_khz_ / 1000.0; }

 private:
  std::string pci_bus_id_;
  int max_sm_khz_;
  std::chrono::steady_clock::time_point last_{};
  int lowest_ = -1;
};

}  // namespace rb::bench::gpu
