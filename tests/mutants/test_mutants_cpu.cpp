// Planted bugs in CPU backends, caught by the harness at n = 2^20 + 1 and 2^28 + 3 on signed
// uniform input: an element skipped, one counted twice, a chunked runtime that drops its last
// chunk, a row that returns 0 (the exact check), and a row that states double accumulation but adds in float (the
// accuracy bound: the integers of the exact check add exactly in float too), and a row promising
// run_to_run whose order of additions changes from call to call (the determinism check).
#include <gtest/gtest.h>

#include "bench/backends/cpu_runtime.hpp"
#include "bench/cpu/runner.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/unrolled.hpp"
#include "tests/mutants/mutation.hpp"
#include "tests/support/changes_order.hpp"

namespace {

using namespace rb::bench;

float skip_last(const float* x, std::int64_t n) noexcept { return rb::cpu::unrolled8_f32(x, n > 0 ? n - 1 : 0); }
float count_twice(const float* x, std::int64_t n) noexcept {
  return rb::cpu::unrolled8_f32(x, n) + (n > 0 ? x[n / 2] : 0.0f);
}
double f64_in_float(const float* x, std::int64_t n) noexcept { return rb::cpu::unrolled8_f32(x, n); }
// Returns 0 whatever the data: a float chain of 2^28 has no accuracy bound, so before the exact
// check such a row counted as verified.
float zero(const float*, std::int64_t) noexcept { return 0.0f; }

// A chunked runtime (parallel.hpp's split into 4) whose loop stops one chunk short.
struct DropLastChunk {
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

TEST(Mutants, CpuBugsAreCaught) {
  auto options = rb::test::small_options({(std::int64_t{1} << 20) + 1, (std::int64_t{1} << 28) + 3});
  Session session(options);
  const Summation eight32 = lanes(Accumulator::f32, 8, 1), eight64 = lanes(Accumulator::f64, 8, 1);
  const auto entries = bind_cpu_backends(session, {
      cpu_function<&rb::cpu::unrolled8_f32>("control/unrolled8_f32", eight32),
      cpu_function<&rb::cpu::unrolled8_f64>("control/unrolled8_f64", eight64),
      cpu_function<&skip_last>("mutant/skip_last", eight32),
      cpu_function<&count_twice>("mutant/count_twice", eight32),
      cpu_runtime<DropLastChunk>("mutant/drop_last_chunk", eight32),
      cpu_function<&f64_in_float>("mutant/f64_in_float", eight64),
      cpu_function<&zero>("mutant/zero", lanes(Accumulator::f32, 1)),
  });
  ASSERT_GT(rb::test::run_in_process(session, entries), 0u);
  rb::test::expect_caught(session,
                          {{"mutant/skip_last", "skips the last element", true},
                           {"mutant/count_twice", "counts x[n/2] twice", true},
                           {"mutant/drop_last_chunk", "chunked runtime drops its last chunk", true},
                           {"mutant/f64_in_float", "states f64, accumulates in float", false},
                           {"mutant/zero", "returns 0 (one float chain: no bound at 2^28)", true}},
                          {"control/unrolled8_f32", "control/unrolled8_f64"}, "hot");
}

TEST(Mutants, BrokenDeterminismPromiseIsCaught) {
  const std::int64_t n = (std::int64_t{1} << 20) + 1;
  Session session(rb::test::small_options({n}));
  const auto entries = bind_cpu_backends(session, {
      cpu_backend<rb::test::ChangesOrder>("mutant/changes_order"),
      promising(Determinism::not_guaranteed, cpu_backend<rb::test::ChangesOrder>("control/changes_order_no_promise")),
  });
  ASSERT_EQ(rb::test::run_in_process(session, entries), 2u);
  const std::string tail = "/" + std::to_string(n) + "/hot";
  const auto mutant = rb::test::outcome_of(session, "mutant/changes_order" + tail);
  std::printf("| mutant/changes_order | promises run_to_run, changes its order | %lld | determinism: %s |\n",
              static_cast<long long>(n), rb::test::check_name(mutant.repeat));
  EXPECT_EQ(mutant.kind, Outcome::Kind::verification_failed) << mutant.message;
  EXPECT_EQ(mutant.repeat, Outcome::Check::failed);
  EXPECT_EQ(mutant.exact, Outcome::Check::passed);
  EXPECT_EQ(mutant.accuracy, Outcome::Check::passed);
  EXPECT_NE(mutant.message.find("promises run_to_run"), std::string::npos) << mutant.message;
  const auto control = rb::test::outcome_of(session, "control/changes_order_no_promise" + tail);
  EXPECT_EQ(control.kind, Outcome::Kind::ok) << control.message;
  EXPECT_EQ(control.repeat, Outcome::Check::skipped);
}

}  // namespace
