// cuda/onepass over f16, bf16, double and int32 (kernels/cuda/typed.hpp): every size path of both
// tuning entries at its edges and at every misalignment of the start (0 to 16 / sizeof(T) - 1
// elements), against an fp64 reference over rb::widen of the stored values within the bound the
// kernel's structure gives (int32: exactly), bit for bit the same on a second call, slots left
// empty; NaN and infinities propagated; int32 sums that overflow int32; one f16 size above 2^31
// elements; and the typed ref/read adding up to the same sum.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "common/dtype.hpp"
#include "common/parallel.hpp"
#include "common/synth.hpp"
#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/ref.hpp"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"
#include "kernels/cuda/typed.hpp"
#include "tests/kernels/cuda/device.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/typed_reference.hpp"

namespace {

using rb::cuda::SumType;
using rb::cuda::TuningEntry;
using rb::cuda::TypedVariant;
using namespace rb::test;
using Reference = rb::test::TypedReference;

template <class T>
constexpr int kPerVec = static_cast<int>(16 / sizeof(T));
// Unit roundoff of the accumulator: f16 and bf16 are added in float.
template <class T>
constexpr double kUnit = std::is_same_v<T, double> ? 0x1p-53 : 0x1p-24;

// ---- data: random_elements and small_integers (tests/support/typed_reference.hpp) -------------

// ---- reference and bound --------------------------------------------------------------------

int log2_of(std::int64_t v) { return std::countr_zero(static_cast<std::uint64_t>(v)); }

// The rounding bound of a float or double accumulator for n elements read with geometry g.
// Every element reaches the result through at most d rounded additions:
//   log2(16 / sizeof(T))       its vector's pairwise tree (3 for 8 halves, 1 for 2 doubles)
//   + ceil(n / (tile grid)) + 2  the thread's chain over its steps (a block's chunk is at most one
//                              row more than n / grid; the predicated remainder is one more step)
//   + log2(unroll)             the thread's accumulators added pairwise
//   + 1                        block 0's edge element
//   + 5 + log2(threads / 32)   the block tree: the warp butterfly, then the warps' sums
//   + ceil((grid - 1) / 32)    the finisher's chain over the slots of one lane (or thread)
//   + 5 + log2(threads / 32)   the finisher's tree over its lanes or threads
//   + 1                        its own partial, added last
//   + g.window_roundings       FinishFixed's fixed-point grid (Mid, float and double partials)
// so |computed - exact| <= gamma(d) sum|x|, gamma(d) = d u / (1 - d u) (Higham, Accuracy and
// Stability of Numerical Algorithms, 2nd ed., 4.2), plus the reference's own error (4 x 2^-53 of
// sum|x|). The single-block paths have a subset of these levels, so the same d bounds them.
template <class T>
double bound(std::int64_t n, const rb::cuda::Geometry& g, double sum_abs) {
  const std::int64_t unroll = g.tile / g.row, warps = g.threads / 32;
  const std::int64_t d = log2_of(kPerVec<T>) + (n + g.tile * g.grid - 1) / (g.tile * g.grid) + 2 + log2_of(unroll) + 1 +
                         2 * (5 + log2_of(warps)) + (g.grid - 1 + 31) / 32 + 1 + g.window_roundings;
  const double du = static_cast<double>(d) * kUnit<T>;
  EXPECT_LT(du, 0.01) << "no useful bound at n = " << n;
  return du / (1.0 - du) * sum_abs + 4.0 * 0x1p-53 * sum_abs;
}

// ---- one call ---------------------------------------------------------------------------------

template <class Out>
Out read_result(const Out* d) {
  return rb::test::read_back(d);
}

enum class Data { random, integers };

// Two calls of v on x (device copy d) into an out poisoned with all-ones bits (NaN, or -1), on one
// prepared scratch: the sum within the bound (int32, and small_integers data: exact), the same
// bits both times, and the slots left zero.
template <class T>
void expect_sums(const TypedVariant<T>& v, const T* d, std::span<const T> x, unsigned char* scratch,
                 std::size_t scratch_bytes, SumType<T>* out, Data data = Data::random) {
  using Out = SumType<T>;
  const auto n = static_cast<std::int64_t>(x.size());
  ASSERT_LE(v.scratch_bytes(n), scratch_bytes);
  Out got[2];
  for (Out& r : got) {
    RB_CUDA_CHECK(cudaMemset(out, 0xFF, sizeof(Out)));
    v.sum(d, n, scratch, out, nullptr);
    r = read_result(out);
  }
  EXPECT_EQ(std::memcmp(&got[0], &got[1], sizeof(Out)), 0) << "two calls differ: " << got[0] << " vs " << got[1];
  EXPECT_EQ(nonzero_bytes(scratch, scratch_bytes), 0) << "slots not put back to zero";
  const Reference ref = reference_of(x);
  if constexpr (std::is_same_v<T, std::int32_t>) {
    EXPECT_EQ(got[0], ref.exact);
  } else {
    rb::test::expect_matches(static_cast<double>(got[0]), ref, data == Data::integers,
                             bound<T>(n, v.geometry(n), ref.sum_abs), v.geometry(n).grid);
  }
}

// ---- every path at its edges, every misalignment ------------------------------------------

template <class T, class Tuning>
std::vector<std::int64_t> sizes_for(const TypedVariant<T>& v) {
  using Tuned = rb::cuda::OnepassTuned<SumType<T>, Tuning, T>;
  const std::int64_t full = std::int64_t{v.geometry(std::int64_t{1} << 40).grid} *
                            rb::cuda::kTileOf<typename Tuning::LargeShape, T>;  // the grid's first full wave
  std::vector<std::int64_t> sizes = {0, 1, 7, 8, 9, 4095, (std::int64_t{1} << 20) + 3, (std::int64_t{1} << 24) + 5};
  // Path edges, one Mid tile past the Small path (the Mid grid's block count steps there), and the
  // Large grid's first full wave.
  const std::int64_t mid_grid_step = Tuned::Small::kMaxN + rb::cuda::kTileOf<typename Tuning::MidShape, T>;
  for (const std::int64_t edge :
       {Tuned::Tiny::kMaxN, Tuned::Small::kMaxN, mid_grid_step, Tuned::wide_min_n, Tuned::large_min_n,
        Tuned::block_collect_min_n, full}) {
    for (const std::int64_t n : {edge - 1, edge, edge + 1}) sizes.push_back(n);
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

template <class T, class Tuning>
void expect_every_size_and_offset(TuningEntry entry, std::span<const T> x, const T* d, Data data) {
  const TypedVariant<T> v = rb::cuda::typed_onepass_with<T>(entry);
  const auto sizes = sizes_for<T, Tuning>(v);
  ASSERT_LE(sizes.back() + kPerVec<T>, static_cast<std::int64_t>(x.size()));
  std::size_t bytes = 1;
  for (const std::int64_t n : sizes) bytes = std::max(bytes, v.scratch_bytes(n));
  DeviceArray<unsigned char> scratch(bytes);
  DeviceArray<SumType<T>> out(1);
  v.prepare(scratch.get(), bytes, nullptr);
  for (const std::int64_t n : sizes) {
    for (int offset = 0; offset < kPerVec<T>; ++offset) {
      SCOPED_TRACE(testing::Message() << (entry == TuningEntry::sm90 ? "sm_90" : "generic") << " entry, "
                                      << (data == Data::random ? "random" : "integer") << " data, n " << n
                                      << ", offset " << offset << ", grid " << v.geometry(n).grid);
      expect_sums(v, d + offset, x.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(n)),
                  scratch.get(), bytes, out.get(), data);
    }
  }
}

template <class T>
class OnepassTyped : public ::testing::Test {};

using AllTypes = ::testing::Types<rb::f16, rb::bf16, double, std::int32_t>;
TYPED_TEST_SUITE(OnepassTyped, AllTypes, rb::test::DtypeNames);

// Every sm_90 path ends at the same byte count whatever T (the float thresholds carried by bytes):
// Mid below 1.5 MiB, Wide up to exactly 4 MiB (128 Wide tiles: FinishFixed's and FinishCounted's
// grids hold it), Large with FinishEarly up to 16 MiB. Host arithmetic only: no GPU needed.
TYPED_TEST(OnepassTyped, PathsEndAtTheSameBytesForEveryType) {
  using T = TypeParam;
  using Tuned = rb::cuda::OnepassTuned<SumType<T>, rb::cuda::OnepassSm90Tuning, T>;
  constexpr std::int64_t size = sizeof(T), mib = std::int64_t{1} << 20;
  constexpr std::int64_t mid_last_bytes = (rb::cuda::kOnepassWideMinN - 1) * 4;  // float Mid's last n
  EXPECT_LE((Tuned::wide_min_n - 1) * size, mid_last_bytes);
  EXPECT_GT(Tuned::wide_min_n * size, mid_last_bytes);
  EXPECT_EQ((Tuned::large_min_n - 1) * size, 4 * mib);
  EXPECT_EQ((Tuned::block_collect_min_n - 1) * size, 16 * mib);
  EXPECT_EQ(rb::cuda::ceil_div(Tuned::large_min_n - 1, rb::cuda::kTileOf<rb::cuda::OnepassWideShape, T>), 128);
  using Path = typename Tuned::Path;
  EXPECT_EQ(Tuned::path(Tuned::wide_min_n - 1), Path::mid);
  EXPECT_EQ(Tuned::path(Tuned::wide_min_n), Path::wide);
  EXPECT_EQ(Tuned::path(Tuned::large_min_n - 1), Path::wide);
  EXPECT_EQ(Tuned::path(Tuned::large_min_n), Path::large);
  using Finish = std::conditional_t<std::is_integral_v<T>, rb::cuda::FinishCounted, rb::cuda::FinishFixed>;
  EXPECT_TRUE((std::is_same_v<typename Tuned::TileFinish, Finish>));
  EXPECT_TRUE(
      (std::is_same_v<typename Tuned::Wide, rb::cuda::OneTileGrid<SumType<T>, rb::cuda::OnepassWideShape, T, Finish>>));
}

// Named for `scripts/gpu sanitize`'s default filter (*BoundarySizes*), which leaves it out: it sums
// about 10^9 elements.
TYPED_TEST(OnepassTyped, EveryPathBoundarySizesAtEveryOffset) {
  RB_REQUIRE_GPU();
  using T = TypeParam;
  const std::int64_t n = (std::int64_t{1} << 24) + 5 + 16;
  for (const Data data : {Data::random, Data::integers}) {
    const auto x = data == Data::random ? random_elements<T>(n, 21) : small_integers<T>(n, 26);
    const auto d = upload<T>(x);
    expect_every_size_and_offset<T, rb::cuda::OnepassSm90Tuning>(TuningEntry::sm90, x, d.get(), data);
    expect_every_size_and_offset<T, rb::cuda::OnepassGenericTuning>(TuningEntry::generic, x, d.get(), data);
  }
}

// The shipped variant is the current device's entry, bit for bit.
TYPED_TEST(OnepassTyped, ShippedVariantIsTheDevicesEntry) {
  RB_REQUIRE_GPU();
  using T = TypeParam;
  int device = 0;
  RB_CUDA_CHECK(cudaGetDevice(&device));
  const TypedVariant<T> forced = rb::cuda::typed_onepass_with<T>(rb::cuda::onepass_tuning(device));
  TypedVariant<T> shipped{};
  if constexpr (std::is_same_v<T, rb::f16>)
    shipped = rb::cuda::onepass_in_f16;
  else if constexpr (std::is_same_v<T, rb::bf16>)
    shipped = rb::cuda::onepass_in_bf16;
  else if constexpr (std::is_same_v<T, double>)
    shipped = rb::cuda::onepass_in_f64;
  else
    shipped = rb::cuda::onepass_in_i32;
  const std::int64_t max_n = 5'000'011;
  const auto x = random_elements<T>(max_n + 1, 22);
  const auto d = upload<T>(x);
  DeviceArray<SumType<T>> out(1);
  for (const std::int64_t n : {std::int64_t{3}, std::int64_t{5000}, std::int64_t{300'001}, max_n}) {
    SCOPED_TRACE(testing::Message() << "n " << n);
    ASSERT_EQ(shipped.geometry(n).grid, forced.geometry(n).grid);
    SumType<T> got[2];
    int k = 0;
    const TypedVariant<T>* both[] = {&shipped, &forced};
    for (const TypedVariant<T>* v : both) {
      const std::size_t bytes = std::max<std::size_t>(v->scratch_bytes(n), 1);
      DeviceArray<unsigned char> scratch(bytes);
      v->prepare(scratch.get(), bytes, nullptr);
      v->sum(d.get() + 1, n, scratch.get(), out.get(), nullptr);
      got[k++] = read_result(out.get());
    }
    EXPECT_EQ(std::memcmp(&got[0], &got[1], sizeof(got[0])), 0) << got[0] << " vs " << got[1];
  }
}

// The typed ref/read (ref_read.cu) reads every element once: its partials add up to the sum.
TYPED_TEST(OnepassTyped, RefReadPartialsAddUpToTheSum) {
  RB_REQUIRE_GPU();
  using T = TypeParam;
  const auto x = random_elements<T>(9'000'011, 23);
  const auto d = upload<T>(x);
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{13}, std::int64_t{100'003}, std::int64_t{9'000'007}}) {
    SCOPED_TRACE(testing::Message() << "n " << n);
    const int blocks = rb::cuda::ref::read_blocks(rb::dtype_of<T>, n);
    DeviceArray<SumType<T>> partials(static_cast<std::size_t>(blocks));
    rb::cuda::ref::read(d.get() + 3, n, partials.get(), nullptr);
    std::vector<SumType<T>> host(static_cast<std::size_t>(blocks));
    RB_CUDA_CHECK(cudaMemcpy(host.data(), partials.get(), host.size() * sizeof(SumType<T>), cudaMemcpyDeviceToHost));
    const Reference ref = reference_of(std::span<const T>(x).subspan(3, static_cast<std::size_t>(n)));
    if constexpr (std::is_same_v<T, std::int32_t>) {
      long long total = 0;
      for (const long long p : host) total += p;
      EXPECT_EQ(total, ref.exact);
    } else {
      double total = 0;
      for (const auto p : host) total += p;
      // The grid's partials, added on the host in double: within the kernel's bound.
      const rb::cuda::Geometry g{blocks, rb::cuda::ReadShape::threads, rb::cuda::ReadShape::threads * kPerVec<T>,
                       rb::cuda::kTileOf<rb::cuda::ReadShape, T>};
      EXPECT_LE(std::fabs(total - ref.sum), bound<T>(n, g, ref.sum_abs)) << total << " vs " << ref.sum;
    }
  }
}

// ---- NaN and infinities ---------------------------------------------------------------------

template <class T>
T special(double v) {
  if constexpr (std::is_same_v<T, rb::f16>)
    return rb::to_f16(static_cast<float>(v));
  else if constexpr (std::is_same_v<T, rb::bf16>)
    return rb::to_bf16(static_cast<float>(v));
  else
    return v;
}

// A NaN with every bit set: the one whose float or double image, inverted, would read as an empty
// slot (slots.cuh) if the kernel did not make it canonical.
template <class T>
T all_ones_nan() {
  if constexpr (std::is_same_v<T, double>)
    return std::bit_cast<double>(~std::uint64_t{0});
  else
    return T{0xFFFF};
}

template <class T>
class OnepassTypedFloat : public ::testing::Test {};
using FloatTypes = ::testing::Types<rb::f16, rb::bf16, double>;
TYPED_TEST_SUITE(OnepassTypedFloat, FloatTypes, rb::test::DtypeNames);

TYPED_TEST(OnepassTypedFloat, NanAndInfinitiesPropagate) {
  RB_REQUIRE_GPU();
  using T = TypeParam;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const T nan = special<T>(std::numeric_limits<double>::quiet_NaN());
  const TypedVariant<T> v = rb::cuda::typed_onepass_with<T>(TuningEntry::automatic);
  for (const std::int64_t n : {std::int64_t{100}, std::int64_t{3'000'001}, std::int64_t{9'000'001}}) {
    const auto clean = random_elements<T>(n + 1, 24);
    const std::size_t bytes = std::max<std::size_t>(v.scratch_bytes(n), 1);
    DeviceArray<unsigned char> scratch(bytes);
    DeviceArray<SumType<T>> out(1);
    v.prepare(scratch.get(), bytes, nullptr);
    for (const std::int64_t at : rb::test::special_positions(n)) {
      for (const auto& c :
           rb::test::special_cases<T>(special<T>(kInf), special<T>(-kInf), nan, all_ones_nan<T>(), clean[1])) {
        SCOPED_TRACE(testing::Message() << "n " << n << ", " << c.what << " at " << at);
        auto x = clean;
        x[static_cast<std::size_t>(1 + at)] = c.first;
        if (n - 1 - at != at) x[static_cast<std::size_t>(1 + (n - 1 - at))] = c.second;
        const auto d = upload<T>(x);
        expect_sums(v, d.get() + 1, std::span<const T>(x).subspan(1, static_cast<std::size_t>(n)), scratch.get(), bytes,
                    out.get());
      }
    }
  }
}

// ---- int32 beyond int32 -----------------------------------------------------------------------

TEST(OnepassTypedI32, SumsOfExtremesOverflowInt32ButNotInt64) {
  RB_REQUIRE_GPU();
  const auto& v = rb::cuda::onepass_in_i32;
  const std::int64_t n = (std::int64_t{1} << 24) + 5;
  for (const std::int32_t value :
       {std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min()}) {
    const std::vector<std::int32_t> x(static_cast<std::size_t>(n) + 4, value);
    const auto d = upload<std::int32_t>(x);
    const std::size_t bytes = v.scratch_bytes(n);
    DeviceArray<unsigned char> scratch(bytes);
    DeviceArray<long long> out(1);
    v.prepare(scratch.get(), bytes, nullptr);
    // 131075 and 393215: the Mid path (FinishCounted), the latter its largest grid on sm_90.
    for (const std::int64_t m : {std::int64_t{3}, std::int64_t{4099}, std::int64_t{131'075}, std::int64_t{393'215},
                                 std::int64_t{1'000'003}, n}) {
      for (int offset = 0; offset < 4; ++offset) {
        SCOPED_TRACE(testing::Message() << "value " << value << ", n " << m << ", offset " << offset);
        v.sum(d.get() + offset, m, scratch.get(), out.get(), nullptr);
        EXPECT_EQ(read_result(out.get()), static_cast<long long>(value) * m);
      }
    }
  }
}

// FinishCounted carries the other blocks' partials in 64 - kCountBits bits: n = kMaxElements
// int32s at INT32_MIN sum to exactly -2^53, the field's most negative value, and at INT32_MAX to
// 2^53 - 2^22; one element more is refused before any launch. On the looping grid (the generic
// entry's Mid path) with sm_90's Mid shape.
TEST(OnepassTypedI32, FinishCountedHoldsItsWidestSumsAndRefusesMore) {
  RB_REQUIRE_GPU();
  using Counted = rb::cuda::Onepass<long long, rb::cuda::OnepassSm90Tuning::MidShape, rb::cuda::FinishCounted,
                                    std::int32_t>;
  constexpr std::int64_t n = rb::cuda::FinishCounted::kMaxElements;
  static_assert(n == std::int64_t{1} << 22);
  const std::size_t bytes = Counted::scratch_bytes(n + 1);
  DeviceArray<unsigned char> scratch(bytes);
  DeviceArray<long long> out(1);
  Counted::prepare(scratch.get(), bytes, nullptr);
  for (const std::int32_t value :
       {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()}) {
    SCOPED_TRACE(testing::Message() << "value " << value << ", grid " << Counted::grid(n));
    const std::vector<std::int32_t> x(static_cast<std::size_t>(n) + 1, value);
    const auto d = upload<std::int32_t>(x);
    RB_CUDA_CHECK(cudaMemset(out.get(), 0xFF, sizeof(long long)));
    Counted::sum(d.get(), n, scratch.get(), out.get(), nullptr);
    EXPECT_EQ(read_result(out.get()), static_cast<long long>(value) * n);
    EXPECT_EQ(nonzero_bytes(scratch.get(), bytes), 0) << "the counted word not put back to zero";
    EXPECT_THROW(Counted::sum(d.get(), n + 1, scratch.get(), out.get(), nullptr), std::invalid_argument);
  }
  EXPECT_EQ(std::numeric_limits<std::int32_t>::min() * static_cast<long long>(n), -(std::int64_t{1} << 53));
}

// ---- above 2^31 elements ------------------------------------------------------------------

// n = 2^31 + 9 halves (4.3 GB) at an offset of 3: 32-bit element or vector index arithmetic
// anywhere wraps here and loses or repeats elements. Small integers first, whose sum must be exact
// (one block's chunk lost or read twice changes it); then random data within the float bound
// (chains of ~250 steps per thread on the H200); both bit for bit reproducible. In suite Huge, as
// test_huge.cu: `scripts/gpu sanitize` leaves it out (-Huge.*).
TEST(Huge, OnepassF16BeyondTwoToThe31Elements) {
  RB_REQUIRE_GPU();
  const std::int64_t n = (std::int64_t{1} << 31) + 9;
  const int offset = 3;
  const auto bytes = static_cast<std::size_t>(n + offset) * sizeof(rb::f16);
  std::size_t free = 0, total = 0;
  RB_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  if (free < bytes + (std::size_t{1} << 30)) {
    GTEST_SKIP() << "needs " << static_cast<double>(bytes) / 1e9 << " GB of device memory and 1 GiB to spare, "
                 << static_cast<double>(free) / 1e9 << " GB free";
  }
  const auto& v = rb::cuda::onepass_in_f16;
  const std::size_t scratch_bytes = v.scratch_bytes(n);
  DeviceArray<unsigned char> scratch(scratch_bytes);
  DeviceArray<float> out(1);
  DeviceArray<rb::f16> d(static_cast<std::size_t>(n + offset));
  v.prepare(scratch.get(), scratch_bytes, nullptr);
  for (const Data data : {Data::integers, Data::random}) {
    SCOPED_TRACE(data == Data::random ? "random data" : "integer data");
    std::vector<rb::f16> x;
    try {
      x = data == Data::random ? random_elements<rb::f16>(n + offset, 25) : small_integers<rb::f16>(n + offset, 27);
    } catch (const std::bad_alloc&) {
      GTEST_SKIP() << "needs " << static_cast<double>(bytes) / 1e9 << " GB of host memory";
    }
    RB_CUDA_CHECK(cudaMemcpy(d.get(), x.data(), bytes, cudaMemcpyHostToDevice));
    expect_sums(v, d.get() + offset, std::span<const rb::f16>(x).subspan(offset), scratch.get(), scratch_bytes,
                out.get(), data);
  }
}

}  // namespace
