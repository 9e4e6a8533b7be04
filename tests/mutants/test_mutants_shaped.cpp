// Planted bugs in sums along a dimension (--shapes), run through the real harness on the CPU: a
// row's last element dropped on one call in 20 (the per-call check of every output), the last
// output never written, a write one past the last output (the guard after the outputs), a column
// sum that skips the last row, an output taken from its neighbour (the exact check); their correct
// twin and cpu/avx2/segmented pass. Shapes with odd B and N, rows and columns.
#include <gtest/gtest.h>

#include <random>

#include "bench/api/cpu_backend.hpp"
#include "bench/detail/registry.hpp"
#include "tests/mutants/mutation.hpp"
#include "tests/support/run_cases.hpp"

namespace {

using namespace rb::bench;
using rb::Axis;
using rb::Shape2D;

enum class Bug { none, drop_row_tail_1_in_20, skip_last_output, write_past, skip_last_row, neighbour_output };

// out[k] = the plain float sum of output k's elements, in order; then the planted bug.
template <Bug kBug>
class ShapedMutant final : public CpuBackend {
 public:
  explicit ShapedMutant(const CpuProblem& p) : p_(p), call_(std::random_device{}() % kPeriod) {}
  double run() override {
    const Shape2D s = p_.shape;
    const bool fire = kBug == Bug::drop_row_tail_1_in_20 && ++call_ % kPeriod == 0;
    for (std::int64_t k = 0; k < s.outputs(); ++k) {
      if (kBug == Bug::skip_last_output && k == s.outputs() - 1) break;
      float acc = 0;
      if (s.axis == Axis::rows) {
        const std::int64_t len = fire && k == s.rows / 2 ? s.cols - 1 : s.cols;
        for (std::int64_t j = 0; j < len; ++j) acc += p_.data[k * s.cols + j];
      } else {
        const std::int64_t rows = kBug == Bug::skip_last_row ? s.rows - 1 : s.rows;
        for (std::int64_t r = 0; r < rows; ++r) acc += p_.data[r * s.cols + k];
      }
      p_.outputs[k] = acc;
    }
    if (kBug == Bug::neighbour_output && s.outputs() > 1) p_.outputs[s.outputs() - 1] = p_.outputs[s.outputs() - 2];
    if (kBug == Bug::write_past) p_.outputs[s.outputs()] = 0;
    return 0;
  }
  Structure structure() const override { return {Accumulator::f32, p_.shape.summed(), 0}; }
  static constexpr unsigned kPeriod = 20;

 private:
  CpuProblem p_;
  unsigned call_;
};

template <Bug kBug>
BackendDef<float> shaped(const char* name) {
  auto def = cpu_backend<ShapedMutant<kBug>>(name);
  def.shaped = true;
  return def;
}

TEST(ShapedMutants, EveryBugIsCaughtAndTheControlsPass) {
  const std::vector<Shape2D> shapes = {{257, 1001, Axis::rows}, {1001, 257, Axis::cols}, {3, 7, Axis::rows},
                                       {7, 3, Axis::cols}};
  Session session(rb::test::shape_options(shapes));
  std::vector<BackendDef<float>> defs = {
      shaped<Bug::none>("mutant/shaped_control"),
      shaped<Bug::skip_last_output>("mutant/skip_last_output"),
      shaped<Bug::write_past>("mutant/write_past"),
      shaped<Bug::skip_last_row>("mutant/skip_last_row"),
      shaped<Bug::neighbour_output>("mutant/neighbour_output"),
      rb::test::by_name(rb::test::registered_cpu_defs(), "cpu/avx2/segmented")};
  auto entries = bind_backends(session, defs);
  const std::string unavailable = rb::test::drop_unavailable(entries);
  EXPECT_EQ(rb::test::run_in_process(session, entries), entries.size() * shapes.size());
  std::printf("| backend | shape | exact | per call | accuracy | checked calls |\n|---|---|---|---|---|---|\n");
  for (const Shape2D& s : shapes) {
    const std::string tail = "/" + rb::shape_name(s) + "/hot";
    for (const auto& e : entries) {
      const Outcome o = rb::test::outcome_of(session, e.name + tail);
      std::printf("| %s | %s | %s | %s | %s | %lld |\n", e.name.c_str(), rb::shape_name(s).c_str(),
                  rb::test::check_name(o.exact), rb::test::check_name(o.calls), rb::test::check_name(o.accuracy),
                  static_cast<long long>(o.checked_calls));
      const bool control = e.name == "mutant/shaped_control" || e.name == "cpu/avx2/segmented";
      const bool applies = e.name != "mutant/skip_last_row" || s.axis == Axis::cols;
      if (control || !applies) {
        EXPECT_EQ(o.kind, Outcome::Kind::ok) << e.name << tail << ": " << o.message;
        EXPECT_EQ(o.exact, Outcome::Check::passed) << e.name << tail;
        EXPECT_EQ(o.calls, Outcome::Check::passed) << e.name << tail;
        EXPECT_GE(o.checked_calls, 1 + 2 + 3) << e.name << tail;  // on the input, exact, min_samples timed
        continue;
      }
      EXPECT_EQ(o.kind, Outcome::Kind::verification_failed) << e.name << tail << ": " << o.message;
      const auto catcher = e.name == "mutant/write_past" ? o.calls : o.exact;
      EXPECT_EQ(catcher, Outcome::Check::failed) << e.name << tail << ": " << o.message;
    }
  }
}

// The acceptance mutant of the shape axis: one row's last element dropped on one call in 20, caught
// by the per-call check of every output in every run.
TEST(ShapedMutants, RowTailDroppedOnOneCallInTwentyIsCaughtInEveryRun) {
  for (const Shape2D s : {Shape2D{257, 1001, Axis::rows}, Shape2D{4096, 3, Axis::rows}}) {
    std::uint64_t seed = 500;
    rb::test::expect_caught_every_run(rb::test::mutant_runs(30), "mutant/drop_row_tail",
                                      "drops row B/2's last element on 1 call in 20", s.elements(), [&] {
      Options o = rb::test::shape_options({s});
      o.rule = StopRule{};
      o.rule.max_seconds = o.rule.timeout_seconds = 10;
      o.rule.max_samples = 3 * static_cast<std::int64_t>(ShapedMutant<Bug::none>::kPeriod);
      o.seed = seed++;
      Session session(o);
      const auto entries = bind_backends(session, {shaped<Bug::drop_row_tail_1_in_20>("mutant/drop_row_tail")});
      EXPECT_EQ(rb::test::run_in_process(session, entries), 1u);
      const auto out = rb::test::outcome_of(session, "mutant/drop_row_tail/" + rb::shape_name(s) + "/hot");
      EXPECT_GE(out.checked_calls, static_cast<std::int64_t>(ShapedMutant<Bug::none>::kPeriod));
      return out;
    });
  }
}

}  // namespace
