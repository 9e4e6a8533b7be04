// Planted bugs in cuda/onepass, caught by the harness on signed uniform input, cold, at
// n = 2^20 + 1, 1000003 and 2^31 + 7: the last element skipped, one element counted twice, a read
// of x[n] (the poison past n), x[n-2] read for x[n-1], a dropped group of 16 (the exact check);
// cuda/onepass_accf64 accumulating in float (the accuracy bound); a sum copied from a cache after
// the first call (the exact check in place; the DRAM ceiling where the copy is faster than the
// read). On the default harmonic input, where x[n-1] lies below half an ulp of the sum from about
// 2^24 on: the last element dropped on one call in 20, x[0] dropped on a random call in 50 (the
// per-call check: every timed call sums exact data). Work launched on the legacy stream or on a
// stream of the backend's own (the stream rule, hot and cold); a remainder that stops one short
// (the odd default sizes).
#include <gtest/gtest.h>

#include <random>

#include "bench/backends/cuda_kernel.hpp"
#include "bench/api/gpu_backend.hpp"
#include "bench/gpu/context.hpp"
#include "bench/detail/registry.hpp"
#include "tests/mutants/mutation.hpp"
#include "common/sizes.hpp"
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
      return kernel_structure(rb::cuda::onepass_accf64.geometry(p_.n), p_.n, Accumulator::f64, false);
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

// Drops x[0], the harmonic input's largest element, on a random call in kOneIn: a rare fault.
// `fired` counts every firing: on the input too the bound catches a lost 1.0.
class RareDropFirst final : public GpuBackend {
 public:
  explicit RareDropFirst(const GpuProblem& p)
      : out_(p.out),
        whole_(cuda_kernel("cuda/onepass", rb::cuda::onepass).make(p)),
        short_(cuda_kernel("cuda/onepass", rb::cuda::onepass)
                   .make({p.input + 1, p.n - 1, p.stream, p.scratch, p.out, p.sm_count})) {}
  void enqueue(cudaStream_t s) override {
    const bool fire = rng_() % kOneIn == 0;
    fired += fire;
    (fire ? short_ : whole_)->enqueue(s);
  }
  double result() override { return out_.read_f32(); }
  ResultIn result_in() const override { return ResultIn::slot_f32; }
  Structure structure() const override { return whole_->structure(); }
  static constexpr unsigned kOneIn = 50;
  static inline std::int64_t fired = 0;  // over every object since the test reset it

 private:
  ResultSlot out_;
  std::unique_ptr<GpuBackend> whole_, short_;
  std::mt19937_64 rng_{std::random_device{}()};
};

// The stream rule broken (bench/gpu/stream_check.hpp): onepass launched on the legacy default
// stream, or on a stream of its own that the harness's never waits for.
enum class Elsewhere { legacy, own_stream };
template <Elsewhere kWhere>
class OffStream final : public GpuBackend {
 public:
  explicit OffStream(const GpuProblem& p)
      : out_(p.out), inner_(cuda_kernel("cuda/onepass", rb::cuda::onepass).make(p)) {
    if (kWhere == Elsewhere::own_stream) RB_CUDA_CHECK(cudaStreamCreateWithFlags(&own_, cudaStreamNonBlocking));
  }
  ~OffStream() override {
    if (own_) (void)cudaStreamDestroy(own_);
  }
  void enqueue(cudaStream_t) override { inner_->enqueue(kWhere == Elsewhere::legacy ? cudaStreamLegacy : own_); }
  double result() override {
    RB_CUDA_CHECK(cudaDeviceSynchronize());
    return out_.read_f32();
  }
  ResultIn result_in() const override { return ResultIn::slot_f32; }
  Structure structure() const override { return inner_->structure(); }

 private:
  ResultSlot out_;
  std::unique_ptr<GpuBackend> inner_;
  cudaStream_t own_ = nullptr;
};

// A remainder loop that stops one short: the last element is lost wherever n is not a multiple of
// the 16-element tile.
class ShortRemainder final : public GpuBackend {
 public:
  explicit ShortRemainder(const GpuProblem& p)
      : inner_(cuda_kernel("cuda/onepass", rb::cuda::onepass).make(with_n(p, p.n % 16 ? p.n - 1 : p.n))) {}
  void enqueue(cudaStream_t s) override { inner_->enqueue(s); }
  double result() override { return inner_->result(); }
  ResultIn result_in() const override { return inner_->result_in(); }
  Structure structure() const override { return inner_->structure(); }

 private:
  std::unique_ptr<GpuBackend> inner_;
};

TEST(Mutants, GpuBugsAreCaught) {
  RB_REQUIRE_GPU();
  Session session(rb::test::small_options({(std::int64_t{1} << 20) + 1, 1'000'003, (std::int64_t{1} << 31) + 7}));
  std::string why_not;
  const auto entries = bind_backends(session, {
      cuda_kernel("control/onepass", rb::cuda::onepass),
      cuda_kernel("control/onepass_f64", rb::cuda::onepass_accf64),
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
  rb::test::expect_faster_than_physics(
      session, "mutant/onepass_memoizing/" + std::to_string((std::int64_t{1} << 31) + 7) + "/cold");
  release_gpu();
}

// Under the default stopping rule every row checks 20 calls or more: a fault on one call in 20 is
// caught in every run, on the default harmonic input too (the timed calls sum exact data, where
// every element changes the sum). RB_MUTANT_RUNS sets the runs at each n.
TEST(Mutants, GpuIntermittentlyWrongIsCaughtInEveryRun) {
  RB_REQUIRE_GPU();
  for (const std::int64_t n : {(std::int64_t{1} << 20) + 1, (std::int64_t{1} << 24) + 3, std::int64_t{1} << 28}) {
    const int runs = rb::test::mutant_runs(n > (std::int64_t{1} << 25) ? 3 : 30);
    rb::test::expect_caught_every_run(runs, "mutant/onepass_intermittent", "drops x[n-1] on 1 call in 20", n, [&] {
      Options o = rb::test::small_options({n});
      o.rule = StopRule{};
      o.dist = Dist::harmonic;
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

// x[0] dropped on a random call in 50: caught in every run in which it fired, whichever call it hit.
TEST(Mutants, GpuRareFaultIsCaughtWheneverItFires) {
  RB_REQUIRE_GPU();
  for (const std::int64_t n : {(std::int64_t{1} << 20) + 1, std::int64_t{1} << 24}) {
    rb::test::expect_caught_when_fired(rb::test::mutant_runs(12), "mutant/onepass_rare_drop_first",
                                       "drops x[0] on a random 1 call in 50", n, [&] {
      Options o = rb::test::small_options({n});
      o.rule = StopRule{};
      o.dist = Dist::harmonic;
      Session session(o);
      std::string why_not;
      RareDropFirst::fired = 0;
      const auto entries =
          bind_backends(session, {gpu_backend<RareDropFirst>("mutant/onepass_rare_drop_first")}, why_not);
      EXPECT_TRUE(why_not.empty()) << why_not;
      EXPECT_EQ(rb::test::run_in_process(session, entries, "/cold"), 1u);
      return rb::test::FiredRun{
          rb::test::outcome_of(session, "mutant/onepass_rare_drop_first/" + std::to_string(n) + "/cold"),
          RareDropFirst::fired};
    });
  }
  release_gpu();
}

// Work off the harness's stream fails hot and cold, even where a hot row's sum lands in time (4 MiB
// sits in L2), with a message that names the rule; onepass itself passes it.
TEST(Mutants, WorkOffTheHarnessStreamIsCaught) {
  RB_REQUIRE_GPU();
  const std::int64_t n = (std::int64_t{1} << 20) + 1;
  Session session(rb::test::small_options({n}));
  std::string why_not;
  const auto entries = bind_backends(session, {
      cuda_kernel("control/onepass", rb::cuda::onepass),
      gpu_backend<OffStream<Elsewhere::legacy>>("mutant/onepass_legacy_stream"),
      gpu_backend<OffStream<Elsewhere::own_stream>>("mutant/onepass_own_stream"),
  }, why_not);
  ASSERT_TRUE(why_not.empty()) << why_not;
  ASSERT_EQ(rb::test::run_in_process(session, entries), 6u);
  for (const char* mode : {"/cold", "/hot"}) {
    const std::string tail = "/" + std::to_string(n) + mode;
    for (const char* mutant : {"mutant/onepass_legacy_stream", "mutant/onepass_own_stream"}) {
      const auto o = rb::test::outcome_of(session, mutant + tail);
      rb::test::print_row(mutant, "launches off the harness's stream", n, o);
      EXPECT_EQ(o.kind, Outcome::Kind::verification_failed) << mutant << tail << ": " << o.message;
      EXPECT_EQ(o.exact, Outcome::Check::failed) << o.message;
      EXPECT_NE(o.message.find("stream check failed"), std::string::npos) << o.message;
      EXPECT_NE(o.message.find("puts all its work on the stream it is given"), std::string::npos) << o.message;
    }
    const auto control = rb::test::outcome_of(session, "control/onepass" + tail);
    EXPECT_EQ(control.kind, Outcome::Kind::ok) << control.message;
  }
  release_gpu();
}

// A remainder that stops one short passes every size that is a multiple of 16 and fails the odd
// sizes the default sweep now holds (common/sizes.hpp: kTailSizes).
TEST(Mutants, ShortRemainderFailsTheDefaultSizes) {
  RB_REQUIRE_GPU();
  Options o = rb::test::small_options({});
  for (const std::int64_t n : rb::default_sizes()) {
    if (n <= (std::int64_t{1} << 25)) o.sizes.push_back(n);
  }
  Session session(o);
  std::string why_not;
  const auto entries = bind_backends(session, {gpu_backend<ShortRemainder>("mutant/onepass_short_remainder")}, why_not);
  ASSERT_TRUE(why_not.empty()) << why_not;
  ASSERT_EQ(rb::test::run_in_process(session, entries, "/cold"), o.sizes.size());
  int failed = 0;
  for (const std::int64_t n : o.sizes) {
    const auto out = rb::test::outcome_of(session, "mutant/onepass_short_remainder/" + std::to_string(n) + "/cold");
    EXPECT_EQ(out.kind == Outcome::Kind::verification_failed, n % 16 != 0) << n << ": " << out.message;
    failed += out.kind == Outcome::Kind::verification_failed;
  }
  EXPECT_EQ(failed, 2);  // 1000003 and 2^24 + 3
  release_gpu();
}

}  // namespace
