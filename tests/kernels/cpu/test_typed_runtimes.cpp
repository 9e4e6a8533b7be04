// The typed kernels on the parallel runtimes (Threads<K>, OpenMP<K>: threads.hpp, openmp.hpp); the
// read kernels and avx512_bf16dp's instruction: test_read_typed.cpp.
// Each sum is held to the structure its row states: the kernel's over the longest chunk, then the
// chunk partials in double; i32 sums are exact (int64 partials), also past 2^53 where a double
// would round. References are fp64 sums over rb::widen of the values as stored.
// ctest names say what ran, e.g. TypedRuntimes/RuntimesBf16.LargeOddSizes/threads_avx512_bf16dp.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "common/dtype.hpp"
#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/openmp.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/read.hpp"
#include "kernels/cpu/read_typed.hpp"
#include "kernels/cpu/threads.hpp"
#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/avx512.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"
#include "tests/kernels/cpu/typed_data.hpp"

namespace {

using namespace rb::test::typed;
using rb::bf16;
using rb::f16;
using rb::test::kMaxOffset;
namespace cpu = rb::cpu;

// 3 threads (more than this 2-core machine has, and odd) and chunks of any size: the split
// happens at every n, with chunks of one aligned block, empty ones and short last ones.
constexpr int kThreads = 3;
constexpr std::int64_t kSplitAlways = 1;
constexpr std::int64_t kEverySizeMax = 2100;  // every tail of every kernel in chunks of up to 704
constexpr std::int64_t kLargeSizes[] = {1'000'003, (std::int64_t{1} << 22) + 1};
constexpr int kPad = 64;  // nonzero data past every range: an over-read changes the sum

// The serial kernel's statement (avx2.hpp, avx512.hpp, read.hpp): L lanes, chains of at most ceil(n/L) + T.
struct Stated {
  int lanes;
  int tail;
};

enum class Order { serial, chunk_order, any_order };

// One built subject: its sum, how it cuts n, and the serial kernel it runs on each chunk.
template <class T>
struct Runner {
  std::function<Out<T>(const T*, std::int64_t)> sum;
  std::function<int(std::int64_t)> parts;
  std::int64_t align;
  Order order;
  Out<T> (*kernel)(const T*, std::int64_t);
};

template <class T>
struct Def {
  std::string name;
  Stated stated;
  std::string (*why_not)();
  Runner<T> (*make)();  // starts the runtime's threads: only called where why_not() is empty
};

template <class T>
void PrintTo(const Def<T>& d, std::ostream* os) {
  *os << d.name;
}

template <class T, auto K>
Out<T> call(const T* data, std::int64_t n) {
  return static_cast<Out<T>>(K(data, n));
}

template <class T, auto K>
Runner<T> serial() {
  return {call<T, K>, [](std::int64_t) { return 1; }, 1, Order::serial, call<T, K>};
}

template <class T, class Runtime, auto K>
Runner<T> runtime(Order order) {
  static_assert(std::is_same_v<typename Runtime::element_type, T>);
  static_assert(Runtime::chunk_align * static_cast<std::int64_t>(sizeof(T)) == 64, "chunks on cache lines");
  auto rt = std::make_shared<Runtime>(kThreads, kSplitAlways);
  return {[rt](const T* d, std::int64_t n) { return static_cast<Out<T>>((*rt)(d, n)); },
          [rt](std::int64_t n) { return rt->parts(n); }, Runtime::chunk_align, order, call<T, K>};
}

template <class T, auto K>
Runner<T> on_threads() {
  return runtime<T, cpu::Threads<K>, K>(Order::chunk_order);
}
template <class T, auto K>
Runner<T> on_openmp() {
  return runtime<T, cpu::OpenMP<K>, K>(Order::any_order);
}

std::string can_run() { return ""; }
std::string need_avx2() { return rb::test::need_avx2(); }
std::string need_avx2_f16c() { return rb::test::need_avx2_f16c(); }
std::string need_avx512() { return rb::test::need_avx512(); }
std::string need_avx512_bf16() { return rb::test::need_avx512_bf16(); }
std::string need_openmp() { return cpu::openmp_unavailable(); }
std::string need_openmp_avx2() { return need_openmp().empty() ? need_avx2() : need_openmp(); }
std::string need_openmp_avx2_f16c() { return need_openmp().empty() ? need_avx2_f16c() : need_openmp(); }

double gamma(double d, double u) {
  const double du = d * u;
  EXPECT_LT(du, 0.5) << "no useful bound";
  return du / (1.0 - du);
}

// The elements of the longest chunk of n: the first, whose length is the aligned step.
template <class T>
std::int64_t longest_chunk(const Runner<T>& r, std::int64_t n) {
  const int parts = r.parts(n);
  if (parts == 1) return n;
  const cpu::Range first = cpu::chunk(n, parts, 0, r.align);
  return first.end - first.begin;
}

// What the row states, as bench/api/summation.hpp bounds it: gamma(ceil(c/L) + T + log2 L) sum|x| for
// the kernel over the longest chunk c, the partials' double additions, the reference's rounding.
template <class T>
double bound(const Def<T>& d, const Runner<T>& r, std::int64_t n, double sum_abs) {
  const std::int64_t c = longest_chunk(r, n);
  const int levels = std::countr_zero(static_cast<unsigned>(d.stated.lanes));
  const auto chain = static_cast<double>((c + d.stated.lanes - 1) / d.stated.lanes + d.stated.tail + levels);
  const int parts = r.parts(n);
  const double combine = parts > 1 ? 2.0 * gamma(parts, 0x1p-53) : 0.0;
  return (gamma(chain, kUnit<T>) + combine + 4.0 * 0x1p-53) * sum_abs;
}

// ---- floating types ----

template <class T>
void expect_random_every_size(const Def<T>& d, const Runner<T>& r) {
  rb::test::typed::expect_random_every_size<T>(
      kEverySizeMax, kMaxOffset, kPad, [&](const T* p, std::int64_t n) { return r.sum(p, n); },
      [&](std::int64_t n, double abs) { return bound(d, r, n, abs); });
}

template <class T>
void expect_exact_every_size(const Runner<T>& r) {
  rb::test::typed::expect_exact_every_size<T>(kEverySizeMax, kMaxOffset, kPad,
                                    [&](const T* p, std::int64_t n) { return r.sum(p, n); });
}

template <class T>
void expect_large_sizes(const Def<T>& d, const Runner<T>& r) {
  constexpr std::int64_t max_n = (std::int64_t{1} << 22) + 1;
  const auto random = random_values<T>(max_n + kMaxOffset + kPad, 2024);
  const auto ints = small_integers<T>(max_n + kMaxOffset + kPad, exact_max_abs(max_n + kPad), 2025);
  for (const std::int64_t n : kLargeSizes) {
    for (const int offset : {0, 3}) {
      SCOPED_TRACE(testing::Message() << "n = " << n << ", offset = " << offset);
      const T* p = random.data() + offset;
      const auto ref = reference_of(p, n);
      EXPECT_LE(std::fabs(r.sum(p, n) - ref.sum()), bound(d, r, n, ref.abs)) << "random";
      const T* q = ints.data() + offset;
      EXPECT_EQ(r.sum(q, n), static_cast<double>(exact_sum(q, n))) << "integers";
    }
  }
}

// The bound is not vacuous: it rejects the sum of one element too few (magnitudes in [1, 2), far
// above the bound at these sizes).
template <class T>
void expect_dropped_element_caught(const Def<T>& d, const Runner<T>& r) {
  for (const std::int64_t n : {1, 7, 33, 100, 1000, 5001}) {
    auto x = random_values<T>(n, 12);
    for (auto& v : x) {
      const double m = std::fabs(rb::widen(v));
      v = from_float<T>(static_cast<float>(std::ldexp(m, -std::ilogb(m))));  // the same m in [1, 2)
    }
    const auto ref = reference_of(x.data(), n);
    EXPECT_GT(std::fabs(r.sum(x.data(), n - 1) - ref.sum()), bound(d, r, n, ref.abs)) << "n = " << n;
  }
}

template <class T>
void expect_non_finite(const Runner<T>& r) {
  // Every position of 3 chunks, each with a main loop, single-vector steps and a tail.
  rb::test::typed::expect_non_finite_everywhere<T>(3 * 365 + 17,
                                                   [&](const T* p, std::int64_t n) { return r.sum(p, n); });
}

// The runtime is the serial kernel over chunk_align-aligned chunks, partials in double: the pool
// adds them in chunk order (the same bits), OpenMP in any (within the double additions' rounding).
template <class T>
void expect_chunk_sums(const Runner<T>& r) {
  const auto x = random_values<T>(kLargeSizes[0], 31);
  for (const std::int64_t n : {std::int64_t{100}, std::int64_t{4099}, kLargeSizes[0]}) {
    const int parts = r.parts(n);
    ASSERT_EQ(parts, r.order == Order::serial ? 1 : kThreads) << "n = " << n;
    Out<T> ordered = 0;
    double abs = 0;
    for (int t = 0; t < parts; ++t) {
      const cpu::Range c = parts == 1 ? cpu::Range{0, n} : cpu::chunk(n, parts, t, r.align);
      if (c.begin < n) {
        ASSERT_EQ(c.begin * static_cast<std::int64_t>(sizeof(T)) % 64, 0) << "chunk " << t;
      }
      const Out<T> partial = r.kernel(x.data() + c.begin, c.end - c.begin);
      ordered += partial;
      abs += std::fabs(static_cast<double>(partial));
    }
    const Out<T> got = r.sum(x.data(), n);
    if (r.order == Order::any_order) {
      EXPECT_LE(std::fabs(got - ordered), 2.0 * gamma(parts, 0x1p-53) * abs) << "n = " << n;
    } else {
      EXPECT_EQ(bits<T>(got), bits<T>(ordered)) << "n = " << n << ": got " << got << ", chunks " << ordered;
    }
  }
}

// The same bits on every call, and wherever the same values lie in memory: the order of the
// additions depends on n (and the thread count) alone. OpenMP's reduction promises no order:
// its calls agree within the double additions of the partials.
template <class T>
void expect_repeatable(const Runner<T>& r) {
  constexpr std::int64_t n = 1'000'003;
  const auto x = random_values<T>(n, 8);
  if (r.order == Order::any_order) {
    const Out<T> first_sum = r.sum(x.data(), n);
    const double tol = 2.0 * gamma(r.parts(n), 0x1p-53) * reference_of(x.data(), n).abs;
    for (int call = 0; call < 20; ++call) ASSERT_LE(std::fabs(r.sum(x.data(), n) - first_sum), tol) << "call " << call;
    return;
  }
  rb::test::typed::expect_same_bits_anywhere<T>(x, kMaxOffset, 20,
                                                 [&](const T* p, std::int64_t m) { return r.sum(p, m); });
}

template <class T>
class TypedRuntimeTest : public ::testing::TestWithParam<Def<T>> {
 protected:
  void SetUp() override {
    RB_SKIP_IF(this->GetParam().why_not());
    runner_ = std::make_unique<Runner<T>>(this->GetParam().make());
  }
  const Def<T>& def() const { return this->GetParam(); }
  const Runner<T>& runner() const { return *runner_; }

 private:
  std::unique_ptr<Runner<T>> runner_;
};

using WhyNot = std::string (*)();

// The subjects of every element type, named <runtime>_<kernel>_<type>: read serially and on the pool
// (read.hpp: 64 lanes of at most ceil(n/64) additions, anywhere), the pool over the AVX2 and AVX-512
// kernels, OpenMP over the AVX2 one. Stated: the tables of avx2.hpp and avx512.hpp; `avx2_needs`
// says what the AVX2 kernel needs here, `openmp_needs` the same with OpenMP.
template <class T, auto Read, auto Avx2, auto Avx512>
std::vector<Def<T>> subjects(const std::string& type, Stated avx2, Stated avx512, WhyNot avx2_needs,
                             WhyNot openmp_needs) {
  constexpr Stated kRead{64, 0};
  return {{"read_" + type, kRead, can_run, serial<T, Read>},
          {"threads_read_" + type, kRead, can_run, on_threads<T, Read>},
          {"threads_avx2_" + type, avx2, avx2_needs, on_threads<T, Avx2>},
          {"threads_avx512_" + type, avx512, need_avx512, on_threads<T, Avx512>},
          {"openmp_avx2_" + type, avx2, openmp_needs, on_openmp<T, Avx2>}};
}

std::vector<Def<bf16>> bf16_subjects() {
  auto defs = subjects<bf16, cpu::read_bf16, cpu::avx2_bf16, cpu::avx512_bf16>("bf16", {32, 3}, {64, 3}, need_avx2,
                                                                                need_openmp_avx2);
  // Two elements per lane per instruction: 128 lanes whose chains are ceil(n/128) + 14 (avx512.hpp).
  defs.push_back({"threads_avx512_bf16dp", {128, 14}, need_avx512_bf16, on_threads<bf16, cpu::avx512_bf16dp>});
  return defs;
}

#define RB_TYPED_RUNTIME_SUITE(Suite, T, subjects)                                                    \
  class Suite : public TypedRuntimeTest<T> {};                                                        \
  INSTANTIATE_TEST_SUITE_P(TypedRuntimes, Suite, ::testing::ValuesIn(subjects),                       \
                           [](const auto& param) { return param.param.name; });                       \
  TEST_P(Suite, RandomEverySizeAndOffset) { expect_random_every_size(def(), runner()); }              \
  TEST_P(Suite, ExactEverySizeAndOffset) { expect_exact_every_size(runner()); }                       \
  TEST_P(Suite, LargeOddSizes) { expect_large_sizes(def(), runner()); }                               \
  TEST_P(Suite, DroppedElementFailsBound) { expect_dropped_element_caught(def(), runner()); }         \
  TEST_P(Suite, NonFinite) { expect_non_finite(runner()); }                                           \
  TEST_P(Suite, IsTheKernelOverAlignedChunks) { expect_chunk_sums(runner()); }                        \
  TEST_P(Suite, RepeatableAsPromised) { expect_repeatable(runner()); }

RB_TYPED_RUNTIME_SUITE(RuntimesF64, double,
                       (subjects<double, cpu::read_f64in, cpu::avx2_f64in, cpu::avx512_f64in>(
                           "f64in", {16, 3}, {32, 3}, need_avx2, need_openmp_avx2)))
RB_TYPED_RUNTIME_SUITE(RuntimesF16, f16,
                       (subjects<f16, cpu::read_f16, cpu::avx2_f16, cpu::avx512_f16>(
                           "f16", {32, 3}, {64, 3}, need_avx2_f16c, need_openmp_avx2_f16c)))
RB_TYPED_RUNTIME_SUITE(RuntimesBf16, bf16, bf16_subjects())

// ---- i32: int64 throughout, so every sum is exact ----

class RuntimesI32 : public TypedRuntimeTest<std::int32_t> {};
INSTANTIATE_TEST_SUITE_P(TypedRuntimes, RuntimesI32,
                         ::testing::ValuesIn(subjects<std::int32_t, cpu::read_i32, cpu::avx2_i32, cpu::avx512_i32>(
                             "i32", {16, 0}, {32, 0}, need_avx2, need_openmp_avx2)),
                         [](const auto& param) { return param.param.name; });

TEST_P(RuntimesI32, RandomEverySizeAndOffset) {
  const auto x = random_values<std::int32_t>(kEverySizeMax + kMaxOffset + kPad, 99);
  for (int offset = 0; offset <= kMaxOffset; ++offset) {
    const std::int32_t* p = x.data() + offset;
    std::int64_t want = 0;
    for (std::int64_t n = 0; n <= kEverySizeMax; ++n) {
      if (n > 0) want += p[n - 1];
      const std::int64_t got = runner().sum(p, n);
      if (got != want) {
        ADD_FAILURE() << "n = " << n << ", offset = " << offset << ": expected " << want << ", got " << got;
        return;
      }
    }
  }
}

TEST_P(RuntimesI32, LargeOddSizes) {
  constexpr std::int64_t max_n = (std::int64_t{1} << 22) + 1;
  const auto x = random_values<std::int32_t>(max_n + kMaxOffset, 2024);
  for (const std::int64_t n : kLargeSizes) {
    for (const int offset : {0, 3}) {
      const std::int32_t* p = x.data() + offset;
      EXPECT_EQ(runner().sum(p, n), exact_sum(p, n)) << "n = " << n << ", offset = " << offset;
    }
  }
}

TEST_P(RuntimesI32, SumsBeyondDoublePrecisionAreExact) {
  // About 5e6 values near INT32_MAX (or MIN) sum to about +-1.07e16, past 2^53: made odd, such a
  // sum has no double, so partials combined in double (or a double result) would be caught.
  constexpr std::int64_t n = 5'000'003;
  for (int pattern = 0; pattern < 2; ++pattern) {
    auto x = near_limits(n, pattern, 40 + static_cast<std::uint64_t>(pattern));
    if (exact_sum(x.data(), n) % 2 == 0) x[n / 2] -= pattern == 0 ? 1 : -1;
    const std::int64_t want = exact_sum(x.data(), n);
    ASSERT_NE(static_cast<std::int64_t>(static_cast<double>(want)), want) << "the data no longer tests this";
    EXPECT_EQ(runner().sum(x.data(), n), want) << "pattern " << pattern;
  }
}

TEST_P(RuntimesI32, IsTheKernelOverAlignedChunks) { expect_chunk_sums(runner()); }

TEST_P(RuntimesI32, DroppedElementCaught) {
  const auto x = random_values<std::int32_t>(5001, 12);
  for (const std::int64_t n : {1, 33, 5001}) EXPECT_NE(runner().sum(x.data(), n - 1), exact_sum(x.data(), n));
}

}  // namespace
