// The ceilings (bench/detail/ceiling.hpp): each regime's bound from the hardware's numbers.
#include "bench/detail/ceiling.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace {

using rb::bench::gpu_ceiling;

// The H200's numbers: 4814 GB/s DRAM, 60 MiB L2, 132 SMs x 128 B x 1.98 GHz.
constexpr double kDram = 4814e9, kL2 = 60.0 * (1 << 20), kLoad = 132 * 128 * 1.98e9;

TEST(Ceiling, ColdRowsAreHeldToTheDramPeak) {
  for (const double bytes : {4096.0, 4.0 * (1 << 20), 8.6e9}) {
    const auto c = gpu_ceiling(kDram, kL2, kLoad, bytes, true);
    EXPECT_DOUBLE_EQ(c.bytes_per_s, kDram);
    EXPECT_NE(c.what.find("DRAM peak (4814 GB/s)"), std::string::npos) << c.what;
  }
}

TEST(Ceiling, HotRowsInL2AreHeldToTheLoadRateAndBeyondToTheDram) {
  EXPECT_DOUBLE_EQ(gpu_ceiling(kDram, kL2, kLoad, 16.0 * (1 << 20), false).bytes_per_s, kLoad);
  // 64 MiB hot: 4 MiB must come from DRAM (0.87 us), less than all 64 MiB at the load rate (2.0 us).
  const double b64 = 64.0 * (1 << 20);
  EXPECT_DOUBLE_EQ(gpu_ceiling(kDram, kL2, kLoad, b64, false).bytes_per_s, kLoad);
  // 1 GiB hot: (1 GiB - 60 MiB) at the DRAM peak dominates: a little above the peak, far below the load rate.
  const double gib = 1024.0 * (1 << 20);
  const auto c = gpu_ceiling(kDram, kL2, kLoad, gib, false);
  EXPECT_NEAR(c.bytes_per_s, kDram * gib / (gib - kL2), 1e3);
  EXPECT_GT(c.bytes_per_s, kDram);
  EXPECT_LT(c.bytes_per_s, 1.1 * kDram);
  // A memoized sum at 2^28 floats (1 GiB in ~3 us: ~358 TB/s) is far above every GPU ceiling.
  EXPECT_LT(c.bytes_per_s, gib / 3e-6);
}

TEST(Ceiling, CpuRowsAreHeldToTheHostsLoadRate) {
  const auto c = rb::bench::cpu_ceiling();
  const double cpus = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_DOUBLE_EQ(c.bytes_per_s, cpus * 128 * 6.5e9);
  // Above any real host's bandwidth (a 2-core machine reads ~16 GB/s from DRAM), below a sum
  // that reads nothing: 4 MiB in 50 ns.
  EXPECT_GT(c.bytes_per_s, 100e9);
  EXPECT_LT(c.bytes_per_s, 4.0 * (1 << 20) / 50e-9);
  EXPECT_NE(rb::bench::describe_cpu_ceiling().find("6.5 GHz"), std::string::npos);
}

}  // namespace
