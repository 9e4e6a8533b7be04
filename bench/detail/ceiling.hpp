#pragma once
// Nothing faster than physics: the bandwidth no row of a regime can exceed, stated from the
// hardware. A row whose median time implies more has not read its input (a memoized sum, a skipped
// launch) and fails, whatever its sum (bench/detail/finish.cpp).
//   cold GPU rows: the DRAM's theoretical peak (2 x memory clock x bus width);
//   hot GPU rows: the bytes beyond the L2's size still come from DRAM at its peak, and no byte
//     reaches the SMs faster than kSmLoadBytesPerClock per SM per clock at the maximum SM clock;
//   CPU rows: kCpuLoadBytesPerClock per logical CPU per clock at kCpuMaxHz, above any x86 core's
//     two 64-byte loads per clock at its highest boost.
// These are bounds, not targets: the achieved ceilings are the ref/read and ref/cpu_read rows.
#include <string>

namespace rb::bench {

inline constexpr double kSmLoadBytesPerClock = 128;  // one L1 line per SM per clock
inline constexpr double kCpuLoadBytesPerClock = 128;
inline constexpr double kCpuMaxHz = 6.5e9;

struct Ceiling {
  double bytes_per_s = 0;  // 0: none
  std::string what;        // named in the failure message and the JSON context
};

// A GPU row of `bytes` input: the DRAM peak (bytes per second), the L2 size and the SMs' total load
// rate (SMs x kSmLoadBytesPerClock x max SM clock).
Ceiling gpu_ceiling(double dram_bytes_per_s, double l2_bytes, double sm_load_bytes_per_s, double bytes, bool cold);
// A CPU row on this host (hardware_concurrency logical CPUs).
Ceiling cpu_ceiling();

// "cold: ...; hot: ..." and "...": the rules with this machine's numbers, for the JSON context.
std::string describe_gpu_ceilings(double dram_bytes_per_s, double l2_bytes, double sm_load_bytes_per_s);
std::string describe_cpu_ceiling();

}  // namespace rb::bench
