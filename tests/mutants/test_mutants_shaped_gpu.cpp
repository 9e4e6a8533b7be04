// Sums along a dimension on the GPU, through the real harness: every shaped GPU row passes its
// checks on shapes reaching every plan of cuda/segmented, rows and columns (CUB's rows only: it
// has no column sum, and skips those with the reason); cuda/segmented with one row's last element
// dropped on one call in 20 is caught in every run (the per-call check of every output on the
// device), and launched on the legacy stream it fails the stream rule.
#include <gtest/gtest.h>

#include <random>

#include "bench/api/gpu_backend.hpp"
#include "bench/detail/registry.hpp"
#include "bench/gpu/context.hpp"
#include "kernels/cuda/segmented.hpp"
#include "tests/mutants/mutation.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/run_cases.hpp"

namespace {

using namespace rb::bench;
using namespace rb::bench::gpu;
using rb::Axis;
using rb::Shape2D;

enum class Fault { drop_row_tail_1_in_20, legacy_stream };

// cuda/segmented, and the fault: row B/2 summed again without its last element over its output
// (one call in 20), or every launch on the legacy default stream.
template <Fault kFault>
class SegmentedMutant final : public GpuBackend {
 public:
  explicit SegmentedMutant(const GpuProblem& p)
      : p_(p), call_(std::random_device{}() % kPeriod) {
    bytes_ = rb::cuda::segmented_f32.scratch_bytes(p.shape);
    scratch_ = p.scratch.get(std::max<std::size_t>(bytes_, 1));
    rb::cuda::segmented_f32.prepare(scratch_, bytes_, p.stream);
  }
  void enqueue(cudaStream_t s) override {
    const cudaStream_t on = kFault == Fault::legacy_stream ? cudaStreamLegacy : s;
    rb::cuda::segmented_f32.sum(p_.input, p_.shape, scratch_, p_.outputs, on);
    if (kFault != Fault::drop_row_tail_1_in_20 || ++call_ % kPeriod != 0) return;
    const std::int64_t r = p_.shape.rows / 2;
    rb::cuda::segmented_f32.sum(p_.input + r * p_.shape.cols, Shape2D{1, p_.shape.cols - 1, Axis::rows}, scratch_,
                                p_.outputs + r, s);
  }
  double result() override { return 0; }
  Structure structure() const override { return {Accumulator::f32, p_.shape.summed(), 0}; }
  static constexpr unsigned kPeriod = 20;

 private:
  GpuProblem p_;
  unsigned call_;
  std::size_t bytes_ = 0;
  void* scratch_ = nullptr;
};

template <Fault kFault>
BackendDef<float> mutant(const char* name) {
  return gpu_shaped_backend<SegmentedMutant<kFault>>(name);
}

TEST(ShapedGpu, EveryShapedRowPassesAndTheLegacyStreamIsCaught) {
  RB_REQUIRE_GPU();
  const std::vector<Shape2D> shapes = {{100003, 3, Axis::rows},   {4099, 1001, Axis::rows}, {3, 1 << 20, Axis::rows},
                                       {1001, 4099, Axis::cols},  {100003, 3, Axis::cols},  {5, 300007, Axis::cols}};
  Session session(rb::test::shape_options(shapes));
  std::vector<BackendDef<float>> defs;
  for (const auto& def : rb::test::registered_gpu_defs()) {
    if (def.shaped) defs.push_back(def);
  }
  defs.push_back(mutant<Fault::legacy_stream>("mutant/segmented_legacy_stream"));
  std::string why_not;
  auto entries = bind_backends(session, defs, why_not);
  ASSERT_TRUE(why_not.empty()) << why_not;
  std::printf("unavailable here:\n%s", rb::test::drop_unavailable(entries).c_str());
  rb::test::run_in_process(session, entries, "/cold");
  for (const Shape2D& s : shapes) {
    for (const auto& e : entries) {
      const std::string name = e.name + "/" + rb::shape_name(s) + "/cold";
      const Outcome o = rb::test::outcome_of(session, name);
      std::printf("| %s | %s | exact %s | per call %s | accuracy %s | %lld calls | %s |\n", name.c_str(),
                  o.kind == Outcome::Kind::ok ? "ok" : "not ok", rb::test::check_name(o.exact),
                  rb::test::check_name(o.calls), rb::test::check_name(o.accuracy),
                  static_cast<long long>(o.checked_calls), o.message.c_str());
      if (e.name == "mutant/segmented_legacy_stream") {
        EXPECT_EQ(o.kind, Outcome::Kind::verification_failed) << name;
        EXPECT_NE(o.message.find("stream check failed"), std::string::npos) << name << ": " << o.message;
      } else if (e.name.starts_with("cub/") && s.axis == Axis::cols) {
        EXPECT_EQ(o.kind, Outcome::Kind::skipped) << name << ": " << o.message;
      } else {
        EXPECT_EQ(o.kind, Outcome::Kind::ok) << name << ": " << o.message;
        if (e.name != "ref/segmented") {
          EXPECT_EQ(o.exact, Outcome::Check::passed) << name;
        }
      }
    }
  }
  release_gpu();
}

TEST(ShapedGpu, RowTailDroppedOnOneCallInTwentyIsCaughtInEveryRun) {
  RB_REQUIRE_GPU();
  for (const Shape2D s :
       {Shape2D{257, 1001, Axis::rows}, Shape2D{65536, 3, Axis::rows}, Shape2D{16, 1 << 20, Axis::rows}}) {
    rb::test::expect_caught_every_run(rb::test::mutant_runs(30), "mutant/segmented_drop_row_tail",
                                      "drops row B/2's last element on 1 call in 20", s.elements(), [&] {
      Options o = rb::test::shape_options({s});
      o.rule = StopRule{};
      Session session(o);
      std::string why_not;
      const auto entries =
          bind_backends(session, {mutant<Fault::drop_row_tail_1_in_20>("mutant/segmented_drop_row_tail")}, why_not);
      EXPECT_TRUE(why_not.empty()) << why_not;
      EXPECT_EQ(rb::test::run_in_process(session, entries, "/cold"), 1u);
      return rb::test::outcome_of(session, "mutant/segmented_drop_row_tail/" + rb::shape_name(s) + "/cold");
    });
  }
  release_gpu();
}

}  // namespace
