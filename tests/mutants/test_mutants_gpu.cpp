// Planted bugs in cuda/onepass, caught by the harness on signed uniform input, cold, at
// n = 2^20 + 1, 1000003 and 2^31 + 7: the last element skipped, one element counted twice, a read
// of x[n] (the poison past n), x[n-2] read for x[n-1], a dropped group of 16 (the exact check);
// cuda/onepass_f64 accumulating in float (the accuracy bound); a sum copied from a cache after
// the first call (the exact check in place; the DRAM ceiling where the copy is faster than the
// read); the last element dropped on one call in 20 (the per-call check, 30 runs of 30).
#include <gtest/gtest.h>

#include <random>

#include "bench/backends/cuda_kernel.hpp"
#include "bench/gpu/backend.hpp"
#include "bench/gpu/context.hpp"
#include "bench/registry.hpp"
#include "tests/mutants/mutation.hpp"
#include "tests/support/gpu.hpp"

namespace {

using namespace rb::bench;
using namespace rb::bench::gpu;
using rb::test::Catcher;

enum class Bug { skip_last, count_twice, f64_in_float, over_read, neighbour, drop_group };

GpuProblem with_n(const GpuProblem& p, std::int64_t n) { return {p.input, n, p.stream, p.scratch, p.out, p.sm_count}; }

float read_element(const float* x) {
  float v = 0;
  RB_CUDA_CHECK(cudaMemcpy(&v, x, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

// The kernel over the n it reads, and what result() adds to its sum on the host (an element read
// from the device, in float, as a kernel's tail would).
std::int64_t kernel_n(Bug bug, std::int64_t n) {
  switch (bug) {
    case Bug::skip_last: return n - 1;
    case Bug::over_read: return n + 1;
    case Bug::neighbour: return n - 1;
    case Bug::drop_group: return n - 17;
    default: return n;
  }
}

template <Bug kBug>
class OnepassMutant final : public GpuBackend {
 public:
  explicit OnepassMutant(const GpuProblem& p)
      : p_(p), inner_(cuda_kernel("cuda/onepass", rb::cuda::onepass).make(with_n(p, kernel_n(kBug, p.n)))) {}
  void enqueue(cudaStream_t s) override { inner_->enqueue(s); }
  double result() override {
    const auto sum = static_cast<float>(inner_->result());
    switch (kBug) {
      case Bug::count_twice: return sum + read_element(p_.input + p_.n / 2);
      case Bug::neighbour: return sum + read_element(p_.input + p_.n - 2);
      case Bug::drop_group: return sum + read_element(p_.input + p_.n - 1);
      default: return sum;
    }
  }
  Structure structure() const override {
    if (kBug == Bug::f64_in_float)
      return kernel_structure(rb::cuda::onepass_f64.geometry(p_.n), p_.n, Accumulator::f64, false);
    return inner_->structure();
  }

 private:
  GpuProblem p_;
  std::unique_ptr<GpuBackend> inner_;
};

// Sums once, then copies that sum into the result slot on every later call: no read of the input.
class Memoizing final : public GpuBackend {
 public:
  explicit Memoizing(const GpuProblem& p)
      : out_(p.out), cache_(sizeof(float)), inner_(cuda_kernel("cuda/onepass", rb::cuda::onepass).make(p)) {}
  void enqueue(cudaStream_t s) override {
    if (calls_++ == 0) {
      inner_->enqueue(s);
      RB_CUDA_CHECK(cudaMemcpyAsync(cache_.get(), out_.f32(), sizeof(float), cudaMemcpyDeviceToDevice, s));
    } else {
      RB_CUDA_CHECK(cudaMemcpyAsync(out_.f32(), cache_.get(), sizeof(float), cudaMemcpyDeviceToDevice, s));
    }
  }
  double result() override { return out_.read_f32(); }
  ResultIn result_in() const override { return ResultIn::slot_f32; }
  Structure structure() const override { return inner_->structure(); }

 private:
  ResultSlot out_;
  DeviceBuffer cache_;
  std::unique_ptr<GpuBackend> inner_;
  std::int64_t calls_ = 0;
};

// Drops the last element on one call in 20, from a random phase: a completion race that loses a
// late partial.
class Intermittent final : public GpuBackend {
 public:
  explicit Intermittent(const GpuProblem& p)
      : out_(p.out),
        whole_(cuda_kernel("cuda/onepass", rb::cuda::onepass).make(p)),
        short_(cuda_kernel("cuda/onepass", rb::cuda::onepass).make(with_n(p, p.n - 1))),
        call_(std::random_device{}() % kPeriod) {}
  void enqueue(cudaStream_t s) override { (++call_ % kPeriod == 0 ? short_ : whole_)->enqueue(s); }
  double result() override { return out_.read_f32(); }
  ResultIn result_in() const override { return ResultIn::slot_f32; }
  Structure structure() const override { return whole_->structure(); }
  static constexpr unsigned kPeriod = 20;

 private:
  ResultSlot out_;
  std::unique_ptr<GpuBackend> whole_, short_;
  unsigned call_;
};

TEST(Mutants, GpuBugsAreCaught) {
  RB_REQUIRE_GPU();
  Session session(rb::test::small_options({(std::int64_t{1} << 20) + 1, 1'000'003, (std::int64_t{1} << 31) + 7}));
  std::string why_not;
  const auto entries = bind_backends(session, {
      cuda_kernel("control/onepass", rb::cuda::onepass),
      cuda_kernel("control/onepass_f64", rb::cuda::onepass_f64),
      gpu_backend<OnepassMutant<Bug::skip_last>>("mutant/onepass_skip_last"),
      gpu_backend<OnepassMutant<Bug::count_twice>>("mutant/onepass_count_twice"),
      gpu_backend<OnepassMutant<Bug::f64_in_float>>("mutant/onepass_f64_in_float"),
      gpu_backend<OnepassMutant<Bug::over_read>>("mutant/onepass_over_read"),
      gpu_backend<OnepassMutant<Bug::neighbour>>("mutant/onepass_neighbour"),
      gpu_backend<OnepassMutant<Bug::drop_group>>("mutant/onepass_drop_group"),
      gpu_backend<Memoizing>("mutant/onepass_memoizing"),
  }, why_not);
  ASSERT_TRUE(why_not.empty()) << why_not;
  ASSERT_GT(rb::test::run_in_process(session, entries, "/cold"), 0u);
  rb::test::expect_caught(session,
                          {{"mutant/onepass_skip_last", "skips the last element", Catcher::exact},
                           {"mutant/onepass_count_twice", "counts x[n/2] twice", Catcher::exact},
                           {"mutant/onepass_f64_in_float", "onepass_f64 accumulating in float", Catcher::accuracy},
                           {"mutant/onepass_over_read", "reads x[n], one past the end", Catcher::exact},
                           {"mutant/onepass_neighbour", "reads x[n-2] for x[n-1]", Catcher::exact},
                           {"mutant/onepass_drop_group", "drops 16 elements before the last", Catcher::exact},
                           {"mutant/onepass_memoizing", "copies a cached sum after its first call", Catcher::exact}},
                          {"control/onepass", "control/onepass_f64"}, "cold");
  // 8.6 GB in the time of a 4-byte copy: far above the DRAM peak.
  const auto o = rb::test::outcome_of(
      session, "mutant/onepass_memoizing/" + std::to_string((std::int64_t{1} << 31) + 7) + "/cold");
  EXPECT_EQ(o.ceiling, Outcome::Check::failed) << o.message;
  EXPECT_NE(o.message.find("faster than physics"), std::string::npos) << o.message;
  release_gpu();
}

// Under the default stopping rule every row checks 20 calls or more at these sizes: a fault on one
// call in 20 is caught in every run.
TEST(Mutants, GpuIntermittentlyWrongIsCaughtInEveryRun) {
  RB_REQUIRE_GPU();
  for (const std::int64_t n : {(std::int64_t{1} << 20) + 1, std::int64_t{1'000'003}, (std::int64_t{1} << 31) + 7}) {
    const int runs = n > (std::int64_t{1} << 30) ? 3 : 30;
    rb::test::expect_caught_every_run(runs, "mutant/onepass_intermittent", "drops x[n-1] on 1 call in 20", n, [&] {
      Options o = rb::test::small_options({n});
      o.rule = StopRule{};
      Session session(o);
      std::string why_not;
      const auto entries = bind_backends(session, {gpu_backend<Intermittent>("mutant/onepass_intermittent")}, why_not);
      EXPECT_TRUE(why_not.empty()) << why_not;
      EXPECT_EQ(rb::test::run_in_process(session, entries, "/cold"), 1u);
      return rb::test::outcome_of(session, "mutant/onepass_intermittent/" + std::to_string(n) + "/cold");
    });
  }
  release_gpu();
}

}  // namespace
