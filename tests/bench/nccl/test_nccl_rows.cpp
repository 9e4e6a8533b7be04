// The nccl/* rows through the real harness on every GPU of this machine (skipped without a GPU):
// signed random input at odd sizes, both checks against the whole array's fp64 sum, a misaligned
// start, a local backend that drops one element, which the exact check must catch through the
// combine, and one whose bits change after its first call, which the determinism check must catch.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <map>
#include <string>
#include <vector>

#include "bench/gpu/backend.hpp"
#include "bench/gpu/context.hpp"
#include "bench/nccl/runner.hpp"
#include "bench/registry.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/run_cases.hpp"

namespace {

using namespace rb::bench;
using Kind = Outcome::Kind;

int visible_gpus() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
  return n;
}

const std::vector<std::int64_t> kSizes = {1, 31, 33, 4097, 1'000'003, (1 << 24) + 1};

std::string tail(std::int64_t n, const char* mode) { return "/" + std::to_string(n) + mode; }

void expect_rows_pass(int gpus, int offset) {
  Options o = rb::test::small_options(kSizes);
  o.gpus = gpus;
  o.offset = offset;
  Session session(o);
  std::string why;
  const auto entries = registered_backends(session, why);
  ASSERT_TRUE(why.empty()) << why;
  std::map<std::string, double> throttled;
  EXPECT_EQ(rb::test::run_in_process(session, entries, "^nccl/", throttled, "throttled"), 3 * 2 * kSizes.size());
  for (const char* row : {"nccl/cub", "nccl/onepass", "nccl/onepass/reduce"}) {
    for (const auto n : kSizes) {
      for (const char* mode : {"/cold", "/hot"}) {
        const auto out = rb::test::outcome_of(session, row + tail(n, mode));
        EXPECT_EQ(out.kind, Kind::ok) << row << tail(n, mode) << ": " << out.message;
        EXPECT_EQ(out.exact, Outcome::Check::passed) << row << tail(n, mode);
        EXPECT_EQ(out.accuracy, Outcome::Check::passed) << row << tail(n, mode);
        EXPECT_EQ(out.repeat, Outcome::Check::passed) << row << tail(n, mode);
        EXPECT_EQ(throttled.count(row + tail(n, mode)), 1u) << row << tail(n, mode) << ": no clock watch";
      }
    }
  }
  release_gpu();
}

TEST(NcclRows, OneGpuVerifies) {
  RB_REQUIRE_GPU();
  expect_rows_pass(1, 0);
}

TEST(NcclRows, EveryGpuVerifiesAlsoMisaligned) {
  RB_REQUIRE_GPU();
  if (visible_gpus() < 2) GTEST_SKIP() << "one GPU visible: the split over several is untested here";
  expect_rows_pass(0, 0);
  expect_rows_pass(0, 1);
}

// cuda/onepass over its shard minus the last element: one element of the whole array is lost.
class DropsLast final : public gpu::GpuBackend {
 public:
  explicit DropsLast(const gpu::GpuProblem& p)
      : inner_(rb::test::by_name(rb::test::registered_gpu_defs(), "cuda/onepass")
                   .make(gpu::GpuProblem{p.input, p.n > 0 ? p.n - 1 : 0, p.stream, p.scratch, p.out, p.sm_count})) {}
  void enqueue(cudaStream_t s) override { inner_->enqueue(s); }
  double result() override { return inner_->result(); }
  Structure structure() const override { return inner_->structure(); }

 private:
  std::unique_ptr<gpu::GpuBackend> inner_;
};

// Runs `Local` as the local backend of an nccl row (ncclAllReduce over `gpus` GPUs, 0: all), hot,
// at each of `sizes`; returns each size's outcome in order.
template <class Local>
std::vector<Outcome> run_nccl_row(int gpus, const std::vector<std::int64_t>& sizes) {
  Options o = rb::test::small_options(sizes);
  o.gpus = gpus;
  Session session(o);
  const auto def = gpu::gpu_backend<Local>("t/local");
  BackendEntry e;
  e.name = "t/nccl";
  e.modes = {Mode::hot};
  e.run = [&session, def](benchmark::State& s, const Case& c) {
    nccl::run_case(s, session, def, nccl::Combine::allreduce, c);
  };
  rb::test::run_in_process(session, {e});
  std::vector<Outcome> out;
  for (const auto n : sizes) out.push_back(rb::test::outcome_of(session, "t/nccl" + tail(n, "/hot")));
  nccl::release();
  return out;
}

TEST(NcclRows, ALostElementFailsTheExactCheck) {
  RB_REQUIRE_GPU();
  for (const auto& out : run_nccl_row<DropsLast>(0, {4097, 1'000'003})) {
    EXPECT_EQ(out.kind, Kind::verification_failed) << out.name << ": " << out.message;
    EXPECT_EQ(out.exact, Outcome::Check::failed) << out.name;
  }
}

// Its first call sums the shard with cuda/onepass, every later call with cub: each call right, the
// bits of the warm-up and of the last sample different, against a run_to_run promise.
class ChangesOrderAfterFirst final : public gpu::GpuBackend {
 public:
  explicit ChangesOrderAfterFirst(const gpu::GpuProblem& p)
      : first_(rb::test::by_name(rb::test::registered_gpu_defs(), "cuda/onepass").make(p)),
        later_(rb::test::by_name(rb::test::registered_gpu_defs(), "cub").make(p)) {}
  void enqueue(cudaStream_t s) override { (calls_++ == 0 ? first_ : later_)->enqueue(s); }
  double result() override { return later_->result(); }
  Structure structure() const override { return later_->structure(); }

 private:
  std::unique_ptr<gpu::GpuBackend> first_, later_;
  int calls_ = 0;
};

TEST(NcclRows, ABrokenDeterminismPromiseFails) {
  RB_REQUIRE_GPU();
  for (const auto& out : run_nccl_row<ChangesOrderAfterFirst>(1, {1'000'003, 4'194'305})) {
    EXPECT_EQ(out.kind, Kind::verification_failed) << out.name << ": " << out.message;
    EXPECT_EQ(out.repeat, Outcome::Check::failed) << out.name;
    EXPECT_EQ(out.exact, Outcome::Check::passed) << out.name;
    EXPECT_EQ(out.accuracy, Outcome::Check::passed) << out.name;
    EXPECT_NE(out.message.find("promises run_to_run"), std::string::npos) << out.message;
  }
}

}  // namespace
