// cuda/onepass's tuning entries on the current device (tuning.cuh, onepass.cuh): the generic entry
// forced onto any GPU sums correctly and bitwise reproducibly, the shipped variant picks the
// entry of the device's compute capability (the sm_90 entry on an sm_90 device), and a timing
// table of the two entries (printed, not asserted). The host-only mapping: test_tuning_entry.cpp.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "common/cuda_check.hpp"
#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"
#include "kernels/cuda/tuning_entry.hpp"
#include "tests/kernels/cuda/device.hpp"
#include "tests/support/data.hpp"
#include "tests/support/gpu.hpp"

namespace {

using rb::cuda::TuningEntry;
using rb::test::DeviceArray;

// Odd sizes through every path of the generic entry: one lean block (1, 31), a grid of two
// blocks (4097), a FinishEarly grid (1000003 < 2^20 + 1), a full FinishBlock grid (2^24 + 3).
const std::int64_t kOddSizes[] = {1, 31, 4097, 1'000'003, (std::int64_t{1} << 24) + 3};

// Ten runs of v at each size on one scratch buffer: every run within the bound of `acc` (the
// fp64 reference; f32_tree: 8 log2(n) float rounding levels, f64: 8 (n - 1) double additions,
// tests/support/data.hpp), every run bitwise equal to the first, the slots left empty.
template <class Out>
void expect_sums_and_reproduces(const rb::cuda::Variant<Out>& v, rb::test::Acc acc) {
  const std::int64_t max_n = kOddSizes[std::size(kOddSizes) - 1];
  const auto x = rb::test::random_signed(max_n + 1, 21);
  const auto d = rb::test::upload(x);
  std::size_t bytes = 1;
  for (const std::int64_t n : kOddSizes) bytes = std::max(bytes, v.scratch_bytes(n));
  DeviceArray<unsigned char> scratch(bytes);
  DeviceArray<Out> out(1);
  v.prepare(scratch.get(), bytes, nullptr);
  for (const std::int64_t n : kOddSizes) {
    for (const int offset : {0, 1}) {
      SCOPED_TRACE(testing::Message() << "n " << n << ", offset " << offset << ", grid " << v.geometry(n).grid);
      std::vector<Out> runs;
      for (int run = 0; run < 10; ++run) {
        runs.push_back(rb::test::sum_into(v, d.get() + offset, n, scratch.get(), out.get()));
      }
      RB_EXPECT_SUM(runs.front(), std::span(x).subspan(offset, n), acc);
      for (int run = 1; run < 10; ++run) {
        EXPECT_EQ(std::memcmp(&runs[run], &runs.front(), sizeof(Out)), 0)
            << "run " << run << ": " << runs[run] << " vs " << runs.front();
      }
      EXPECT_EQ(rb::test::nonzero_bytes(scratch.get(), bytes), 0) << "slots not put back to zero";
    }
  }
}

TEST(OnepassTuning, GenericEntryForcedOnThisDeviceSumsOddSizesReproducibly) {
  RB_REQUIRE_GPU();
  expect_sums_and_reproduces(rb::cuda::onepass_with(TuningEntry::generic), rb::test::Acc::f32_tree);
  expect_sums_and_reproduces(rb::cuda::onepass_accf64_with(TuningEntry::generic), rb::test::Acc::f64);
}

// The forced variants launch what their table says: the generic one never the 512-thread blocks.
TEST(OnepassTuning, ForcedEntriesLaunchTheirOwnShapes) {
  RB_REQUIRE_GPU();
  using Generic = rb::cuda::OnepassGenericTuning;
  using Sm90 = rb::cuda::OnepassSm90Tuning;
  const auto generic = rb::cuda::onepass_with(TuningEntry::generic);
  const auto sm90 = rb::cuda::onepass_with(TuningEntry::sm90);
  for (const std::int64_t n : kOddSizes) {
    SCOPED_TRACE(testing::Message() << "n " << n);
    EXPECT_EQ(generic.geometry(n).threads, 256);
    EXPECT_EQ(generic.geometry(n).tile, Generic::MidShape::tile_floats);
  }
  EXPECT_EQ(sm90.geometry(8192).threads, Sm90::SmallShape::threads);
  EXPECT_EQ(sm90.geometry(std::int64_t{1} << 24).threads, Sm90::LargeShape::threads);
  EXPECT_EQ(sm90.geometry(std::int64_t{1} << 24).tile, Sm90::LargeShape::tile_floats);
}

TEST(OnepassTuning, AutomaticIsTheEntryOfTheDevice) {
  RB_REQUIRE_GPU();
  int device = 0, major = 0, minor = 0;
  RB_CUDA_CHECK(cudaGetDevice(&device));
  RB_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  RB_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  EXPECT_EQ(rb::cuda::onepass_tuning(device), rb::cuda::tuning_entry_for(major, minor));
  EXPECT_EQ(std::string(rb::cuda::onepass_tuning_name(device)), rb::cuda::tuning_entry_name(major, minor));
  EXPECT_EQ(rb::cuda::onepass_tuning_name(device), rb::cuda::onepass_tuning_name(device)) << "cached";
  EXPECT_EQ(rb::cuda::resolve_tuning(TuningEntry::automatic), rb::cuda::tuning_entry_for(major, minor));
  EXPECT_EQ(rb::cuda::resolve_tuning(TuningEntry::generic), TuningEntry::generic);
  EXPECT_EQ(rb::cuda::resolve_tuning(TuningEntry::sm90), TuningEntry::sm90);
}

// On an sm_90 device the shipped variants are the sm_90 entry: the same grid at every size and
// the same bits (the sizes where the generic entry's grid differs included).
TEST(OnepassTuning, AutomaticIsTheSm90EntryOnSm90) {
  RB_REQUIRE_GPU();
  int device = 0;
  RB_CUDA_CHECK(cudaGetDevice(&device));
  const int cc = rb::cuda::compute_capability(device);
  if (cc != 900) GTEST_SKIP() << "device is sm_" << cc / 100 << cc % 100 << ", not sm_90";
  EXPECT_EQ(rb::cuda::onepass_tuning(device), TuningEntry::sm90);
  EXPECT_STREQ(rb::cuda::onepass_tuning_name(device), "sm_90 (H200-measured)");
  const auto sm90 = rb::cuda::onepass_with(TuningEntry::sm90);
  const auto sm90_f64 = rb::cuda::onepass_accf64_with(TuningEntry::sm90);
  const auto generic = rb::cuda::onepass_with(TuningEntry::generic);
  const std::int64_t max_n = std::int64_t{1} << 24;
  const auto x = rb::test::random_signed(max_n, 22);
  const auto d = rb::test::upload(x);
  bool some_grid_differs = false;
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{4097}, std::int64_t{8192}, std::int64_t{16385},
                               std::int64_t{1} << 20, (std::int64_t{1} << 22) + 1, max_n}) {
    SCOPED_TRACE(testing::Message() << "n " << n);
    const auto a = rb::cuda::onepass.geometry(n), b = sm90.geometry(n), g = generic.geometry(n);
    EXPECT_EQ(a.grid, b.grid);
    EXPECT_EQ(a.threads, b.threads);
    EXPECT_EQ(a.tile, b.tile);
    EXPECT_EQ(rb::cuda::onepass.scratch_bytes(n), sm90.scratch_bytes(n));
    EXPECT_EQ(rb::cuda::onepass_accf64.geometry(n).grid, sm90_f64.geometry(n).grid);
    some_grid_differs |= a.threads != g.threads || a.tile != g.tile || a.grid != g.grid;
    const float got = rb::test::sum_once(rb::cuda::onepass, d.get(), n);
    const float want = rb::test::sum_once(sm90, d.get(), n);
    EXPECT_EQ(std::memcmp(&got, &want, sizeof(float)), 0) << got << " vs " << want;
  }
  EXPECT_TRUE(some_grid_differs) << "the sizes above do not tell the entries apart";
}

// Holds the stream for ~`ms` so that the launches queued behind it run back to back, timed by
// the GPU alone rather than by how fast the host enqueues them.
__global__ void hold_stream(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// Median kernel time in µs of `runs` back-to-back launches of v at n (one event pair each, all
// queued behind hold_stream). Hot: the input stays in L2 where it fits.
double median_us(const rb::cuda::Variant<float>& v, const float* in, std::int64_t n, int runs) {
  const std::size_t bytes = std::max<std::size_t>(v.scratch_bytes(n), 1);
  DeviceArray<unsigned char> scratch(bytes);
  DeviceArray<float> out(1);
  v.prepare(scratch.get(), bytes, nullptr);
  for (int i = 0; i < 3; ++i) v.sum(in, n, scratch.get(), out.get(), nullptr);  // module load, warm-up
  RB_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<cudaEvent_t> start(runs), stop(runs);
  for (int i = 0; i < runs; ++i) {
    RB_CUDA_CHECK(cudaEventCreate(&start[i]));
    RB_CUDA_CHECK(cudaEventCreate(&stop[i]));
  }
  int clock_khz = 0, device = 0;
  RB_CUDA_CHECK(cudaGetDevice(&device));
  RB_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  hold_stream<<<1, 1>>>(static_cast<long long>(clock_khz) * 20);  // ~20 ms at the peak clock
  RB_CUDA_CHECK_LAUNCH();
  for (int i = 0; i < runs; ++i) {
    RB_CUDA_CHECK(cudaEventRecord(start[i], nullptr));
    v.sum(in, n, scratch.get(), out.get(), nullptr);
    RB_CUDA_CHECK(cudaEventRecord(stop[i], nullptr));
  }
  RB_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<double> us(runs);
  for (int i = 0; i < runs; ++i) {
    float ms = 0;
    RB_CUDA_CHECK(cudaEventElapsedTime(&ms, start[i], stop[i]));
    us[i] = 1000.0 * ms;
    RB_CUDA_CHECK(cudaEventDestroy(start[i]));
    RB_CUDA_CHECK(cudaEventDestroy(stop[i]));
  }
  std::sort(us.begin(), us.end());
  return runs % 2 == 1 ? us[runs / 2] : (us[runs / 2 - 1] + us[runs / 2]) / 2;
}

// Not asserted: a table for the report, as markdown rows. Filter: --gtest_filter='*TimingTable*'.
TEST(OnepassTuning, TimingTableGenericVsSm90) {
  RB_REQUIRE_GPU();
  constexpr int kRuns = 30;
  const int log2_sizes[] = {20, 24, 28};
  const std::int64_t max_n = std::int64_t{1} << log2_sizes[std::size(log2_sizes) - 1];
  std::size_t free_bytes = 0, total_bytes = 0;
  RB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < static_cast<std::size_t>(max_n) * sizeof(float) + (std::size_t{256} << 20)) {
    GTEST_SKIP() << "needs " << (max_n * sizeof(float) >> 20) << " MiB of free device memory";
  }
  int device = 0;
  RB_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  RB_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  DeviceArray<float> x(static_cast<std::size_t>(max_n));
  RB_CUDA_CHECK(cudaMemset(x.get(), 0x3F, static_cast<std::size_t>(max_n) * sizeof(float)));  // 0.747 each
  const auto sm90 = rb::cuda::onepass_with(TuningEntry::sm90);
  const auto generic = rb::cuda::onepass_with(TuningEntry::generic);
  std::printf("\n%s (sm_%d%d, %d SMs), automatic entry: %s; hot, median of %d back-to-back launches, "
              "cudaEvent per launch\n\n",
              prop.name, prop.major, prop.minor, prop.multiProcessorCount, rb::cuda::onepass_tuning_name(device),
              kRuns);
  std::printf("| n | sm_90 entry (µs) | generic entry (µs) | generic / sm_90 | sm_90 grid | generic grid |\n");
  std::printf("|---|---:|---:|---:|---|---|\n");
  for (const int k : log2_sizes) {
    const std::int64_t n = std::int64_t{1} << k;
    const double a = median_us(sm90, x.get(), n, kRuns), b = median_us(generic, x.get(), n, kRuns);
    const auto ga = sm90.geometry(n), gb = generic.geometry(n);
    std::printf("| 2^%d | %.2f | %.2f | %.3f | %d x %d, tile %lld | %d x %d, tile %lld |\n", k, a, b, b / a, ga.grid,
                ga.threads, static_cast<long long>(ga.tile), gb.grid, gb.threads, static_cast<long long>(gb.tile));
  }
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace
