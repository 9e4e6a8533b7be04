// onepass_kernel over f64, f16, bf16 and i32 (kernels/triton/launch.hpp's Element), without the
// harness: every variant compiles, aligned and not; sums at odd sizes and at every misaligned start
// of a 16-byte vector, against the values as stored (small integers: exactly; random values: within
// a float or double bound; i32: exactly in int64); zero elements; the same bits on every call with
// the counter reset between grids; and the 16-bit accumulator's trap on 2^22 + 5 ones: exact when
// widened, a bf16 value that is not the sum in bf16, infinity in f16.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/cuda_check.hpp"
#include "common/dtype.hpp"
#include "kernels/triton/launch.hpp"
#include "tests/kernels/cuda/device.hpp"
#include "tests/kernels/triton/require_triton.hpp"
#include "tests/support/data.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/typed_reference.hpp"

namespace {

using rb::test::Acc;
using rb::test::DeviceArray;
using rb::test::upload;
using rb::test::stored;

// What the kernel writes to out (launch.hpp): double for f64, int64 for i32, float otherwise.
template <class T>
using Out = std::conditional_t<std::is_same_v<T, double>, double,
                               std::conditional_t<std::is_same_v<T, std::int32_t>, long long, float>>;

// The kernel tests' bound for a widened sum: float levels, or double additions for f64.
template <class T>
constexpr Acc kBound = std::is_same_v<T, double> ? Acc::f64 : Acc::f32_tree;

// Every value used here is a float exactly (f16, bf16 widen exactly; f64 and i32 data are floats
// or small integers), so the float machinery of tests/support/data.hpp checks the sums.
template <class T>
std::vector<float> widened(std::span<const T> x) {
  std::vector<float> w(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) w[i] = static_cast<float>(rb::widen(x[i]));
  return w;
}

enum class Data { random, integers, sparse };

// random: tests/support's signed mixed magnitudes, rounded to T. integers: +-(1..8) everywhere,
// whose partial sums stay exact in float (below 2^24), double and int64. sparse: 32 such integers
// among zeros, so every partial sum has |s| <= 256 and is exact even in bf16 (8 bits) and f16.
template <class T>
std::vector<T> make(Data data, std::int64_t n, std::uint64_t seed) {
  std::vector<T> x(static_cast<std::size_t>(n), stored<T>(0.0f));
  std::mt19937_64 rng(seed);
  const auto small = [&] {
    const int v = 1 + static_cast<int>(rng() % 8);
    return static_cast<float>(rng() % 2 == 0 ? v : -v);
  };
  if (data == Data::random) {
    const auto r = rb::test::random_signed(n, seed);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = stored<T>(r[i]);
  } else if (data == Data::integers) {
    for (auto& v : x) v = stored<T>(small());
  } else {
    for (int k = 0; k < 32 && n > 0; ++k) x[rng() % x.size()] = stored<T>(small());
  }
  return x;
}

// One compiled kernel, its scratch prepared, its result slot poisoned before every call (all-ones
// bits: NaN, or -1 for an integer), so a call that writes nothing fails.
template <class T>
class Typed {
 public:
  Typed(const T* in, std::int64_t n, bool widen)
      : k_(in, n, {rb::dtype_of<T>, widen}), scratch_(k_.scratch_bytes()), out_(1) {
    k_.prepare(scratch_.get(), nullptr);
  }
  Out<T> sum(const T* in) {
    RB_CUDA_CHECK(cudaMemset(out_.get(), 0xFF, sizeof(Out<T>)));
    k_.sum(in, scratch_.get(), out_.get(), nullptr);
    RB_CUDA_CHECK(cudaDeviceSynchronize());
    return rb::test::read_back(out_.get());
  }
  // This kernel's call on `owner`'s scratch: both grids then share one ticket counter.
  Out<T> sum_on(const Typed& owner, const T* in) {
    RB_CUDA_CHECK(cudaMemset(out_.get(), 0xFF, sizeof(Out<T>)));
    k_.sum(in, owner.scratch_.get(), out_.get(), nullptr);
    RB_CUDA_CHECK(cudaDeviceSynchronize());
    return rb::test::read_back(out_.get());
  }

 private:
  rb::triton::Onepass k_;
  DeviceArray<unsigned char> scratch_;
  DeviceArray<Out<T>> out_;
};

template <class T>
long long exact_sum(std::span<const T> x) {
  long long s = 0;
  for (const T v : x) s += static_cast<long long>(rb::widen(v));
  return s;
}

// n values at each start within one 16-byte vector: the first aligned (vector loads declared), the
// others not. Integer and sparse data must come out exact; random data within the accumulator's
// bound (widened only: a 16-bit accumulator has none at these sizes).
template <class T>
void expect_sums_at_odd_sizes(bool widen, Data data) {
  constexpr int kPerVec = static_cast<int>(16 / sizeof(T));
  for (const std::int64_t n : {1, 2, 31, 33, 4095, 4096, 4097, 8193, 65'537, 99'991, 1'000'003}) {
    const auto x = make<T>(data, n + kPerVec, 100 + static_cast<std::uint64_t>(n));
    const auto d = upload<T>(x);
    for (int offset = 0; offset < kPerVec; ++offset) {
      SCOPED_TRACE(testing::Message() << rb::dtype_name(rb::dtype_of<T>) << (widen ? " widened" : " in its type")
                                      << ", n " << n << ", offset " << offset);
      const std::span<const T> slice(x.data() + offset, static_cast<std::size_t>(n));
      Typed<T> k(d.get() + offset, n, widen);
      const Out<T> got = k.sum(d.get() + offset);
      if (data != Data::random)
        EXPECT_EQ(static_cast<double>(got), static_cast<double>(exact_sum(slice)));
      else
        RB_EXPECT_SUM(static_cast<double>(got), widened(slice), kBound<T>);
    }
  }
}

TEST(TritonTyped, EveryVariantCompilesAlignedAndNot) {
  RB_REQUIRE_TRITON();
  DeviceArray<double> d(64);  // cudaMalloc's: 16-byte aligned; 8 bytes on, an element boundary that is not
  const auto* bytes = reinterpret_cast<const unsigned char*>(d.get());
  for (const int skew : {0, 8}) {
    const void* in = bytes + skew;
    for (const rb::triton::Element e : {rb::triton::Element{rb::Dtype::f64},
                                        {rb::Dtype::f16},
                                        {rb::Dtype::bf16},
                                        {rb::Dtype::i32},
                                        {rb::Dtype::f16, false},
                                        {rb::Dtype::bf16, false}}) {
      SCOPED_TRACE(testing::Message() << rb::dtype_name(e.dtype) << (e.widen ? " widened" : " in its type")
                                      << (skew == 0 ? ", aligned" : ", unaligned"));
      const rb::triton::Onepass k(in, 1000, e);
      EXPECT_GE(k.programs(), 1);
      EXPECT_GT(k.scratch_bytes(), 256u);
    }
  }
}

TEST(TritonTyped, Int32IsOnlyWidened) {
  RB_REQUIRE_TRITON();
  DeviceArray<std::int32_t> d(4);
  EXPECT_THROW(rb::triton::Onepass(d.get(), 4, {rb::Dtype::i32, false}), std::invalid_argument);
}

TEST(TritonTyped, WidenedSumsAtOddSizesAndOffsets) {
  RB_REQUIRE_TRITON();
  for (const Data data : {Data::integers, Data::random}) {
    expect_sums_at_odd_sizes<double>(true, data);
    expect_sums_at_odd_sizes<rb::f16>(true, data);
    expect_sums_at_odd_sizes<rb::bf16>(true, data);
  }
  expect_sums_at_odd_sizes<std::int32_t>(true, Data::integers);
}

TEST(TritonTyped, SixteenBitAccumulatorIsExactOnSparseIntegers) {
  RB_REQUIRE_TRITON();
  expect_sums_at_odd_sizes<rb::f16>(false, Data::sparse);
  expect_sums_at_odd_sizes<rb::bf16>(false, Data::sparse);
}

// check(std::type_identity<T>{}, widen) over the kernel's variants: f64, f16, bf16 (and i32 with
// `with_i32`) widened, then f16 and bf16 in their own type.
template <class Check>
void each_variant(bool with_i32, Check check) {
  check(std::type_identity<double>{}, true);
  check(std::type_identity<rb::f16>{}, true);
  check(std::type_identity<rb::bf16>{}, true);
  if (with_i32) check(std::type_identity<std::int32_t>{}, true);
  check(std::type_identity<rb::f16>{}, false);
  check(std::type_identity<rb::bf16>{}, false);
}

template <class T>
void expect_zero_elements_sum_to_zero(bool widen) {
  DeviceArray<T> d(4);
  Typed<T> k(d.get(), 0, widen);
  EXPECT_EQ(k.sum(d.get()), Out<T>{0}) << rb::dtype_name(rb::dtype_of<T>) << (widen ? " widened" : " in its type");
}

TEST(TritonTyped, ZeroElementsSumToZero) {
  RB_REQUIRE_TRITON();
  each_variant(true,
               [](auto type, bool widen) { expect_zero_elements_sum_to_zero<typename decltype(type)::type>(widen); });
}

// Ten calls on a large grid, each followed by a small grid's call on the same counter: the same
// bits every time, and the small sums right (the counter is back to 0 after every launch).
template <class T>
void expect_reproducible(bool widen) {
  SCOPED_TRACE(testing::Message() << rb::dtype_name(rb::dtype_of<T>) << (widen ? " widened" : " in its type"));
  const std::int64_t n = (std::int64_t{1} << 22) + 5, small_n = 1001;
  const auto x = make<T>(widen ? Data::random : Data::sparse, n, 9);
  const auto d = upload<T>(x);
  Typed<T> big(d.get(), n, widen), small(d.get(), small_n, widen);
  std::vector<Out<T>> sums;
  for (int i = 0; i < 10; ++i) {
    sums.push_back(big.sum(d.get()));
    const Out<T> s = small.sum_on(big, d.get());
    const std::span<const T> head(x.data(), small_n);
    if (widen)
      RB_EXPECT_SUM(static_cast<double>(s), widened(head), kBound<T>);
    else
      EXPECT_EQ(static_cast<double>(s), static_cast<double>(exact_sum(head)));
  }
  for (const Out<T> v : sums) EXPECT_EQ(std::memcmp(&v, &sums[0], sizeof v), 0);
}

TEST(TritonTyped, OnepassIsBitwiseReproducibleAndResetsItsCounter) {
  RB_REQUIRE_TRITON();
  each_variant(false, [](auto type, bool widen) { expect_reproducible<typename decltype(type)::type>(widen); });
}

TEST(TritonTyped, Int32ExtremesAreSummedExactlyInInt64) {
  RB_REQUIRE_TRITON();
  const std::int64_t n = 1'000'003;
  for (const std::int32_t value :
       {std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min()}) {
    const std::vector<std::int32_t> x(static_cast<std::size_t>(n), value);
    const auto d = upload<std::int32_t>(x);
    Typed<std::int32_t> k(d.get(), n, true);
    EXPECT_EQ(k.sum(d.get()), static_cast<long long>(value) * n) << value;
  }
}

// 2^22 + 5 ones: float adds them exactly; bf16 (8 significant bits) cannot even hold the sum, and
// since Triton 3.3 tl.sum adds bf16 in bf16 (sum.py), so the result is some bf16 value; f16
// overflows past 65504 to infinity. The rows triton/onepass_acc16@* state that accumulator.
TEST(TritonTyped, SixteenBitAccumulatorLosesWhatWideningKeeps) {
  RB_REQUIRE_TRITON();
  const std::int64_t n = (std::int64_t{1} << 22) + 5;
  const std::vector<rb::bf16> ones_bf16(static_cast<std::size_t>(n), rb::to_bf16(1.0f));
  const std::vector<rb::f16> ones_f16(static_cast<std::size_t>(n), rb::to_f16(1.0f));
  const auto b = upload<rb::bf16>(ones_bf16);
  const auto h = upload<rb::f16>(ones_f16);
  EXPECT_EQ(Typed<rb::bf16>(b.get(), n, true).sum(b.get()), static_cast<float>(n));
  EXPECT_EQ(Typed<rb::f16>(h.get(), n, true).sum(h.get()), static_cast<float>(n));
  const float in_bf16 = Typed<rb::bf16>(b.get(), n, false).sum(b.get());
  EXPECT_NE(in_bf16, static_cast<float>(n));
  EXPECT_EQ(rb::to_float(rb::to_bf16(in_bf16)), in_bf16) << in_bf16 << " is no bf16 value: was tl.sum widened?";
  const float in_f16 = Typed<rb::f16>(h.get(), n, false).sum(h.get());
  EXPECT_TRUE(std::isinf(in_f16) && in_f16 > 0) << in_f16;
}

}  // namespace
