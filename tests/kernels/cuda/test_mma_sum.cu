// cuda/mma over f16 and bf16 (kernels/cuda/mma_sum.hpp): sizes from 0 and 1 up to 2^24 + 5, at
// both shapes' tile and grid edges and every misalignment of the start (0 to 7 elements), against
// an fp64 reference over rb::widen of the stored values. Random signed data must fall within the
// bound the kernel's structure gives (the one bench/backends/cuda_mma.cpp states), positive data
// too (where the tensor core's truncation errs in one direction); small integers must come out
// exact, so one element lost or added twice fails at any n. Every call twice, bit for bit the
// same, slots left empty; NaN and infinities propagated; one f16 size above 2^31 elements.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "common/dtype.hpp"
#include "common/parallel.hpp"
#include "common/synth.hpp"
#include "kernels/cuda/mma_sum.hpp"
#include "kernels/cuda/residency.cuh"
#include "tests/kernels/cuda/device.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/typed_reference.hpp"

namespace {

using rb::cuda::MmaGeometry;
using namespace rb::test;
using Reference = rb::test::TypedReference;

template <class T>
using Kernel = rb::cuda::MmaSum<T>;

constexpr int kPerVec = 8;        // elements per 16-byte load
constexpr double kU32 = 0x1p-24;  // the float accumulator's unit roundoff
constexpr double kU64 = 0x1p-53;

// Skips a test where the kernel cannot run: no GPU (RB_REQUIRE_GPU), or no sm_80+ code for the
// device in this build. On a GPU runner (RB_EXPECT_GPU=1) with an sm_80+ device the latter fails.
#define RB_REQUIRE_MMA(T)                                                                             \
  do {                                                                                                \
    RB_REQUIRE_GPU();                                                                                 \
    const std::string rb_mma_why_ = Kernel<T>::unavailable();                                         \
    if (!rb_mma_why_.empty()) {                                                                       \
      if (::rb::test::gpu_expected() && rb::cuda::compute_capability() >= 800) FAIL() << rb_mma_why_; \
      GTEST_SKIP() << rb_mma_why_;                                                                    \
    }                                                                                                 \
  } while (0)

// ---- data -----------------------------------------------------------------------------------

enum class Data { random, positive, integers };

// x[i] from a hash of (seed, i):
//   random    sign x m x 2^e, m uniform in [1, 2) on a 2^-23 grid, e uniform in [-8, 8], rounded
//             to T: mixed magnitudes, never zero, sums far from overflow
//   positive  the same without the sign: every truncation in the tensor core errs downward
//   integers  +-(1 + h % 8): every partial sum any order forms is an integer far below 2^24, so the
//             mma (products exact, 24 bits kept after alignment) and float adds are all exact
template <class T>
std::vector<T> make_data(std::int64_t n, std::uint64_t seed, Data data) {
  std::vector<T> x(static_cast<std::size_t>(n));
  constexpr std::int64_t kChunk = std::int64_t{1} << 22;
  rb::parallel_for((n + kChunk - 1) / kChunk, [&](std::int64_t c) {
    for (std::int64_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) {
      const std::uint64_t h =
          rb::synth::mix(rb::synth::mix(seed) + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(i));
      float v = 0;
      if (data == Data::integers) {
        v = static_cast<float>(1 + h % 8) * ((h & 8u) != 0 ? -1.0f : 1.0f);
      } else {
        const float sign = data == Data::random && (h & 1u) != 0 ? -1.0f : 1.0f;
        const int e = static_cast<int>((h >> 1) % 17) - 8;
        const auto m = static_cast<float>((h >> 8) & 0x7FFFFFu);
        v = sign * std::ldexp(1.0f + m * 0x1p-23f, e);
      }
      x[static_cast<std::size_t>(i)] = stored<T>(v);
    }
  });
  return x;
}

// ---- reference and bound --------------------------------------------------------------------

int tree_depth(std::int64_t k) {
  int d = 0;
  while ((std::int64_t{1} << d) < k) ++d;
  return d;
}

// The bound bench/backends/cuda_mma.cpp states, as bench/api/summation.cpp evaluates it: every element
// meets at most d roundings of u = 2^-24,
//   kRoundingsPerMma per mma.sync of the longest C fragment chain (mma_sum.hpp says why 48)
//   + 1 + log2(accumulators)     rows r and r + 8 of column 0, then the fragments pairwise
//   + 1                          block 0's edge element
//   + log2(threads)              the block tree
//   + (grid + 31) / 32 + 10 + 1  the completion, as cuda_kernel.hpp's kernel_structure states it
// so |computed - exact| <= gamma(d) sum|x| (Higham, 2nd ed., 4.2), plus the reference's own error
// (2 u64 sum|x|) and the float result's rounding (u32 |sum|).
template <class T>
double bound(std::int64_t n, const Reference& ref) {
  const MmaGeometry g = Kernel<T>::geometry(n);
  const std::int64_t d = rb::cuda::kRoundingsPerMma * g.mma_chain + 1 + tree_depth(g.accumulators) + 1 +
                         tree_depth(g.launch.threads) + (g.launch.grid + 31) / 32 + 10 + 1;
  const double du = static_cast<double>(d) * kU32;
  EXPECT_LT(du, 0.01) << "no useful bound at n = " << n;  // the harness's kMaxRelativeBound
  const double abs = (du / (1.0 - du) + 2.0 * kU64) * ref.sum_abs;
  return abs + kU32 * (std::fabs(ref.sum) + abs);
}

// ---- one call ---------------------------------------------------------------------------------

float sum_into(auto sum, float* out) {
  RB_CUDA_CHECK(cudaMemset(out, 0xFF, sizeof(float)));  // all ones: NaN, so a missing write fails
  sum();
  return rb::test::read_back(out);
}

// Two calls on x (device copy d) on one prepared scratch: the same bits both times, the slots left
// zero, and the sum within the bound (integers: exact; NaN and infinities in kind).
template <class T>
void expect_sums(const T* d, std::span<const T> x, unsigned char* scratch, std::size_t scratch_bytes, float* out,
                 Data data) {
  const auto n = static_cast<std::int64_t>(x.size());
  ASSERT_LE(Kernel<T>::scratch_bytes(n), scratch_bytes);
  float got[2];
  for (float& r : got) r = sum_into([&] { Kernel<T>::sum(d, n, scratch, out, nullptr); }, out);
  EXPECT_EQ(std::memcmp(&got[0], &got[1], sizeof(float)), 0) << "two calls differ: " << got[0] << " vs " << got[1];
  EXPECT_EQ(nonzero_bytes(scratch, scratch_bytes), 0) << "slots not put back to zero";
  const Reference ref = reference_of(x);
  rb::test::expect_matches(got[0], ref, data == Data::integers, bound<T>(n, ref), Kernel<T>::geometry(n).launch.grid);
}

// ---- sizes ----------------------------------------------------------------------------------

// Small sizes: empty, one element, within one vector, around a vector, a warp's load (256), a
// block's row and tile of the first shape, and a few odd ones.
std::vector<std::int64_t> small_sizes() {
  return {0, 1, 2, 7, 8, 9, 15, 16, 17, 255, 256, 257, 2047, 2048, 2049, 4095, 4097, 8191, 8192, 8193, 12'345};
}

// The edges of both shapes: the first shape's tile (a grid of one block, then two), the switch to
// the second shape and one tile of it past there (its grid grows by one block), the second shape's
// first full wave, and sizes of 2^20 and 2^24 plus a few.
template <class T>
std::vector<std::int64_t> edge_sizes() {
  std::vector<std::int64_t> sizes = small_sizes();
  const MmaGeometry first = Kernel<T>::geometry(1);
  const MmaGeometry second = Kernel<T>::geometry(std::int64_t{1} << 40);
  // The least n on the second shape, by bisection over the geometry (first shape below it).
  std::int64_t lo = 1, hi = std::int64_t{1} << 40;
  while (lo + 1 < hi) {
    const std::int64_t m = lo + (hi - lo) / 2;
    (Kernel<T>::geometry(m).launch.threads == first.launch.threads ? lo : hi) = m;
  }
  if (hi > (std::int64_t{1} << 24)) {
    ADD_FAILURE() << "no switch of shape found below 2^24 elements";
    hi = std::int64_t{1} << 20;
  }
  for (const std::int64_t edge :
       {first.launch.tile, hi, hi + second.launch.tile, std::int64_t{second.launch.grid} * second.launch.tile}) {
    for (const std::int64_t n : {edge - 1, edge, edge + 1}) sizes.push_back(n);
  }
  for (const std::int64_t n : {(std::int64_t{1} << 20) + 3, (std::int64_t{1} << 24) + 5}) sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

// One scratch buffer for every n of sizes (its size in bytes), prepared once as the adapter does.
template <class T>
DeviceArray<unsigned char> prepared_scratch(const std::vector<std::int64_t>& sizes, std::size_t& bytes) {
  bytes = 1;
  for (const std::int64_t n : sizes) bytes = std::max(bytes, Kernel<T>::scratch_bytes(n));
  DeviceArray<unsigned char> scratch(bytes);
  Kernel<T>::prepare(scratch.get(), bytes, nullptr);
  return scratch;
}

// Every size at every misalignment of the start, on one scratch buffer.
template <class T>
void expect_every_size_and_offset(const std::vector<std::int64_t>& sizes, Data data, std::uint64_t seed) {
  const std::int64_t len = sizes.back() + kPerVec;
  const auto x = make_data<T>(len, seed, data);
  const auto d = upload<T>(x);
  std::size_t bytes = 0;
  const DeviceArray<unsigned char> scratch = prepared_scratch<T>(sizes, bytes);
  DeviceArray<float> out(1);
  for (const std::int64_t n : sizes) {
    for (int offset = 0; offset < kPerVec; ++offset) {
      SCOPED_TRACE(testing::Message() << "data " << static_cast<int>(data) << ", n " << n << ", offset " << offset
                                      << ", grid " << Kernel<T>::geometry(n).launch.grid);
      expect_sums<T>(d.get() + offset,
                     std::span<const T>(x).subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(n)),
                     scratch.get(), bytes, out.get(), data);
    }
  }
}

template <class T>
class MmaSum : public ::testing::Test {};

using Types = ::testing::Types<rb::f16, rb::bf16>;
TYPED_TEST_SUITE(MmaSum, Types, rb::test::DtypeNames);

// Small enough for `scripts/gpu sanitize`.
TYPED_TEST(MmaSum, SmallSizesAtEveryOffset) {
  RB_REQUIRE_MMA(TypeParam);
  for (const Data data : {Data::random, Data::integers}) {
    expect_every_size_and_offset<TypeParam>(small_sizes(), data, 31);
  }
}

// Named for `scripts/gpu sanitize`'s default filter (*BoundarySizes*), which leaves it out: it sums
// about 10^9 elements.
TYPED_TEST(MmaSum, EveryShapeBoundarySizesAtEveryOffset) {
  RB_REQUIRE_MMA(TypeParam);
  for (const Data data : {Data::random, Data::positive, Data::integers}) {
    expect_every_size_and_offset<TypeParam>(edge_sizes<TypeParam>(), data, 32);
  }
}

// Positive data at 2^26 + 3: the truncations all err downward and add up over a longer chain than
// the sizes above; the bound must still hold. Also leaves the sanitizer's runs (*BoundarySizes*).
TYPED_TEST(MmaSum, PositiveDataAtLargeBoundarySizes) {
  RB_REQUIRE_MMA(TypeParam);
  using T = TypeParam;
  const std::int64_t n = (std::int64_t{1} << 26) + 3;
  const auto x = make_data<T>(n + 1, 33, Data::positive);
  const auto d = upload<T>(x);
  const std::size_t bytes = Kernel<T>::scratch_bytes(n);
  DeviceArray<unsigned char> scratch(bytes);
  DeviceArray<float> out(1);
  Kernel<T>::prepare(scratch.get(), bytes, nullptr);
  expect_sums<T>(d.get() + 1, std::span<const T>(x).subspan(1), scratch.get(), bytes, out.get(), Data::positive);
}

// Many calls, sizes alternating on one scratch buffer: every call of a size gives the first call's
// bits.
TYPED_TEST(MmaSum, RepeatedCallsGiveTheSameBits) {
  RB_REQUIRE_MMA(TypeParam);
  using T = TypeParam;
  const std::vector<std::int64_t> sizes = {5, 100'003, 3'000'001, 20'000'011};
  const auto x = make_data<T>(sizes.back() + 3, 34, Data::random);
  const auto d = upload<T>(x);
  std::size_t bytes = 0;
  const DeviceArray<unsigned char> scratch = prepared_scratch<T>(sizes, bytes);
  DeviceArray<float> out(1);
  std::vector<float> first;
  for (int round = 0; round < 5; ++round) {
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const float got =
          sum_into([&] { Kernel<T>::sum(d.get() + 3, sizes[i], scratch.get(), out.get(), nullptr); }, out.get());
      if (round == 0) {
        first.push_back(got);
      } else {
        EXPECT_EQ(std::memcmp(&got, &first[i], sizeof(float)), 0)
            << "n " << sizes[i] << ", round " << round << ": " << got << " vs " << first[i];
      }
    }
  }
  EXPECT_EQ(nonzero_bytes(scratch.get(), bytes), 0);
}

// ---- NaN and infinities ---------------------------------------------------------------------

TYPED_TEST(MmaSum, NanAndInfinitiesPropagate) {
  RB_REQUIRE_MMA(TypeParam);
  using T = TypeParam;
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const T nan = stored<T>(std::numeric_limits<float>::quiet_NaN());
  for (const std::int64_t n : {std::int64_t{100}, std::int64_t{3'000'001}}) {
    const auto clean = make_data<T>(n + 1, 35, Data::random);
    std::size_t bytes = 0;
    const DeviceArray<unsigned char> scratch = prepared_scratch<T>({n}, bytes);
    DeviceArray<float> out(1);
    for (const std::int64_t at : rb::test::special_positions(n)) {
      for (const auto& c : rb::test::special_cases<T>(stored<T>(kInf), stored<T>(-kInf), nan, T{0xFFFF}, clean[1])) {
        SCOPED_TRACE(testing::Message() << "n " << n << ", " << c.what << " at " << at);
        auto x = clean;
        x[static_cast<std::size_t>(1 + at)] = c.first;
        if (n - 1 - at != at) x[static_cast<std::size_t>(1 + (n - 1 - at))] = c.second;
        const auto d = upload<T>(x);
        expect_sums<T>(d.get() + 1, std::span<const T>(x).subspan(1, static_cast<std::size_t>(n)), scratch.get(), bytes,
                       out.get(), Data::random);
      }
    }
  }
}

// ---- above 2^31 elements ------------------------------------------------------------------

// n = 2^31 + 9 halves (4.3 GB) at an offset of 3: 32-bit index arithmetic anywhere wraps here and
// loses or repeats elements. Small integers first, whose sum must be exact; then positive data,
// whose truncation errors all have one sign, within the bound; both reproducible bit for bit. In
// suite Huge, as test_huge.cu: `scripts/gpu sanitize` leaves it out (-Huge.*).
TEST(Huge, MmaSumF16BeyondTwoToThe31Elements) {
  RB_REQUIRE_MMA(rb::f16);
  using T = rb::f16;
  const std::int64_t n = (std::int64_t{1} << 31) + 9;
  const int offset = 3;
  const auto bytes = static_cast<std::size_t>(n + offset) * sizeof(T);
  std::size_t free = 0, total = 0;
  RB_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  if (free < bytes + (std::size_t{1} << 30)) {
    GTEST_SKIP() << "needs " << static_cast<double>(bytes) / 1e9 << " GB of device memory and 1 GiB to spare, "
                 << static_cast<double>(free) / 1e9 << " GB free";
  }
  const std::size_t scratch_bytes = Kernel<T>::scratch_bytes(n);
  DeviceArray<unsigned char> scratch(scratch_bytes);
  DeviceArray<float> out(1);
  DeviceArray<T> d(static_cast<std::size_t>(n + offset));
  Kernel<T>::prepare(scratch.get(), scratch_bytes, nullptr);
  for (const Data data : {Data::integers, Data::positive}) {
    SCOPED_TRACE(data == Data::integers ? "integer data" : "positive data");
    std::vector<T> x;
    try {
      x = make_data<T>(n + offset, 36, data);
    } catch (const std::bad_alloc&) {
      GTEST_SKIP() << "needs " << static_cast<double>(bytes) / 1e9 << " GB of host memory";
    }
    RB_CUDA_CHECK(cudaMemcpy(d.get(), x.data(), bytes, cudaMemcpyHostToDevice));
    expect_sums<T>(d.get() + offset, std::span<const T>(x).subspan(offset), scratch.get(), scratch_bytes, out.get(),
                   data);
  }
}

}  // namespace
