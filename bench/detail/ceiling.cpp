#include "bench/detail/ceiling.hpp"

#include <algorithm>
#include <cstdio>
#include <thread>

namespace rb::bench {
namespace {

std::string gbps(double bytes_per_s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f GB/s", bytes_per_s / 1e9);
  return buf;
}

}  // namespace

Ceiling gpu_ceiling(double dram_bytes_per_s, double l2_bytes, double sm_load_bytes_per_s, double bytes, bool cold) {
  if (cold) return {dram_bytes_per_s, "DRAM peak (" + gbps(dram_bytes_per_s) + ")"};
  // Time >= the bytes L2 cannot hold at the DRAM peak, and >= all of them at the SMs' load rate.
  const double seconds = std::max(std::max(0.0, bytes - l2_bytes) / dram_bytes_per_s, bytes / sm_load_bytes_per_s);
  const double rate = seconds > 0 ? bytes / seconds : sm_load_bytes_per_s;
  return {rate, bytes > l2_bytes
                    ? "ceiling of a hot row beyond L2 (" + gbps(rate) + ": the bytes past L2 at the DRAM peak)"
                    : "SMs' load rate (" + gbps(rate) + ")"};
}

Ceiling cpu_ceiling() {
  const double cpus = std::max(1u, std::thread::hardware_concurrency());
  const double rate = cpus * kCpuLoadBytesPerClock * kCpuMaxHz;
  return {rate, "host's load rate (" + gbps(rate) + ")"};
}

std::string describe_gpu_ceilings(double dram_bytes_per_s, double l2_bytes, double sm_load_bytes_per_s) {
  return "cold: DRAM peak " + gbps(dram_bytes_per_s) + "; hot: bytes beyond L2 (" +
         std::to_string(static_cast<long long>(l2_bytes)) + " B) at the DRAM peak, all bytes at the SMs' load rate " +
         gbps(sm_load_bytes_per_s) + " (SMs x 128 B x max SM clock); a row above its ceiling fails";
}

std::string describe_cpu_ceiling() {
  return std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
         " logical CPUs x 128 B/clock x 6.5 GHz = " + gbps(cpu_ceiling().bytes_per_s) + "; a row above it fails";
}

}  // namespace rb::bench
