// The nccl/* rows through the real harness on every GPU of this machine (skipped without a GPU):
// signed random input at odd sizes, both checks against the whole array's fp64 sum, a misaligned
// start, a local backend that drops one element, which the exact check must catch through the
// combine, and one whose bits change after its first call, which the determinism check must catch.
// The rows over symmetric memory (nccl/onepass/symmetric, nccl/onepass/lsa) the same way on one GPU,
// and, without a GPU, what their listing says when this build's NCCL lacks them.
#include <gtest/gtest.h>

#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "bench/api/gpu_backend.hpp"
#include "bench/gpu/context.hpp"
#include "bench/nccl/runner.hpp"
#include "bench/nccl/symmetric.hpp"
#include "bench/api/registration.hpp"
#include "bench/detail/registry.hpp"
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

// The benchmark `name` ran and passed its exact check, its bound and its repeat check.
void expect_verified(const Session& session, const std::string& name) {
  const auto out = rb::test::outcome_of(session, name);
  EXPECT_EQ(out.kind, Kind::ok) << name << ": " << out.message;
  EXPECT_EQ(out.exact, Outcome::Check::passed) << name;
  EXPECT_EQ(out.accuracy, Outcome::Check::passed) << name;
  EXPECT_EQ(out.repeat, Outcome::Check::passed) << name;
}

void expect_rows_pass(int gpus, int offset) {
  Options o = rb::test::small_options(kSizes);
  o.gpus = gpus;
  o.offset = offset;
  Session session(o);
  std::string why;
  const auto entries = registered_backends(session, why);
  ASSERT_TRUE(why.empty()) << why;
  std::map<std::string, double> throttled;
  EXPECT_EQ(
      rb::test::run_in_process(session, entries, "^nccl/(cub|onepass|onepass/reduce)/[0-9]", throttled, "throttled"),
      3 * 2 * kSizes.size());
  for (const char* row : {"nccl/cub", "nccl/onepass", "nccl/onepass/reduce"}) {
    for (const auto n : kSizes) {
      for (const char* mode : {"/cold", "/hot"}) {
        expect_verified(session, row + tail(n, mode));
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

// A row over symmetric windows on `gpus` GPUs (0: all) at odd sizes, cold and hot: verified like the
// others. Where this build lacks it (its listing says why: ListingSaysWhatTheBuildLacks)
// or NCCL cannot register symmetric windows on this machine (the row skips with NCCL's message on
// every size), the test reports skipped, never passed.
void expect_symmetric_row_passes(const std::string& row, int gpus) {
  const std::vector<std::int64_t> sizes = {1, 33, 4097, 1'000'003};
  Options o = rb::test::small_options(sizes);
  o.gpus = gpus;
  Session session(o);
  std::string why;
  const auto entries = registered_backends(session, why);
  ASSERT_TRUE(why.empty()) << why;
  const auto e = std::find_if(entries.begin(), entries.end(), [&](const BackendEntry& x) { return x.name == row; });
  ASSERT_NE(e, entries.end()) << row << " is not registered";
  if (!e->unavailable.empty()) GTEST_SKIP() << row << ": " << e->unavailable;
  EXPECT_EQ(rb::test::run_in_process(session, entries, "^" + row + "/[0-9]"), 2 * sizes.size());
  const auto first = rb::test::outcome_of(session, row + tail(sizes.front(), "/cold"));
  if (first.kind == Kind::skipped) {
    for (const auto n : sizes) {
      for (const char* mode : {"/cold", "/hot"}) {
        EXPECT_EQ(rb::test::outcome_of(session, row + tail(n, mode)).kind, Kind::skipped) << row << tail(n, mode);
      }
    }
    release_gpu();
    GTEST_SKIP() << row << ": " << first.message;
  }
  for (const auto n : sizes) {
    for (const char* mode : {"/cold", "/hot"}) {
      expect_verified(session, row + tail(n, mode));
    }
  }
  release_gpu();
}

// The rows over symmetric memory, one test each: "nccl/onepass/lsa" runs as .../nccl_onepass_lsa.
class OverSymmetricMemory : public ::testing::TestWithParam<const char*> {};

TEST_P(OverSymmetricMemory, OneGpuVerifies) {
  RB_REQUIRE_GPU();
  expect_symmetric_row_passes(GetParam(), 1);
}

TEST_P(OverSymmetricMemory, EveryGpuVerifies) {
  RB_REQUIRE_GPU();
  if (visible_gpus() < 2) GTEST_SKIP() << "one GPU visible: the split over several is untested here";
  expect_symmetric_row_passes(GetParam(), 0);
}

// No GPU needed: a build whose NCCL headers predate symmetric memory (2.27) or the device API (2.28)
// lists the row unavailable with both versions; a newer one lists it without a reason of its own.
TEST_P(OverSymmetricMemory, ListingSaysWhatTheBuildLacks) {
  const std::string row = GetParam();
  const auto def = rb::test::by_name(registered_defs<float>(), row);
  const bool lsa = row == "nccl/onepass/lsa";
  if (NCCL_VERSION_CODE < nccl::kSymmetricSince || (lsa && NCCL_VERSION_CODE < nccl::kDeviceApiSince)) {
    const std::string needs = lsa ? "2.28 (device API)" : "2.27 (symmetric memory)";
    EXPECT_EQ(def.unavailable, "needs NCCL >= " + needs + "; this build has " + nccl::version_text(NCCL_VERSION_CODE));
  } else {
    EXPECT_EQ(def.unavailable, "");
  }
}

INSTANTIATE_TEST_SUITE_P(NcclRows, OverSymmetricMemory, ::testing::Values("nccl/onepass/symmetric", "nccl/onepass/lsa"),
                         [](const ::testing::TestParamInfo<const char*>& row) {
                           std::string name = row.param;
                           std::replace(name.begin(), name.end(), '/', '_');
                           return name;
                         });

// No GPU needed: the version a row needs and the one this build has, as the listing says them.
TEST(NcclRows, OldNcclVersionsAreNamed) {
  EXPECT_EQ(nccl::version_text(22809), "2.28.9");
  EXPECT_EQ(nccl::version_text(2804), "2.8.4");  // the code of NCCL 2.8 and older
  EXPECT_EQ(nccl::needs_nccl(NCCL_VERSION(2, 26, 5), nccl::kSymmetricSince, "symmetric memory", "this build has"),
            "needs NCCL >= 2.27 (symmetric memory); this build has 2.26.5");
  EXPECT_EQ(nccl::needs_nccl(NCCL_VERSION(2, 27, 3), nccl::kDeviceApiSince, "device API", "the loaded library is"),
            "needs NCCL >= 2.28 (device API); the loaded library is 2.27.3");
  EXPECT_EQ(nccl::needs_nccl(NCCL_VERSION(2, 27, 0), nccl::kSymmetricSince, "symmetric memory", "this build has"), "");
  EXPECT_EQ(nccl::needs_nccl(NCCL_VERSION(2, 30, 1), nccl::kDeviceApiSince, "device API", "this build has"), "");
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
