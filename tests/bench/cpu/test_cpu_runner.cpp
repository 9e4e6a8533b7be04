// The CPU measurement loop end to end: registration, Google Benchmark's runner, verification,
// and the outcomes the exit status is computed from.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include <unistd.h>

#include "bench/cpu/runner.hpp"
#include "bench/detail/finish.hpp"
#include "bench/detail/measure.hpp"
#include "common/sizes.hpp"
#include "kernels/cpu/accumulate.hpp"
#include "tests/support/data.hpp"
#include "tests/support/run_cases.hpp"

namespace {

using namespace rb::bench;
using rb::test::outcome_of;
using Kind = Outcome::Kind;

double drop_last(const float* x, std::int64_t n) { return rb::cpu::accumulate_f64(x, n > 0 ? n - 1 : 0); }

class Throws final : public CpuBackend {
 public:
  explicit Throws(const CpuProblem&) {}
  double run() override { throw std::runtime_error("backend exploded"); }
  Structure structure() const override { return {}; }
};

class Skips final : public CpuBackend {
 public:
  explicit Skips(const CpuProblem&) { throw Skip("not on this machine"); }
  double run() override { return 0; }
  Structure structure() const override { return {}; }
};

const Summation kChain64 = lanes(Accumulator::f64, 1);

TEST(CpuRunner, CorrectPassesWrongFailsErrorsAreContained) {
  Session session(rb::test::small_options({1, 33, 4097}));
  const auto entries = bind_backends(session, {
      cpu_function<&rb::cpu::accumulate_f64>("t/good", kChain64),
      cpu_function<&drop_last>("t/drops_last", kChain64),
      cpu_backend<Throws>("t/throws"),
      cpu_backend<Skips>("t/skips"),
  });
  EXPECT_EQ(rb::test::run_in_process(session, entries), 12u);
  for (const char* n : {"1", "33", "4097"}) {
    EXPECT_EQ(outcome_of(session, std::string("t/good/") + n + "/hot").kind, Kind::ok) << n;
    const auto wrong = outcome_of(session, std::string("t/drops_last/") + n + "/hot");
    EXPECT_EQ(wrong.kind, Kind::verification_failed) << n;
    EXPECT_NE(wrong.message.find("exact check failed"), std::string::npos) << wrong.message;
    EXPECT_EQ(wrong.exact, Outcome::Check::failed) << n;
    EXPECT_EQ(outcome_of(session, std::string("t/throws/") + n + "/hot").kind, Kind::error);
    EXPECT_EQ(outcome_of(session, std::string("t/skips/") + n + "/hot").kind, Kind::skipped);
  }
  EXPECT_EQ(session.log().failures(), 6);
}

// Its first call (the exact check's) cannot run; every later call sums correctly.
class ExactCannotRun final : public CpuBackend {
 public:
  explicit ExactCannotRun(const CpuProblem& p) : p_(p) {}
  // The exact check's data has poison past n where the input has zeros.
  double run() override {
    if (p_.data[p_.n] != 0 && calls_++ == 0) throw Skip("no room for the exact check");
    return rb::cpu::accumulate_f64(p_.data, p_.n);
  }
  Structure structure() const override { return kChain64(p_.n); }

 private:
  CpuProblem p_;
  int calls_ = 0;
};

// Exit 0 means every check passed: an exact check that could not run fails its row.
TEST(CpuRunner, AnExactCheckThatCannotRunFailsTheRow) {
  Session session(rb::test::small_options({4097}));
  const auto entries = bind_backends(session, {cpu_backend<ExactCannotRun>("t/exact_cannot_run")});
  EXPECT_EQ(rb::test::run_in_process(session, entries), 1u);
  const auto o = outcome_of(session, "t/exact_cannot_run/4097/hot");
  EXPECT_EQ(o.kind, Kind::verification_failed) << o.message;
  EXPECT_EQ(o.exact, Outcome::Check::skipped);
  EXPECT_EQ(o.calls, Outcome::Check::passed);
  EXPECT_NE(o.message.find("exact check could not run: no room for the exact check"), std::string::npos) << o.message;
  EXPECT_EQ(session.log().failures(), 1);
}

TEST(CpuRunner, SizesBeyondTheInputFileAreSkipped) {
  const auto x = rb::test::random_signed(1000, 2);
  const auto path = std::filesystem::temp_directory_path() / ("rb_runner_" + std::to_string(::getpid()) + ".bin");
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(x.data()), 4000);
  Options o = rb::test::small_options({999, 1000, 1001});
  o.input_path = path.string();
  Session session(o);
  const auto entries = bind_backends(session, {cpu_function<&rb::cpu::accumulate_f64>("t/good", kChain64)});
  rb::test::run_in_process(session, entries);
  EXPECT_EQ(outcome_of(session, "t/good/999/hot").kind, Kind::ok);
  EXPECT_EQ(outcome_of(session, "t/good/1000/hot").kind, Kind::ok);
  const auto beyond = outcome_of(session, "t/good/1001/hot");
  EXPECT_EQ(beyond.kind, Kind::skipped);
  EXPECT_NE(beyond.message.find("exceeds the 1000 values"), std::string::npos) << beyond.message;
  EXPECT_EQ(session.log().failures(), 0);
  std::filesystem::remove(path);
}

}  // namespace

namespace {

// A call that takes `busy` of wall time and reports `seconds(k)` for its k-th call.
template <class F>
std::int64_t warm_calls(double busy, F seconds, double cap = 0.1) {
  std::int64_t k = 0;
  return warm_up([&] {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(busy);
    while (std::chrono::steady_clock::now() < until) {
    }
    return seconds(k++);
  }, cap);
}

// The warm-up goes on while the calls get faster, block by block (at least kWarmBlock and two
// calls each), and stops at the first block no faster than the best one before it.
TEST(CpuRunner, WarmUpLastsWhileCallsGetFaster) {
  // Flat: two blocks, then no gain. A block ends after 5 ms and two calls: of 0.5 ms calls it
  // holds at most 11, and a preempted test thread makes it hold fewer.
  const auto flat = warm_calls(5e-4, [](std::int64_t) { return 1e-3; });
  EXPECT_GE(flat, 4);
  EXPECT_LE(flat, 22);
  // Twice as slow at first, decaying over tens of calls: more blocks than flat.
  const auto decaying = warm_calls(5e-4, [](std::int64_t k) { return 1e-3 * (1 + std::exp(-k / 10.0)); });
  EXPECT_GT(decaying, flat);
  // Faster at every call: the cap, not the blocks, ends it.
  const auto t0 = std::chrono::steady_clock::now();
  warm_calls(5e-4, [](std::int64_t k) { return 1e-3 / static_cast<double>(1 + k); }, 0.02);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(wall, 0.02);
  EXPECT_LT(wall, 0.5);
  // One call as long as the cap: nothing more.
  EXPECT_EQ(warm_calls(0.02, [](std::int64_t) { return 0.02; }, 0.02), 1);
}

// The untimed calls on the input: kAccuracyCalls when they are fast, kMinAccuracyCalls when each
// takes longer than the budget; the first call (module loads, thread starts) is not counted in it.
TEST(CpuRunner, AccuracyCallsFitTheirBudget) {
  int calls = 0;
  const auto fast = accuracy_calls([&] { return static_cast<double>(++calls); });
  EXPECT_EQ(static_cast<int>(fast.size()), kAccuracyCalls);
  EXPECT_EQ(fast.back(), kAccuracyCalls);  // every sum kept, in order
  const auto sleep_for = [](double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); };
  int slow_calls = 0;
  const auto slow = accuracy_calls([&] {
    sleep_for(slow_calls++ == 0 ? 3 * kAccuracySeconds : kAccuracySeconds);
    return 1.0;
  });
  EXPECT_EQ(static_cast<int>(slow.size()), kMinAccuracyCalls);
}

// The default sweep gives CPU rows every default size up to 2^22, then 2^24, 2^26 and 2^28;
// named sizes run at any n.
TEST(CpuRunner, DefaultSizesThinPast2Pow22NamedSizesDoNot) {
  Options defaults;
  defaults.sizes = rb::default_sizes();
  Session session(defaults);
  const auto entries = bind_backends(session, {cpu_function<&rb::cpu::accumulate_f64>("t/good", kChain64)});
  std::vector<std::int64_t> large;
  std::size_t dense = 0;
  for (const auto& c : select_cases(entries, defaults, "")) {
    if (c.n > kCpuDenseMaxN) large.push_back(c.n);
    else ++dense;
  }
  EXPECT_EQ(large, (std::vector<std::int64_t>{1 << 24, 1 << 26, 1 << 28}));
  std::size_t default_dense = 0;
  for (const auto n : rb::default_sizes()) default_dense += n <= kCpuDenseMaxN ? 1 : 0;
  EXPECT_EQ(dense, default_dense);  // 1e4, 1e5, 1e6 and every power of two from 2^10
  EXPECT_FALSE(cpu_default_size(10'000'000));
  EXPECT_FALSE(cpu_default_size(std::int64_t{1} << 27));
  EXPECT_FALSE(cpu_default_size(std::int64_t{1} << 30));

  Options named = defaults;
  named.sizes_given = true;
  std::int64_t largest = 0;
  for (const auto& c : select_cases(entries, named, "")) largest = std::max(largest, c.n);
  EXPECT_EQ(largest, std::int64_t{1} << 31);
}

// Every run reports the stopping rule's statistics, and they describe the samples.
TEST(CpuRunner, SampleStatisticsAreReported) {
  Session session(rb::test::small_options({4097}));
  const auto entries = bind_backends(session, {cpu_function<&rb::cpu::accumulate_f64>("t/good", kChain64)});
  rb::test::run_in_process(session, entries, "t/good");
  const auto all = session.log().benchmarks();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_GE(all[0].samples, 3);  // small_options: min_samples 3
  EXPECT_GT(all[0].precision, 0.0);
  // Within the target is needed, not enough: a correlated or drifting row is counted short.
  if (all[0].target_met) {
    EXPECT_LE(all[0].precision, session.options().rule.target);
  }
  EXPECT_FALSE(all[0].throttled);
}

}  // namespace

// check(in_place, n, set, x) for n = 1000 and 4097 and each exact set, x the host input, under one
// ExactInPlace guard per n; after each n the guard alone has put the input back bit for bit, its
// padding included, and host_data(n) gives x again.
template <class Check>
void each_exact_set_then_the_input_again(Session& session, Check check) {
  session.input().select_sizes({1000, 4097});
  const float* x = session.input().host_data(4097);
  const std::vector<float> before(x, x + 4097 + kPadFloats);
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{4097}}) {
    {
      rb::bench::ExactInPlace in_place(session.input());
      for (int set = 0; set < InputStore::kExactSets; ++set) check(in_place, n, set, x);
    }
    EXPECT_TRUE(std::equal(before.begin(), before.end(), x)) << "the input is back, padding zero again: " << n;
    EXPECT_EQ(session.input().host_data(n), x);
  }
}

// The exact check writes its integers over the input in place, poison past n, and the input comes
// back bit for bit afterwards (synthetic and file input), the largest n included.
TEST(Session, ExactDataInPlaceThenTheInputAgain) {
  for (const bool from_file : {false, true}) {
    Options o = rb::test::small_options({1000, 4097});
    // One file per process, removed with std::remove: this binary links libtorch, whose exported
    // std::filesystem::remove_all calls through a null pointer on the GPU machine.
    const auto path =
        std::filesystem::temp_directory_path() / ("rb_exact_in_place_" + std::to_string(::getpid()) + ".bin");
    if (from_file) {
      const auto values = rb::test::random_signed(4097, 5);
      std::ofstream(path, std::ios::binary)
          .write(reinterpret_cast<const char*>(values.data()),
                 static_cast<std::streamsize>(values.size() * sizeof(float)));
      o.input_path = path.string();
      o.dist_given = false;
    }
    o.offset = 3;
    Session session(o);
    each_exact_set_then_the_input_again(session, [&](auto& in_place, std::int64_t n, int set, const float* x) {
      in_place.fill(n, set, rb::Dtype::f32, rb::bench::ExactData::dense);
      std::vector<float> want(static_cast<std::size_t>(n));
      generate(Dist::integers, session.input().exact_seed(set), want.data(), 0, n);
      EXPECT_TRUE(std::equal(want.begin(), want.end(), x)) << n << " " << set;
      for (std::int64_t i = n; i < n + kPadFloats; ++i) ASSERT_EQ(x[i], kPoison) << n << " " << i;
      double sum = 0;
      for (const float v : want) sum += v;
      EXPECT_EQ(sum, session.references().exact(n, set).sum);
    });
    EXPECT_NE(session.input().exact_seed(0), session.input().exact_seed(1));
    if (from_file) std::remove(path.c_str());
  }
}

// A row that throws with the exact data in place leaves the input whole for the next row: the
// guard, not the row, puts it back.
TEST(Session, ExactDataGoneWhenTheRowThrows) {
  Session session(rb::test::small_options({1000}));
  session.input().select_sizes({1000});
  const float* x = session.input().host_data(1000);
  const std::vector<float> before(x, x + 1000 + kPadFloats);
  try {
    rb::bench::ExactInPlace in_place(session.input());
    in_place.fill(1000, 1, rb::Dtype::f32, rb::bench::ExactData::dense);
    ASSERT_FALSE(std::equal(before.begin(), before.end(), x)) << "the exact data is in place";
    throw std::runtime_error("a row that fails half way");
  } catch (const std::runtime_error&) {
  }
  EXPECT_TRUE(std::equal(before.begin(), before.end(), x));
}

// The sparse data of a 16-bit accumulator's exact check: zeros but for the set's nonzeros, poison
// past n, a reference that is their sum, as stored for each type; the input comes back after.
TEST(Session, SparseExactDataInPlaceThenTheInputAgain) {
  Options o = rb::test::small_options({1000, 4097});
  o.offset = 3;
  Session session(o);
  each_exact_set_then_the_input_again(session, [&](auto& in_place, std::int64_t n, int set, const float* x) {
    in_place.fill(n, set, rb::Dtype::bf16, rb::bench::ExactData::sparse);
    const auto s = rb::bench::sparse_set(session.input().exact_seed(set), n);
    std::vector<float> want(static_cast<std::size_t>(n), 0.0f);
    double sum = 0;
    for (std::size_t k = 0; k < s.index.size(); ++k) {
      want[static_cast<std::size_t>(s.index[k])] = s.value[k];
      sum += s.value[k];
    }
    EXPECT_TRUE(std::equal(want.begin(), want.end(), x)) << n << " " << set;
    const rb::bf16* typed = session.input().host_data_as<rb::bf16>(n);
    in_place.fill(n, set, rb::Dtype::bf16, rb::bench::ExactData::sparse);  // host_data_as restored it
    for (std::size_t k = 0; k < s.index.size(); ++k)
      ASSERT_EQ(rb::to_float(typed[s.index[k]]), s.value[k]) << n << " " << k;
    for (std::int64_t i = n; i < n + kPadFloats; ++i) ASSERT_EQ(x[i], kPoison) << n << " " << i;
    EXPECT_EQ(sum, session.references().exact(n, set, rb::Dtype::bf16, rb::bench::ExactData::sparse).sum);
    EXPECT_LT(session.references().exact(n, set, rb::Dtype::bf16, rb::bench::ExactData::sparse).sum_abs,
              session.references().exact(n, set, rb::Dtype::bf16).sum_abs)
        << "not the dense data's";
  });
}
