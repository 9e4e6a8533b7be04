// The GPU measurement loop end to end on a real device: CUB through the harness at sizes around
// CUB's one-kernel/two-kernel switch, a wrong backend and a silent one caught by verification,
// and the GPU-generated input bitwise equal to the host's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "bench/api/gpu_backend.hpp"
#include "bench/gpu/cold_flush.hpp"
#include "bench/gpu/context.hpp"
#include "bench/gpu/device.hpp"
#include "bench/gpu/harness_kernels.cuh"
#include "bench/detail/input.hpp"
#include "bench/detail/registry.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/run_cases.hpp"

namespace {

using namespace rb::bench;
using namespace rb::bench::gpu;
using rb::test::outcome_of;

BackendDef<float> registered(const std::string& name) {
  return rb::test::by_name(rb::test::registered_gpu_defs(), name);
}
using Kind = Outcome::Kind;

// CUB over n - 1 elements: the classic off-by-one.
class CubDropsLast final : public GpuBackend {
 public:
  explicit CubDropsLast(const GpuProblem& p)
      : inner_(registered("cub").make(GpuProblem{p.input, p.n - 1, p.stream, p.scratch, p.out, p.sm_count})) {}
  void enqueue(cudaStream_t s) override { inner_->enqueue(s); }
  double result() override { return inner_->result(); }
  Structure structure() const override { return inner_->structure(); }

 private:
  std::unique_ptr<GpuBackend> inner_;
};

// Launches nothing: the result slot keeps the NaN the harness poisons it with.
class Silent final : public GpuBackend {
 public:
  explicit Silent(const GpuProblem& p) : out_(p.out) {}
  void enqueue(cudaStream_t) override {}
  double result() override { return out_.read_f32(); }
  Structure structure() const override { return {Accumulator::f32, 1, 1, 0, true}; }

 private:
  ResultSlot out_;
};

TEST(GpuRunner, CubPassesBrokenBackendsFail) {
  RB_REQUIRE_GPU();
  Session session(rb::test::small_options({1, 33, 4096, 4097, 1'000'001}));
  std::string why_not;
  const auto entries = bind_backends(session, {registered("cub"), gpu_backend<CubDropsLast>("t/drops_last"),
                                                   gpu_backend<Silent>("t/silent")},
                                         why_not);
  ASSERT_TRUE(why_not.empty()) << why_not;
  EXPECT_EQ(rb::test::run_in_process(session, entries), 30u);
  for (const char* n : {"1", "33", "4096", "4097", "1000001"}) {
    for (const char* mode : {"/cold", "/hot"}) {
      const std::string tail = std::string("/") + n + mode;
      const auto cub = outcome_of(session, "cub" + tail);
      EXPECT_EQ(cub.kind, Kind::ok) << tail << ": " << cub.message;
      // One dropped uniform value is below any rounding bound at n ~ 10^6 (sum|x| ~ 5e5): the
      // exact check catches it at every n.
      const auto dropped = outcome_of(session, "t/drops_last" + tail);
      EXPECT_EQ(dropped.kind, Kind::verification_failed) << tail;
      EXPECT_EQ(dropped.exact, Outcome::Check::failed) << tail;
      EXPECT_EQ(outcome_of(session, "t/silent" + tail).kind, Kind::verification_failed) << tail;
    }
  }
  release_gpu();
}

// Asks for 32 TiB of scratch: the checked cudaMalloc fails, the harness turns it into an error row
// for that benchmark alone, and the next backend in the same sweep still runs and verifies.
class GreedyScratch final : public GpuBackend {
 public:
  explicit GreedyScratch(const GpuProblem& p) { p.scratch.get(std::size_t{1} << 45); }
  void enqueue(cudaStream_t) override {}
  double result() override { return 0; }
  Structure structure() const override { return {}; }
};

TEST(GpuRunner, AllocationFailureIsContained) {
  RB_REQUIRE_GPU();
  Session session(rb::test::small_options({4097, 1'000'001}));
  std::string why_not;
  const auto entries = bind_backends(session, {gpu_backend<GreedyScratch>("t/greedy"), registered("cub")}, why_not);
  rb::test::run_in_process(session, entries);
  for (const char* tail : {"/4097/cold", "/4097/hot", "/1000001/cold", "/1000001/hot"}) {
    const auto greedy = outcome_of(session, std::string("t/greedy") + tail);
    EXPECT_EQ(greedy.kind, Kind::error) << tail;
    EXPECT_NE(greedy.message.find("cudaErrorMemoryAllocation"), std::string::npos) << greedy.message;
    EXPECT_EQ(outcome_of(session, std::string("cub") + tail).kind, Kind::ok) << tail;
  }
  release_gpu();
}

// Every GPU row reports the lowest SM clock read while it sampled (NVML) and whether that was
// throttled; the clock cannot exceed the device's maximum.
TEST(GpuRunner, EveryRowReportsItsSmClock) {
  RB_REQUIRE_GPU();
  std::string why_not;
  const auto info = probe_device(why_not);
  ASSERT_TRUE(info) << why_not;
  if (current_clocks(info->pci_bus_id).sm_mhz < 0) GTEST_SKIP() << "NVML gives no clock here";
  Session session(rb::test::small_options({1 << 20}));
  const auto entries = bind_backends(session, {registered("cub")}, why_not);
  ASSERT_TRUE(why_not.empty()) << why_not;
  std::map<std::string, double> mhz, throttled;
  rb::test::run_in_process(session, entries, "all", mhz, "sm_mhz");
  rb::test::run_in_process(session, entries, "all", throttled, "throttled");
  const int max_mhz = info->sm_clock_khz / 1000;
  for (const char* name : {"cub/1048576/cold", "cub/1048576/hot"}) {
    ASSERT_EQ(mhz.count(name), 1u) << name;
    EXPECT_GT(mhz[name], 0) << name;
    EXPECT_LE(mhz[name], max_mhz + 1) << name;
    ASSERT_EQ(throttled.count(name), 1u) << name;
    EXPECT_EQ(throttled[name], mhz[name] < kThrottleFraction * max_mhz ? 1.0 : 0.0) << name;
  }
  release_gpu();
}

// thrust::reduce blocks the host until its sum is copied back. Queued behind the cold flush, its
// allocation and launches would run while the flush still executes, outside the events, and cold
// would come out faster than hot. The runner lets the GPU go idle before a blocking backend's
// start event: cold must not beat hot beyond noise.
TEST(GpuRunner, BlockingBackendColdIsNotFasterThanHot) {
  RB_REQUIRE_GPU();
  Session session(rb::test::small_options({1 << 10, 1 << 20}));
  std::string why_not;
  const auto entries =
      bind_backends(session, {registered("thrust/reduce"), registered("thrust/reduce_cached")}, why_not);
  ASSERT_TRUE(why_not.empty()) << why_not;
  std::map<std::string, std::vector<double>> runs;
  for (int rep = 0; rep < 5; ++rep) {
    std::map<std::string, double> times;
    rb::test::run_in_process(session, entries, "all", times);
    for (const auto& [name, us] : times) runs[name].push_back(us);
  }
  const auto median = [&](const std::string& name) {
    auto v = runs[name];
    EXPECT_EQ(v.size(), 5u) << name;
    if (v.empty()) return 0.0;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  for (const char* backend : {"thrust/reduce/", "thrust/reduce_cached/"}) {
    for (const char* n : {"1024", "1048576"}) {
      const double cold = median(std::string(backend) + n + "/cold"), hot = median(std::string(backend) + n + "/hot");
      EXPECT_GE(cold, hot - std::max(0.05 * hot, 1.0))
          << backend << n << ": cold " << cold << " us, hot " << hot << " us";
    }
  }
  EXPECT_EQ(session.log().failures(), 0);
  release_gpu();
}

TEST(GpuRunner, DeviceGenerationMatchesHostBitwise) {
  RB_REQUIRE_GPU();
  const std::int64_t n = (1 << 20) + 3;
  for (const Dist dist : {Dist::harmonic, Dist::uniform, Dist::positive, Dist::normal, Dist::integers}) {
    float* d = nullptr;
    ASSERT_EQ(cudaMalloc(&d, n * sizeof(float)), cudaSuccess);
    enqueue_generate(nullptr, d, n, dist, 77);
    std::vector<float> from_gpu(n), from_host(n);
    ASSERT_EQ(cudaMemcpy(from_gpu.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    ASSERT_EQ(cudaFree(d), cudaSuccess);
    generate(dist, 77, from_host.data(), 0, n);
    EXPECT_EQ(std::memcmp(from_gpu.data(), from_host.data(), n * sizeof(float)), 0) << dist_name(dist);
  }
}

// The cold flush's buffers (bench/gpu/cold_flush.hpp): twice the L2 for the read; the page
// buffer on first use, whole 2 MiB pages, never more than 8 GiB nor into the reserve.
class ColdFlushOnGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    RB_REQUIRE_GPU();
    RB_CUDA_CHECK(cudaGetDeviceProperties(&props_, 0));
    RB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  void TearDown() override {
    if (stream_) (void)cudaStreamDestroy(stream_);
  }
  ColdFlush make(bool touch_pages, ColdFlushPlan plan = {}) const {
    return ColdFlush(props_.multiProcessorCount, props_.l2CacheSize, stream_, touch_pages, plan);
  }
  // enqueue() and wait for it.
  void flush(ColdFlush& f) const {
    f.enqueue(stream_);
    RB_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  // Free device memory above the reserve, in whole pages.
  static std::size_t room_in_pages() {
    std::size_t free_bytes = 0, total = 0;
    RB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    return (free_bytes - static_cast<std::size_t>(kDeviceReserve)) / kTouchPageBytes * kTouchPageBytes;
  }

  cudaDeviceProp props_{};
  cudaStream_t stream_ = nullptr;
};

TEST_F(ColdFlushOnGpu, ReadsTwiceTheL2ThenTouchesWholePagesUpTo8GiB) {
  ColdFlush f = make(true);
  EXPECT_EQ(f.l2_buffer_bytes(), 2 * static_cast<std::size_t>(props_.l2CacheSize));
  EXPECT_EQ(f.passes(), kFlushPasses);
  EXPECT_EQ(f.page_buffer_bytes(), 0u) << "allocated on first use, not before";
  const std::size_t room = room_in_pages();
  flush(f);
  const std::size_t pages = f.page_buffer_bytes();
  EXPECT_EQ(pages % kTouchPageBytes, 0u);
  EXPECT_EQ(pages, std::min(kPageTouchBytes, room));
  flush(f);
  EXPECT_EQ(f.page_buffer_bytes(), pages) << "allocated once";
  f.release_pages();
  EXPECT_EQ(f.page_buffer_bytes(), 0u);
  flush(f);
  EXPECT_EQ(f.page_buffer_bytes(), pages) << "taken again after a release";
}

TEST_F(ColdFlushOnGpu, PagesTakeOnlyWhatLeavesTheReserveFree) {
  ColdFlush f = make(true);
  // Leave 3.5 pages above the reserve: the page buffer must take 3 of them.
  const std::size_t leave = static_cast<std::size_t>(kDeviceReserve) + 7 * kTouchPageBytes / 2;
  std::size_t free_now = 0, total = 0;
  RB_CUDA_CHECK(cudaMemGetInfo(&free_now, &total));
  ASSERT_GT(free_now, leave + (std::size_t{64} << 20));
  DeviceBuffer blocker(free_now - leave);
  const std::size_t room = room_in_pages();
  flush(f);
  EXPECT_EQ(f.page_buffer_bytes(), room);
  EXPECT_LT(f.page_buffer_bytes(), 4 * kTouchPageBytes);
}

TEST_F(ColdFlushOnGpu, NoPagesWhenNotAskedOrSwitchedOff) {
  ColdFlush read_only = make(false);
  flush(read_only);
  EXPECT_EQ(read_only.page_buffer_bytes(), 0u);
  Options no_pages;
  no_pages.page_touch_mib = 0;  // --page_touch_mib=0
  ColdFlush off = make(true, cold_flush_plan(no_pages));
  flush(off);
  const std::string said = describe_cold_flush(50 << 20, cold_flush_plan(no_pages));
  EXPECT_EQ(off.page_buffer_bytes(), 0u);
  EXPECT_EQ(said.find("pages"), std::string::npos) << said;
}

TEST(ColdFlush, ContextLineStatesBothSteps) {
  const std::string s = describe_cold_flush(50 << 20);
  EXPECT_NE(s.find("read 104857600 bytes (2x L2) " + std::to_string(kFlushPasses) + " times"), std::string::npos) << s;
  EXPECT_NE(s.find("each of 4096 2 MiB pages"), std::string::npos) << s;
}

}  // namespace
