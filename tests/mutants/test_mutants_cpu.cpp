// Planted bugs in CPU backends, caught by the harness on signed uniform input at n = 2^20 + 1,
// 1000003 and 2^28 + 3: an element skipped, one counted twice, a chunked runtime that drops its
// last chunk, a row that returns 0, a read of x[n] (the poison past n), a read of x[n-2] for
// x[n-1], a dropped group of 16 (the exact check); a row that states double accumulation but adds
// in float (the accuracy bound); a memoized sum (the exact check in place, and the ceiling); a sum
// wrong on one call in 20 (the per-call check, 30 runs of 30, also on the harmonic input at
// 2^24 + 3, where x[n-1] is below half an ulp of the sum); x[0] dropped on a random call in 50; a
// float chain without an accuracy bound, wrong by half on a random call in 10 (the per-call check:
// the timed calls sum exact data); a remainder that stops one short (the odd default sizes); a
// row promising run_to_run whose order changes from call to call (the calls on the input).
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <utility>

#include "bench/backends/cpu_runtime.hpp"
#include "bench/cpu/runner.hpp"
#include "common/sizes.hpp"
#include "kernels/cpu/accumulate.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/unrolled.hpp"
#include "tests/mutants/mutation.hpp"
#include "tests/support/changes_order.hpp"

namespace {

using namespace rb::bench;
using rb::test::Catcher;

float skip_last(const float* x, std::int64_t n) noexcept { return rb::cpu::unrolled8_f32(x, n > 0 ? n - 1 : 0); }
float count_twice(const float* x, std::int64_t n) noexcept {
  return rb::cpu::unrolled8_f32(x, n) + (n > 0 ? x[n / 2] : 0.0f);
}
double f64_in_float(const float* x, std::int64_t n) noexcept { return rb::cpu::unrolled8_f32(x, n); }
// Returns 0 whatever the data: a float chain of 2^28 has no accuracy bound, so before the exact
// check such a row counted as verified.
float zero(const float*, std::int64_t) noexcept { return 0.0f; }
// Reads one element past the end: a tail loop with <= for <.
float over_read(const float* x, std::int64_t n) noexcept { return rb::cpu::unrolled8_f32(x, n + 1); }
// Reads x[n-2] in place of x[n-1]: an index off by one in a tail.
float neighbour(const float* x, std::int64_t n) noexcept {
  return n < 2 ? rb::cpu::unrolled8_f32(x, n) : rb::cpu::unrolled8_f32(x, n - 1) + x[n - 2];
}
// Drops the 16 elements before the last: a lost tile.
float drop_group(const float* x, std::int64_t n) noexcept {
  return n < 17 ? rb::cpu::unrolled8_f32(x, n) : rb::cpu::unrolled8_f32(x, n - 17) + x[n - 1];
}

// A chunked runtime (parallel.hpp's split into 4) whose loop stops one chunk short.
struct DropLastChunk {
  using element_type = float;
  double operator()(const float* x, std::int64_t n) const {
    const int parts = this->parts(n);
    double sum = 0;
    for (int i = 0; i + 1 < parts; ++i) {
      const auto r = rb::cpu::chunk(n, parts, i);
      sum += rb::cpu::unrolled8_f32(x + r.begin, r.end - r.begin);
    }
    return sum;
  }
  int threads() const { return 1; }
  int parts(std::int64_t n) const { return std::max(2, rb::cpu::parts_for(n, 4, rb::cpu::kMinChunk)); }
};

class Unrolled8 : public CpuBackend {
 public:
  explicit Unrolled8(const CpuProblem& p) : p_(p) {}
  Structure structure() const override { return lanes(Accumulator::f32, 8, 1)(p_.n); }

 protected:
  double sum() const { return rb::cpu::unrolled8_f32(p_.data, p_.n); }
  CpuProblem p_;
};

// Remembers its sum by (pointer, n), as a cache that outlives the backend object would: every
// later call on the same buffer returns it without reading the data.
class Memoizing final : public Unrolled8 {
 public:
  using Unrolled8::Unrolled8;
  double run() override {
    static std::map<std::pair<const float*, std::int64_t>, double> cache;
    const auto [it, fresh] = cache.try_emplace({p_.data, p_.n}, 0.0);
    if (fresh) it->second = sum();
    return it->second;
  }
};

// Wrong on one call in 20, from a random phase: the last element dropped, as a race in a
// completion drops a late partial.
class Intermittent final : public Unrolled8 {
 public:
  explicit Intermittent(const CpuProblem& p) : Unrolled8(p), call_(std::random_device{}() % kPeriod) {}
  double run() override {
    if (++call_ % kPeriod != 0) return sum();
    return rb::cpu::unrolled8_f32(p_.data, p_.n - 1);
  }
  static constexpr unsigned kPeriod = 20;

 private:
  unsigned call_;
};

// Faults that fire on random calls: x[0] dropped on one call in 50 (kDropFirst), or a float chain
// with no accuracy bound at its n wrong by half on one call in 10 (kHalve). `fired` counts those on
// the exact data (the poison past n: the timed calls and the exact check's); on the input, x[0]
// dropped is caught by the bound, and a halved sum without a bound is only reported (rel_err).
enum class Rare { kDropFirst, kHalve };
template <Rare kFault>
class RareFault final : public CpuBackend {
 public:
  explicit RareFault(const CpuProblem& p) : p_(p) {}
  double run() override {
    const bool fire = rng_() % (kFault == Rare::kDropFirst ? 50 : 10) == 0;
    fired += fire && p_.data[p_.n] != 0;
    if (kFault == Rare::kDropFirst) return fire ? rb::cpu::unrolled8_f32(p_.data + 1, p_.n - 1) : sum8();
    const double sum = rb::cpu::accumulate_f32(p_.data, p_.n);
    return fire ? sum / 2 : sum;
  }
  Structure structure() const override {
    return kFault == Rare::kDropFirst ? lanes(Accumulator::f32, 8, 1)(p_.n) : lanes(Accumulator::f32, 1)(p_.n);
  }
  static inline std::int64_t fired = 0;

 private:
  double sum8() const { return rb::cpu::unrolled8_f32(p_.data, p_.n); }
  CpuProblem p_;
  std::mt19937_64 rng_{std::random_device{}()};
};

// A vector loop whose remainder stops one short: x[n-1] is lost wherever 16 does not divide n.
float short_remainder(const float* x, std::int64_t n) noexcept {
  return rb::cpu::unrolled8_f32(x, n % 16 != 0 ? n - 1 : n);
}

TEST(Mutants, CpuBugsAreCaught) {
  auto options = rb::test::small_options({(std::int64_t{1} << 20) + 1, 1'000'003, (std::int64_t{1} << 28) + 3});
  Session session(options);
  const Summation eight32 = lanes(Accumulator::f32, 8, 1), eight64 = lanes(Accumulator::f64, 8, 1);
  const auto entries = bind_backends(session, {
      cpu_function<&rb::cpu::unrolled8_f32>("control/unrolled8_f32", eight32),
      cpu_function<&rb::cpu::unrolled8_f64>("control/unrolled8_f64", eight64),
      cpu_function<&skip_last>("mutant/skip_last", eight32),
      cpu_function<&count_twice>("mutant/count_twice", eight32),
      cpu_runtime<DropLastChunk>("mutant/drop_last_chunk", eight32),
      cpu_function<&f64_in_float>("mutant/f64_in_float", eight64),
      cpu_function<&zero>("mutant/zero", lanes(Accumulator::f32, 1)),
      cpu_function<&over_read>("mutant/over_read", eight32),
      cpu_function<&neighbour>("mutant/neighbour", eight32),
      cpu_function<&drop_group>("mutant/drop_group", eight32),
      cpu_backend<Memoizing>("mutant/memoizing"),
  });
  ASSERT_GT(rb::test::run_in_process(session, entries), 0u);
  rb::test::expect_caught(session,
                          {{"mutant/skip_last", "skips the last element", Catcher::exact},
                           {"mutant/count_twice", "counts x[n/2] twice", Catcher::exact},
                           {"mutant/drop_last_chunk", "chunked runtime drops its last chunk", Catcher::exact},
                           {"mutant/f64_in_float", "states f64, accumulates in float", Catcher::accuracy},
                           {"mutant/zero", "returns 0 (one float chain: no bound at 2^28)", Catcher::exact},
                           {"mutant/over_read", "reads x[n], one past the end", Catcher::exact},
                           {"mutant/neighbour", "reads x[n-2] for x[n-1]", Catcher::exact},
                           {"mutant/drop_group", "drops 16 elements before the last", Catcher::exact},
                           {"mutant/memoizing", "returns a sum cached on (pointer, n)", Catcher::exact}},
                          {"control/unrolled8_f32", "control/unrolled8_f64"}, "hot");
  // Beyond the exact check, a memoized sum is faster than the host can read its input.
  for (const std::int64_t n : {(std::int64_t{1} << 20) + 1, (std::int64_t{1} << 28) + 3})
    rb::test::expect_faster_than_physics(session, "mutant/memoizing/" + std::to_string(n) + "/hot");
}

// Adds bf16 values in a bf16 accumulator, in order, as a library's own 16-bit accumulator does;
// kSkipLast drops x[n-1]; kStatesFloat states a float accumulator for it.
enum class Acc16 { honest, skip_last, states_float };
template <Acc16 kBug>
class Bf16Chain final : public CpuBackend {
 public:
  explicit Bf16Chain(const CpuProblemOf<rb::bf16>& p) : p_(p) {}
  double run() override {
    float acc = 0;
    const std::int64_t n = kBug == Acc16::skip_last && p_.n > 0 ? p_.n - 1 : p_.n;
    for (std::int64_t i = 0; i < n; ++i) acc = rb::to_float(rb::to_bf16(acc + rb::to_float(p_.data[i])));
    return acc;
  }
  Structure structure() const override {
    return {kBug == Acc16::states_float ? Accumulator::f32 : Accumulator::bf16, p_.n, 0, 0, false};
  }

 private:
  CpuProblemOf<rb::bf16> p_;
};

// A 16-bit accumulator's exact check (sparse data, bench/detail/exact_data.hpp) passes an honest bf16
// chain and catches one that drops x[n-1]; the same chain stating a float accumulator gets the
// dense data, which no bf16 accumulator sums exactly, and fails.
TEST(Mutants, SixteenBitAccumulatorsGetExactDataTheyCanSum) {
  Session session(rb::test::small_options({1'000'003, (std::int64_t{1} << 20) + 1}));
  const auto entries = bind_backends<rb::bf16>(session, {
      cpu_backend<Bf16Chain<Acc16::honest>, rb::bf16>("control/bf16_chain"),
      cpu_backend<Bf16Chain<Acc16::skip_last>, rb::bf16>("mutant/bf16_chain_skip_last"),
      cpu_backend<Bf16Chain<Acc16::states_float>, rb::bf16>("mutant/bf16_chain_states_float"),
  });
  ASSERT_EQ(rb::test::run_in_process(session, entries), 6u);
  for (const std::int64_t n : session.options().sizes) {
    const std::string tail = "@bf16/" + std::to_string(n) + "/hot";
    const auto control = rb::test::outcome_of(session, "control/bf16_chain" + tail);
    EXPECT_EQ(control.kind, Outcome::Kind::ok) << control.message;
    EXPECT_EQ(control.exact, Outcome::Check::passed);
    EXPECT_EQ(control.accuracy, Outcome::Check::no_bound);
    for (const char* mutant : {"mutant/bf16_chain_skip_last", "mutant/bf16_chain_states_float"}) {
      const auto o = rb::test::outcome_of(session, mutant + tail);
      EXPECT_EQ(o.exact, Outcome::Check::failed) << mutant << tail << ": " << o.message;
    }
  }
}

// The per-call check under the default stopping rule: a sum wrong on one call in 20 is caught in
// every run wherever a row checks 20 calls or more, which the default min_samples gives unless the
// 0.2 s cap stops it first. Under a sanitizer a call at 2^20 can take over 10 ms, so the cap is
// lifted (the rule is otherwise the default) and the count of checked calls is still asserted.
TEST(Mutants, IntermittentlyWrongIsCaughtInEveryRun) {
  for (const std::int64_t n : {(std::int64_t{1} << 20) + 1, std::int64_t{1'000'003}, (std::int64_t{1} << 24) + 3}) {
    std::uint64_t seed = 1000;
    const bool below_ulp = n > (std::int64_t{1} << 24);  // on the harmonic input, x[n-1] changes no bit
    rb::test::expect_caught_every_run(rb::test::mutant_runs(below_ulp ? 5 : 30), "mutant/intermittent",
                                      "drops x[n-1] on 1 call in 20", n, [&] {
      Options o = rb::test::small_options({n});
      // Enough calls that the wrong one happens (kPeriod), few enough that 60 runs stay short
      // under sanitizers: the stop rule's time caps are lifted, its sample count is not.
      o.rule = StopRule{};
      o.rule.max_seconds = o.rule.timeout_seconds = 10;
      o.rule.max_samples = 3 * static_cast<std::int64_t>(Intermittent::kPeriod);
      o.seed = seed++;
      if (below_ulp) o.dist = Dist::harmonic;
      Session session(o);
      const auto entries = bind_backends(session, {cpu_backend<Intermittent>("mutant/intermittent")});
      EXPECT_EQ(rb::test::run_in_process(session, entries), 1u);
      const auto out = rb::test::outcome_of(session, "mutant/intermittent/" + std::to_string(n) + "/hot");
      EXPECT_GE(out.checked_calls, static_cast<std::int64_t>(Intermittent::kPeriod));
      return out;
    });
  }
}

// Faults on random calls are caught in every run in which they fired, on any call: x[0] dropped
// (1 in 50), and a row with no accuracy bound at its n wrong by half (1 in 10; a float chain of 2^20
// and 2^22: its bound would pass 1% of sum|x|).
template <Rare kFault>
void rare_fault(const char* name, const char* bug, std::initializer_list<std::int64_t> sizes) {
  for (const std::int64_t n : sizes) {
    rb::test::expect_caught_when_fired(rb::test::mutant_runs(10), name, bug, n, [&] {
      Options o = rb::test::small_options({n});
      o.rule = StopRule{};
      o.rule.max_seconds = o.rule.timeout_seconds = 10;
      o.rule.max_samples = 100;
      o.dist = Dist::harmonic;
      Session session(o);
      RareFault<kFault>::fired = 0;
      const auto entries = bind_backends(
          session, {promising(Determinism::not_guaranteed, cpu_backend<RareFault<kFault>>(name))});
      EXPECT_EQ(rb::test::run_in_process(session, entries), 1u);
      return rb::test::FiredRun{rb::test::outcome_of(session, std::string(name) + "/" + std::to_string(n) + "/hot"),
                                RareFault<kFault>::fired};
    });
  }
}

TEST(Mutants, RareFaultsAreCaughtWheneverTheyFire) {
  rare_fault<Rare::kDropFirst>("mutant/rare_drop_first", "drops x[0] on a random 1 call in 50",
                               {(std::int64_t{1} << 20) + 1});
  rare_fault<Rare::kHalve>("mutant/no_bound_halved", "no bound; half the sum on a random 1 call in 10",
                           {std::int64_t{1} << 20, std::int64_t{1} << 22});
  // No bound at these n: only the exact comparison of each timed call can catch it.
  Session session(rb::test::small_options({std::int64_t{1} << 20}));
  const auto entries = bind_backends(session, {cpu_function<&rb::cpu::accumulate_f32>("control/chain",
                                                                                       lanes(Accumulator::f32, 1))});
  ASSERT_EQ(rb::test::run_in_process(session, entries), 1u);
  EXPECT_EQ(rb::test::outcome_of(session, "control/chain/1048576/hot").accuracy, Outcome::Check::no_bound);
}

// The CPU rows' default sizes up to 2^22 (bench/cpu/runner.hpp): a remainder that stops one short
// passes every one that 16 divides and fails the odd one.
TEST(Mutants, ShortRemainderFailsTheDefaultSizes) {
  Options o = rb::test::small_options({});
  for (const std::int64_t n : rb::default_sizes()) {
    if (n <= kCpuDenseMaxN) o.sizes.push_back(n);
  }
  Session session(o);
  const auto entries =
      bind_backends(session, {cpu_function<&short_remainder>("mutant/short_remainder", lanes(Accumulator::f32, 8, 1))});
  ASSERT_EQ(rb::test::run_in_process(session, entries), o.sizes.size());
  int failed = 0;
  for (const std::int64_t n : o.sizes) {
    const auto out = rb::test::outcome_of(session, "mutant/short_remainder/" + std::to_string(n) + "/hot");
    EXPECT_EQ(out.kind == Outcome::Kind::verification_failed, n % 16 != 0) << n << ": " << out.message;
    failed += out.kind == Outcome::Kind::verification_failed;
  }
  EXPECT_EQ(failed, 1);  // 1000003
}

TEST(Mutants, BrokenDeterminismPromiseIsCaught) {
  const std::int64_t n = 100'003;  // one float chain: a bound of 0.6% sum|x|, below kMaxRelativeBound
  Session session(rb::test::small_options({n}));
  const auto entries = bind_backends(session, {
      cpu_backend<rb::test::ChangesOrder>("mutant/changes_order"),
      promising(Determinism::not_guaranteed, cpu_backend<rb::test::ChangesOrder>("control/changes_order_no_promise")),
  });
  ASSERT_EQ(rb::test::run_in_process(session, entries), 2u);
  const std::string tail = "/" + std::to_string(n) + "/hot";
  const auto mutant = rb::test::outcome_of(session, "mutant/changes_order" + tail);
  rb::test::print_row("mutant/changes_order", "promises run_to_run, changes its order", n, mutant);
  EXPECT_EQ(mutant.kind, Outcome::Kind::verification_failed) << mutant.message;
  EXPECT_EQ(mutant.repeat, Outcome::Check::failed);
  EXPECT_EQ(mutant.calls, Outcome::Check::failed);
  EXPECT_EQ(mutant.exact, Outcome::Check::passed);
  EXPECT_EQ(mutant.accuracy, Outcome::Check::passed);
  EXPECT_NE(mutant.message.find("promises run_to_run"), std::string::npos) << mutant.message;
  const auto control = rb::test::outcome_of(session, "control/changes_order_no_promise" + tail);
  EXPECT_EQ(control.kind, Outcome::Kind::ok) << control.message;
  EXPECT_EQ(control.repeat, Outcome::Check::skipped);
}

}  // namespace
