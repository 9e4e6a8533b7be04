// The one test above 2^31 elements: every variant on n = 2^31 + 7 floats (8.6 GB of device
// memory), at an aligned start and one offset by 3 floats. 32-bit index arithmetic anywhere
// (an `int` count, blockIdx.x * blockDim.x * k, a grid stride) wraps here and loses or repeats
// billions of elements. `scripts/gpu sanitize` leaves it out (--gtest_filter=-Huge.*).
//
// The data are generated on the GPU from a hash of the index, x[i] = +-(1 + h(i) % 8): small
// integers of both signs. Every partial sum the kernels form stays far below 2^24 (a random walk
// of +-8 steps), so float arithmetic is exact on them and every variant must return the exact
// integer sum, which the host computes from the same formula in int64. One element dropped or
// read twice is caught, which the tolerance rule alone (~1e-5 of sum|x| at this n) would miss.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "common/parallel.hpp"
#include "common/synth.hpp"
#include "kernels/cuda/ref.hpp"
#include "kernels/cuda/sum.hpp"
#include "tests/kernels/cuda/device.hpp"
#include "tests/support/gpu.hpp"

namespace {

constexpr std::int64_t kN = (std::int64_t{1} << 31) + 7;
constexpr int kMaxOffset = 3;
constexpr std::uint64_t kSeed = 0x5EED;

__host__ __device__ inline std::int64_t value(std::int64_t i) {
  const std::uint64_t h = rb::synth::mix(kSeed + static_cast<std::uint64_t>(i));
  const auto magnitude = static_cast<std::int64_t>(1 + (h & 7));
  return (h & 8) != 0 ? -magnitude : magnitude;
}

__global__ void fill(float* x, std::int64_t count) {
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
    x[i] = static_cast<float>(value(i));
  }
}

struct Exact {
  std::int64_t sum = 0;
  std::int64_t sum_abs = 0;
};

// Sums of value(i) over [offset, offset + kN), for offset 0..kMaxOffset, on every core.
std::vector<Exact> exact_sums() {
  const std::int64_t total = kN + kMaxOffset;
  constexpr std::int64_t kChunk = std::int64_t{1} << 24;
  std::atomic<std::int64_t> sum{0}, sum_abs{0};
  rb::parallel_for((total + kChunk - 1) / kChunk, [&](std::int64_t c) {
    std::int64_t s = 0, a = 0;
    for (std::int64_t i = c * kChunk; i < std::min(total, (c + 1) * kChunk); ++i) {
      const std::int64_t v = value(i);
      s += v;
      a += v < 0 ? -v : v;
    }
    sum += s;
    sum_abs += a;
  });
  std::vector<Exact> out;
  for (int offset = 0; offset <= kMaxOffset; ++offset) {
    Exact e{sum.load(), sum_abs.load()};
    auto drop = [&](std::int64_t i) {
      e.sum -= value(i);
      e.sum_abs -= std::abs(value(i));
    };
    for (int i = 0; i < offset; ++i) drop(i);
    for (std::int64_t i = offset + kN; i < total; ++i) drop(i);
    out.push_back(e);
  }
  return out;
}

TEST(Huge, AllVariantsAt2Pow31Plus7_Needs9GB) {
  RB_REQUIRE_GPU();
  const std::size_t bytes = static_cast<std::size_t>(kN + kMaxOffset) * sizeof(float);
  std::size_t free_bytes = 0, total_bytes = 0;
  RB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < bytes + (std::size_t{1} << 30)) {
    GTEST_SKIP() << "needs " << (bytes >> 20) << " MiB of device memory, " << (free_bytes >> 20) << " MiB free";
  }
  rb::test::DeviceArray<float> x(static_cast<std::size_t>(kN + kMaxOffset));
  fill<<<4096, 256>>>(x.get(), kN + kMaxOffset);
  RB_CUDA_CHECK_LAUNCH();
  const auto exact = exact_sums();  // on the host while the GPU fills
  RB_CUDA_CHECK(cudaDeviceSynchronize());
  ASSERT_LT(std::abs(exact[0].sum), std::int64_t{1} << 24) << "pick another seed: the sum is not exact in float";

  const auto variants = rb::test::every_variant();
  for (const int offset : {0, kMaxOffset}) {
    const Exact& e = exact[offset];
    rb::bench::Reference ref;
    ref.n = kN;
    ref.sum = static_cast<double>(e.sum);
    ref.sum_abs = static_cast<double>(e.sum_abs);
    for (const auto& v : variants) {
      SCOPED_TRACE(testing::Message() << v.name() << ", offset " << offset);
      const double got = v.sum(x.get() + offset, kN);
      EXPECT_EQ(got, static_cast<double>(e.sum));
      const auto verdict = rb::test::verify(got, ref, v.accumulation());
      EXPECT_TRUE(verdict.ok) << verdict.message;
    }
    SCOPED_TRACE(testing::Message() << "ref/read, offset " << offset);
    const int blocks = rb::cuda::ref::read_blocks(kN);
    rb::test::DeviceArray<float> partials(static_cast<std::size_t>(blocks));
    rb::cuda::ref::read(x.get() + offset, kN, partials.get(), nullptr);
    std::vector<float> host(static_cast<std::size_t>(blocks));
    RB_CUDA_CHECK(cudaMemcpy(host.data(), partials.get(), host.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double sum = 0;
    for (const float p : host) sum += p;
    EXPECT_EQ(sum, static_cast<double>(e.sum));
  }
}

}  // namespace
