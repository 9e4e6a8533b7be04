// The warp layer (kernels/cuda/warp_sum.cuh) on 64-bit integers, the accumulator of onepass@i32:
// lanes [0, Lanes) must hold the wrapping (mod 2^64) sum of lanes [0, Lanes), whatever the other
// lanes hold, for values of every magnitude and sign.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "common/cuda_check.hpp"
#include "kernels/cuda/warp_sum.cuh"
#include "tests/kernels/cuda/device.hpp"
#include "tests/support/gpu.hpp"

namespace {

using rb::cuda::kWarpSize;

template <int Lanes>
__global__ void warp_sums(const long long* in, long long* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = rb::cuda::warp_sum<Lanes>(in[i]);
}

// The sum of lanes [0, lanes) of each warp, wrapping as two's complement addition does.
std::vector<long long> wrapped_sums(const std::vector<long long>& x, int lanes) {
  std::vector<long long> want(x.size());
  for (std::size_t w = 0; w < x.size(); w += kWarpSize) {
    std::uint64_t s = 0;
    for (int l = 0; l < lanes; ++l) s += static_cast<std::uint64_t>(x[w + static_cast<std::size_t>(l)]);
    for (int l = 0; l < kWarpSize; ++l) want[w + static_cast<std::size_t>(l)] = static_cast<long long>(s);
  }
  return want;
}

// 64 warps of each kind: full-range 64-bit values (sums wrap), int32 values (onepass@i32's
// partials), values near +-2^63 and a single nonzero lane.
std::vector<long long> values(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<long long> x(static_cast<std::size_t>(4 * 64 * kWarpSize));
  std::uniform_int_distribution<std::int32_t> i32;
  for (std::size_t i = 0; i < x.size(); ++i) {
    switch (i / (64 * kWarpSize)) {
      case 0: x[i] = static_cast<long long>(rng()); break;
      case 1: x[i] = i32(rng); break;
      case 2: x[i] = (i % 2 ? 1 : -1) * (INT64_MAX - static_cast<long long>(rng() % 1000)); break;
      default: x[i] = i % kWarpSize == (i / kWarpSize) % kWarpSize ? static_cast<long long>(rng()) : 0; break;
    }
  }
  return x;
}

template <int Lanes>
void expect_sums(const std::vector<long long>& x) {
  const auto in = rb::test::upload(std::span<const long long>(x));
  rb::test::DeviceArray<long long> out(x.size());
  warp_sums<Lanes><<<static_cast<unsigned>(x.size() / 256), 256>>>(in.get(), out.get());
  RB_CUDA_CHECK_LAUNCH();
  RB_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<long long> got(x.size());
  RB_CUDA_CHECK(cudaMemcpy(got.data(), out.get(), x.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  const auto want = wrapped_sums(x, Lanes);
  int wrong = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    // Lanes < 32: the sum is promised in lanes [0, Lanes) only.
    if (static_cast<int>(i % kWarpSize) >= Lanes) continue;
    if (got[i] != want[i] && ++wrong <= 5) {
      ADD_FAILURE() << "Lanes " << Lanes << ", thread " << i << ": " << got[i] << " != " << want[i];
    }
  }
  EXPECT_EQ(wrong, 0) << "Lanes " << Lanes;
}

TEST(WarpSum, SixtyFourBitIntegersWrapLikeTheButterfly) {
  RB_REQUIRE_GPU();
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const auto x = values(seed);
    expect_sums<32>(x);
    expect_sums<16>(x);
    expect_sums<8>(x);
    expect_sums<4>(x);
    expect_sums<2>(x);
    expect_sums<1>(x);
  }
}

}  // namespace
