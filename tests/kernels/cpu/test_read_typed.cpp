// The read kernels (read.hpp), alone in every version this CPU runs and on the pool, and what
// avx512_bf16dp's instruction does (avx512.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>
#include <type_traits>
#include <vector>

#include "common/dtype.hpp"
#include "kernels/cpu/avx512.hpp"
#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/read.hpp"
#include "kernels/cpu/read_typed.hpp"
#include "kernels/cpu/threads.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"
#include "tests/kernels/cpu/typed_data.hpp"

namespace {

using namespace rb::test::typed;
using rb::bf16;
using rb::f16;
using rb::test::kMaxOffset;
using rb::test::need_avx2;
using rb::test::need_avx2_f16c;
using rb::test::need_avx512;
using rb::test::need_avx512_bf16;
namespace cpu = rb::cpu;

constexpr std::int64_t kLargeOdd = 1'000'003;
constexpr int kPad = 64;  // nonzero data past every range: an over-read changes the sum

// ---- the read kernels: the plain 64-lane loop, in every version this CPU runs ----

// read.hpp's loop written out in scalar code: lane j takes the elements i = j mod 64, then lane j
// adds lane j + w for w = 32, ..., 1.
template <class Acc, class T>
Acc plain_read(const T* x, std::int64_t n) {
  Acc acc[64] = {};
  for (std::int64_t i = 0; i < n; ++i) acc[i % 64] += static_cast<Acc>(rb::widen(x[i]));
  for (int w = 32; w > 0; w /= 2) {
    for (int j = 0; j < w; ++j) acc[j] += acc[j + w];
  }
  return acc[0];
}

template <class T>
using ReadFn = Out<T> (*)(const T*, std::int64_t);
template <class T>
struct ReadVersion {
  const char* name;
  ReadFn<T> read;
  std::string why_not;
};

template <class T, auto K>
Out<T> read_call(const T* data, std::int64_t n) {
  return static_cast<Out<T>>(K(data, n));
}

template <class T>
std::vector<ReadVersion<T>> read_versions() {
  if constexpr (std::is_same_v<T, f16>) {
    return {{"read_f16", read_call<f16, cpu::read_f16>, ""},
            {"baseline", read_call<f16, cpu::detail::read_f16_baseline>, ""},
            {"avx2_f16c", read_call<f16, cpu::detail::read_f16_avx2>, need_avx2_f16c()},
            {"avx512", read_call<f16, cpu::detail::read_f16_avx512>, need_avx512()}};
  } else if constexpr (std::is_same_v<T, bf16>) {
    return {{"read_bf16", read_call<bf16, cpu::read_bf16>, ""},
            {"baseline", read_call<bf16, cpu::detail::read_bf16_baseline>, ""},
            {"avx2", read_call<bf16, cpu::detail::read_bf16_avx2>, need_avx2()},
            {"avx512", read_call<bf16, cpu::detail::read_bf16_avx512>, need_avx512()}};
  } else if constexpr (std::is_same_v<T, double>) {
    return {{"read_f64in", read_call<double, cpu::read_f64in>, ""},
            {"baseline", read_call<double, cpu::detail::read_f64_baseline>, ""},
            {"avx2", read_call<double, cpu::detail::read_f64_avx2>, need_avx2()},
            {"avx512", read_call<double, cpu::detail::read_f64_avx512>, need_avx512()}};
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    return {{"read_i32", read_call<std::int32_t, cpu::read_i32>, ""},
            {"baseline", read_call<std::int32_t, cpu::detail::read_i32_baseline>, ""},
            {"avx2", read_call<std::int32_t, cpu::detail::read_i32_avx2>, need_avx2()},
            {"avx512", read_call<std::int32_t, cpu::detail::read_i32_avx512>, need_avx512()}};
  } else {
    return {{"read_f32", read_call<float, cpu::read_f32>, ""}};
  }
}

// The same bits as the scalar loop at every n up to 700 and at two large odd sizes, from offsets
// 0..7: the vector versions keep its lanes, tail and tree exactly.
template <class T>
void expect_plain_loop_bits() {
  using Acc = std::conditional_t<std::is_same_v<T, double>, double,
                                 std::conditional_t<std::is_same_v<T, std::int32_t>, std::int64_t, float>>;
  const auto x = random_values<T>(kLargeOdd + kMaxOffset + kPad, 77);
  for (const auto& v : read_versions<T>()) {
    if (!v.why_not.empty()) {
      std::cout << "[ note ] " << v.name << " not run: " << v.why_not << "\n";
      continue;
    }
    SCOPED_TRACE(v.name);
    for (int offset = 0; offset <= kMaxOffset; ++offset) {
      for (std::int64_t n = 0; n <= 700; ++n) {
        const T* p = x.data() + offset;
        const Out<T> got = v.read(p, n), want = static_cast<Out<T>>(plain_read<Acc>(p, n));
        ASSERT_EQ(bits<T>(got), bits<T>(want))
            << "n = " << n << ", offset = " << offset << ": " << got << " vs " << want;
      }
    }
    for (const std::int64_t n : {std::int64_t{100'003}, kLargeOdd}) {
      const Out<T> got = v.read(x.data() + 3, n), want = static_cast<Out<T>>(plain_read<Acc>(x.data() + 3, n));
      EXPECT_EQ(bits<T>(got), bits<T>(want)) << "n = " << n;
    }
  }
}

TEST(ReadTyped, F32IsThePlainLoop) { expect_plain_loop_bits<float>(); }
TEST(ReadTyped, F64IsThePlainLoopInEveryVersion) { expect_plain_loop_bits<double>(); }
TEST(ReadTyped, F16IsThePlainLoopInEveryVersion) { expect_plain_loop_bits<f16>(); }
TEST(ReadTyped, Bf16IsThePlainLoopInEveryVersion) { expect_plain_loop_bits<bf16>(); }
TEST(ReadTyped, I32IsThePlainLoopInEveryVersion) { expect_plain_loop_bits<std::int32_t>(); }

// Every 16-bit pattern, in a vector lane and in the tail, widened exactly by every version.
template <class T>
void expect_every_pattern_widened() {
  constexpr std::int64_t n = 64 + 63;  // one vector step, then the tail
  std::vector<T> x(n + kPad);
  for (const auto& v : read_versions<T>()) {
    if (!v.why_not.empty()) continue;
    for (std::uint32_t pattern = 0; pattern <= 0xFFFFu; ++pattern) {
      const T value{static_cast<std::uint16_t>(pattern)};
      const auto at = static_cast<std::size_t>(pattern % n);
      std::fill(x.begin(), x.end(), T{});
      x[at] = value;
      const double got = v.read(x.data(), n), want = rb::widen(value);
      if (std::isnan(want) ? !std::isnan(got) : got != want) {
        ADD_FAILURE() << v.name << ": bits 0x" << std::hex << pattern << std::dec << " at " << at << ": got " << got
                      << ", want " << want;
        break;
      }
    }
  }
}

TEST(ReadTyped, EveryF16PatternWidenedExactly) { expect_every_pattern_widened<f16>(); }
TEST(ReadTyped, EveryBf16PatternWidenedExactly) { expect_every_pattern_widened<bf16>(); }

TEST(ReadTyped, DefaultPoolSplitsLargeInputs) {
  // As the rows run it: the default thread count and minimum chunk.
  cpu::Threads<cpu::read_bf16> pool;
  constexpr std::int64_t n = (std::int64_t{1} << 22) + 1;
  EXPECT_EQ(pool.parts(n), std::min<std::int64_t>(pool.threads(), n / cpu::kMinChunk));
  const auto x = small_integers<bf16>(n, exact_max_abs(n), 3);
  EXPECT_EQ(pool(x.data(), n), static_cast<double>(exact_sum(x.data(), n)));
}

// ---- avx512_bf16dp: the instruction's semantics, as avx512.hpp states them ----

class Bf16Dp : public ::testing::Test {
 protected:
  void SetUp() override { RB_SKIP_IF(need_avx512_bf16()); }
  static float sum(const std::vector<bf16>& x) {
    return cpu::avx512_bf16dp(x.data(), static_cast<std::int64_t>(x.size()));
  }
};

bf16 bf(float v) { return rb::to_bf16(v); }

TEST_F(Bf16Dp, EachPairIsTwoRoundedAdditionsOddElementFirst) {
  // 64 elements: two single-vector steps into the same accumulator, so lane 0 holds x0 + x1, then
  // takes x33 and x32. With 1.0 there, two halves of its ulp (2^-23) round away one at a time
  // (ties to even), where one rounding of their exact sum would keep them.
  std::vector<bf16> x(64, bf16{});
  x[0] = bf(1.0f);
  x[32] = bf(0x1p-24f);
  x[33] = bf(0x1p-24f);
  EXPECT_EQ(sum(x), 1.0f) << "a pair added with one rounding";
  // 2^-23 first (exact: 1 + 2^-23), then 2^-24, a tie that rounds up to the even 1 + 2^-22; in the
  // other order the 2^-24 would vanish first and give 1 + 2^-23.
  x[33] = bf(0x1p-23f);
  EXPECT_EQ(sum(x), 1.0f + 0x1p-22f) << "element 2j+1 not added before element 2j";
}

TEST_F(Bf16Dp, DenormalInputsCountAsZero) {
  // bf16 below 2^-126 in magnitude (exponent field 0): read as zero, unlike the shift kernels.
  std::vector<bf16> x = small_integers<bf16>(1000, 100, 9);
  const float normal = sum(x);
  for (std::size_t i = 0; i < x.size(); i += 3) x[i] = bf16{static_cast<std::uint16_t>(0x0001u + i % 0x7Fu)};
  std::vector<bf16> only_normal = x;
  for (std::size_t i = 0; i < x.size(); i += 3) only_normal[i] = bf16{};
  EXPECT_NE(sum(x), normal) << "the data no longer changes";
  EXPECT_EQ(sum(x), sum(only_normal));
  const std::vector<bf16> tiny(100, bf16{0x0040});  // 2^-127
  EXPECT_EQ(sum(tiny), 0.0f);
  EXPECT_GT(cpu::avx512_bf16(tiny.data(), 100), 0.0f) << "the shift kernel keeps denormals";
}

TEST_F(Bf16Dp, DenormalResultsFlushToZero) {
  // 2^-120 - (2^-120 - 2^-127) = 2^-127, a denormal float: the instruction returns 0 in that lane.
  std::vector<bf16> x(2);
  x[0] = bf(-0x1.FCp-121f);  // -(2^-120 - 2^-127), 8 significant bits
  x[1] = bf(0x1p-120f);
  ASSERT_EQ(rb::widen(x[0]) + rb::widen(x[1]), 0x1p-127);
  EXPECT_EQ(sum(x), 0.0f);
  EXPECT_EQ(cpu::avx512_bf16(x.data(), 2), 0x1p-127f) << "the shift kernel keeps it";
}

}  // namespace
