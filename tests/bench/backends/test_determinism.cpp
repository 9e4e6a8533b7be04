// Every registered row that promises run_to_run or gpu_to_gpu (bench/api/determinism.hpp) returns the
// same bits from repeated calls on the same data: odd sizes from 1 to beyond 2^31, uniform random
// floats (an integer input would add exactly in any order and could not tell), the GPU rows with
// the L2 flushed between calls; gpu_to_gpu rows also on a second GPU where one is visible. Rows that promise nothing
// are called too, and whether their bits moved is printed: a finding, not a failure. The check itself must fail on a
// row whose order of additions changes from call to call (Repeat.*).
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/api/cpu_backend.hpp"
#include "bench/detail/input.hpp"
#include "bench/detail/session.hpp"
#include "tests/support/changes_order.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/run_cases.hpp"
#if RB_TEST_HAVE_CUDA
#include "bench/api/gpu_backend.hpp"
#include "bench/gpu/device.hpp"
#include "bench/gpu/session.hpp"
#endif

namespace {

using namespace rb::bench;

constexpr int kCalls = 4;
constexpr std::int64_t kBeyond2Pow31 = (std::int64_t{1} << 31) + 11;

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

// Calls `sum` kCalls times; true when every call gave the first call's bits.
bool repeatable(const std::function<double()>& sum, double& first, double& other) {
  first = sum();
  for (int i = 1; i < kCalls; ++i) {
    other = sum();
    if (bits(other) != bits(first)) return false;
  }
  return true;
}

// Checks one row at one size: a broken promise fails the test, a row without one is reported.
void expect_promise_kept(const std::string& name, Determinism promised, std::int64_t n,
                         const std::function<double()>& sum) {
  double first = 0, other = 0;
  const bool same = repeatable(sum, first, other);
  if (promised == Determinism::not_guaranteed) {
    std::printf("[ finding  ] %s at n = %lld (no promise): %s\n", name.c_str(), static_cast<long long>(n),
                same ? "the same bits on every call" : "the bits changed between calls");
    return;
  }
  EXPECT_TRUE(same) << name << " promises " << determinism_name(promised) << ", but at n = " << n << " calls gave "
                    << first << " and " << other << " (bits " << std::hex << bits(first) << " vs " << bits(other)
                    << ")";
}

// The sizes a side can hold: beyond 2^31 only where the memory is there and the build is optimized
// (a Debug + ASan build would take minutes per call over 8.6 GB).
std::vector<std::int64_t> sizes(std::int64_t free_bytes) {
  std::vector<std::int64_t> out = {1, 4097, 1'000'003, (std::int64_t{1} << 24) + 1};
#ifdef NDEBUG
  if (free_bytes > 2 * kBeyond2Pow31 * static_cast<std::int64_t>(sizeof(float))) out.push_back(kBeyond2Pow31);
#else
  (void)free_bytes;
#endif
  return out;
}

TEST(Repeat, TheCheckCatchesAnOrderThatChanges) {
  const std::int64_t n = 1'000'003;
  Options o = rb::test::small_options({n});
  Session session(o);
  session.input().select_sizes({n});
  auto backend = cpu_backend<rb::test::ChangesOrder>("t/changes_order").make({session.input().host_data(n), n});
  double first = 0, other = 0;
  EXPECT_FALSE(repeatable([&] { return backend->run(); }, first, other));
  EXPECT_NE(bits(first), bits(other));
}

TEST(Determinism, CpuRowsKeepTheirPromise) {
  Options o = rb::test::small_options(sizes(available_host_bytes()));
  Session session(o);
  session.input().select_sizes(o.sizes);
  int checked = 0;
  for (const auto n : o.sizes) {
    const float* x = session.input().host_data(n);
    for (const auto& def : rb::test::registered_cpu_defs()) {
      if (!def.unavailable.empty() || def.shaped) continue;  // shapes: the per-output check (outputs_check.hpp)
      auto backend = def.make({x, n});
      expect_promise_kept(def.name, def.determinism, n, [&] { return backend->run(); });
      checked += def.determinism != Determinism::not_guaranteed;
    }
  }
  EXPECT_GT(checked, 0) << "no CPU row promises anything: a test that checks nothing must not pass";
  std::printf("[ checked  ] %d (CPU row, n) pairs, sizes up to %lld\n", checked,
              static_cast<long long>(o.sizes.back()));
}

#if RB_TEST_HAVE_CUDA
TEST(Determinism, GpuRowsKeepTheirPromise) {
  RB_REQUIRE_GPU();
  std::string why_not;
  const auto info = gpu::probe_device(why_not);
  ASSERT_TRUE(info) << why_not;
  Options o = rb::test::small_options(sizes(info->total_bytes));
  Session session(o);
  session.input().select_sizes(o.sizes);
  gpu::GpuSession g(session, *info);
  int checked = 0;
  for (const auto n : o.sizes) {
    const float* x = g.input(n);
    for (const auto& def : rb::test::registered_gpu_defs()) {
      if (!def.unavailable.empty() || (def.probe && !def.probe().empty()) || def.name.starts_with("tune/")) continue;
      if (def.shaped) continue;  // a sum along a dimension: its outputs' bits are checked per call instead
      auto backend = def.make(gpu::GpuProblem{x, n, g.stream(), g.scratch(), g.slot(), info->sm_count});
      if (backend->structure().acc == Accumulator::none) continue;  // computes no sum (ref/launch)
      expect_promise_kept(def.name, def.determinism, n, [&] {
        g.enqueue_flush();
        g.slot().poison();
        backend->enqueue(g.stream());
        return backend->result();
      });
      checked += def.determinism != Determinism::not_guaranteed;
    }
  }
  EXPECT_GT(checked, 0);
  std::printf("[ checked  ] %d (GPU row, n) pairs on %s, sizes up to %lld\n", checked, info->name.c_str(),
              static_cast<long long>(o.sizes.back()));
}

// gpu_to_gpu rows on two devices: the same bits from each (the same data is generated on both).
TEST(Determinism, GpuToGpuRowsAgreeAcrossGpus) {
  RB_REQUIRE_GPU();
  std::vector<BackendDef<float>> rows;
  for (const auto& def : rb::test::registered_gpu_defs()) {
    if (def.determinism == Determinism::gpu_to_gpu && def.unavailable.empty()) rows.push_back(def);
  }
  if (rows.empty()) GTEST_SKIP() << "no available row promises gpu_to_gpu in this build (CUB's need CCCL >= 3.2)";
  std::string why_not;
  if (!gpu::probe_device(why_not, 1)) GTEST_SKIP() << "needs a second GPU: " << why_not;
  std::vector<std::vector<double>> sums(2);
  std::vector<std::int64_t> ns;
  for (int device = 0; device < 2; ++device) {
    const auto info = gpu::probe_device(why_not, device);
    ASSERT_TRUE(info) << why_not;
    Options o = rb::test::small_options(sizes(info->total_bytes));
    ns = o.sizes;
    Session session(o);
    session.input().select_sizes(o.sizes);
    gpu::GpuSession g(session, *info);
    for (const auto n : o.sizes) {
      const float* x = g.input(n);
      for (const auto& def : rows) {
        auto backend = def.make(gpu::GpuProblem{x, n, g.stream(), g.scratch(), g.slot(), info->sm_count});
        backend->enqueue(g.stream());
        sums[device].push_back(backend->result());
      }
    }
  }
  ASSERT_EQ(sums[0].size(), sums[1].size());
  for (std::size_t i = 0; i < sums[0].size(); ++i) {
    EXPECT_EQ(bits(sums[0][i]), bits(sums[1][i])) << rows[i % rows.size()].name << " at n = " << ns[i / rows.size()]
                                                  << ": GPU 0 gave " << sums[0][i] << ", GPU 1 " << sums[1][i];
  }
  std::printf("[ checked  ] %zu (row, n) pairs on GPUs 0 and 1\n", sums[0].size());
}
#endif

}  // namespace
