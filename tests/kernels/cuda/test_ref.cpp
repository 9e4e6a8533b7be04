// ref/read and ref/launch (kernels/cuda/ref.hpp).
#include <gtest/gtest.h>

#include <vector>

#include "kernels/cuda/ref.hpp"
#include "kernels/cuda/tuning.cuh"
#include "kernels/cuda/sum.hpp"
#include "tests/kernels/cuda/device.hpp"
#include "tests/support/data.hpp"
#include "tests/support/gpu.hpp"

namespace {

using rb::test::Acc;

// What the ref/read adapter does after timing: the partials, added on the host.
double read_and_add(const float* in, std::int64_t n) {
  const int blocks = rb::cuda::ref::read_blocks(n);
  rb::test::DeviceArray<float> partials(static_cast<std::size_t>(blocks));
  rb::cuda::ref::read(in, n, partials.get(), nullptr);
  std::vector<float> host(static_cast<std::size_t>(blocks));
  RB_CUDA_CHECK(cudaMemcpy(host.data(), partials.get(), host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  double sum = 0;
  for (const float v : host) sum += v;
  return sum;
}

TEST(RefRead, PartialsAddUpToTheSum) {
  RB_REQUIRE_GPU();
  const std::int64_t max_n = (std::int64_t{1} << 23) + 1;
  const auto x = rb::test::random_signed(max_n + 3, 13);
  const auto d = rb::test::upload(x);
  for (int offset = 0; offset < 4; ++offset) {
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{7}, std::int64_t{4097},
                                 std::int64_t{100'003}, std::int64_t{3'000'001}, max_n}) {
      SCOPED_TRACE(testing::Message() << "offset " << offset << ", n " << n);
      RB_EXPECT_SUM(read_and_add(d.get() + offset, n), std::span(x).subspan(offset, n), Acc::f32_tree);
    }
  }
}

TEST(RefRead, SameGridAsOnepassAtLargeN) {
  RB_REQUIRE_GPU();
  // ref/read reads with onepass's Large shape; below kOnepassLargeMinN onepass uses smaller tiles.
  for (const std::int64_t n : {rb::cuda::kOnepassLargeMinN, std::int64_t{1} << 22, std::int64_t{1} << 30}) {
    EXPECT_EQ(rb::cuda::ref::read_blocks(n), rb::cuda::onepass.geometry(n).grid) << "n " << n;
  }
}

TEST(RefLaunch, EmptyKernelRuns) {
  RB_REQUIRE_GPU();
  rb::cuda::ref::launch_empty(nullptr);
  RB_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace
