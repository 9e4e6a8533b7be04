// The Triton kernels on the device, without the harness: every kernel in sum.py compiles (aligned
// and not), sums are right at odd sizes and misaligned starts, and onepass is bitwise
// reproducible with a counter that resets itself across launches of different n.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "common/cuda_check.hpp"
#include "kernels/triton/launch.hpp"
#include "tests/kernels/triton/require_triton.hpp"
#include "tests/support/data.hpp"
#include "tests/support/gpu.hpp"

namespace {

using rb::test::Acc;

struct Device {
  explicit Device(const std::vector<float>& host, int offset = 0) {
    RB_CUDA_CHECK(cudaMalloc(&base, (host.size() + 4) * sizeof(float)));
    x = base + offset;
    RB_CUDA_CHECK(cudaMemcpy(x, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
    RB_CUDA_CHECK(cudaMalloc(&out, sizeof(float)));
  }
  ~Device() {
    cudaFree(base);
    cudaFree(out);
    cudaFree(scratch);
  }
  void* scratch_of(std::size_t bytes) {
    if (bytes > scratch_bytes) {
      cudaFree(scratch);
      RB_CUDA_CHECK(cudaMalloc(&scratch, bytes));
      scratch_bytes = bytes;
    }
    return scratch;
  }
  float result() const {
    float h = 0;
    RB_CUDA_CHECK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
    return h;
  }
  float* base = nullptr;
  float* x = nullptr;
  float* out = nullptr;
  void* scratch = nullptr;
  std::size_t scratch_bytes = 0;
};

template <class Kernel>
float run(Device& d, std::int64_t n) {
  Kernel k(d.x, n);
  void* s = d.scratch_of(k.scratch_bytes());
  if constexpr (requires { k.prepare(s, nullptr); }) k.prepare(s, nullptr);
  k.sum(d.x, s, d.out, nullptr);
  RB_CUDA_CHECK(cudaDeviceSynchronize());
  return d.result();
}

TEST(Triton, EveryKernelCompiles) {
  RB_REQUIRE_TRITON();
  for (const bool aligned : {true, false}) {
    const auto& a = rb::triton::compile("partials_kernel", {{"BLOCK", 4096}}, 8, aligned);
    const auto& b = rb::triton::compile("finish_kernel", {{"BLOCK", 1024}}, 4, aligned);
    const auto& c = rb::triton::compile("onepass_kernel", {{"BLOCK", 4096}, {"MAX_PROGS", 4096}}, 8, aligned);
    EXPECT_NE(a.fn, nullptr);
    EXPECT_EQ(a.threads, 256u);
    EXPECT_EQ(b.threads, 128u);
    EXPECT_NE(c.fn, nullptr);
    EXPECT_FALSE(c.name.empty());
  }
}

TEST(Triton, OddSizesAndOffsets) {
  RB_REQUIRE_TRITON();
  for (const std::int64_t n : {1, 2, 31, 33, 4095, 4096, 4097, 8193, 65'537, 99'991, 1'000'003}) {
    const auto x = rb::test::random_signed(n + 3, 100 + static_cast<std::uint64_t>(n));
    for (int offset = 0; offset <= 3; ++offset) {
      const std::vector<float> slice(x.begin() + offset, x.begin() + offset + n);
      Device d(slice, offset);
      RB_EXPECT_SUM(run<rb::triton::TwoPass>(d, n), slice, Acc::f32_tree);
      RB_EXPECT_SUM(run<rb::triton::Onepass>(d, n), slice, Acc::f32_tree);
    }
  }
}

TEST(Triton, ZeroElementsSumToZero) {
  RB_REQUIRE_TRITON();
  Device d(rb::test::random_signed(4, 1));
  EXPECT_EQ(run<rb::triton::TwoPass>(d, 0), 0.0f);
  EXPECT_EQ(run<rb::triton::Onepass>(d, 0), 0.0f);
}

TEST(Triton, OnepassIsBitwiseReproducibleAndResetsItsCounter) {
  RB_REQUIRE_TRITON();
  const std::int64_t n = (1 << 24) + 5;
  const auto x = rb::test::random_signed(n, 9);
  Device d(x);
  rb::triton::Onepass big(d.x, n), small(d.x, 1001);
  void* s = d.scratch_of(std::max(big.scratch_bytes(), small.scratch_bytes()));
  big.prepare(s, nullptr);
  std::vector<float> sums;
  for (int i = 0; i < 10; ++i) {
    big.sum(d.x, s, d.out, nullptr);
    RB_CUDA_CHECK(cudaDeviceSynchronize());
    sums.push_back(d.result());
    small.sum(d.x, s, d.out, nullptr);  // a different grid in between: the counter must be 0 again
    RB_CUDA_CHECK(cudaDeviceSynchronize());
    RB_EXPECT_SUM(d.result(), std::span<const float>(x.data(), 1001), Acc::f32_tree);
  }
  for (const float v : sums) EXPECT_EQ(std::memcmp(&v, &sums[0], sizeof v), 0);
  RB_EXPECT_SUM(sums[0], x, Acc::f32_tree);
}

}  // namespace
