// torch/sum and triton/* through the real harness on signed random data: random odd sizes from 1
// to 10^5 plus a few large ones. Backends this machine cannot run (no libtorch, no triton) are
// skipped with their reason; when none can run, the test reports skipped.
#include <gtest/gtest.h>

#include <random>

#include "bench/api/gpu_backend.hpp"
#include "bench/gpu/context.hpp"
#include "bench/detail/registry.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/run_cases.hpp"

namespace {

using namespace rb::bench;

TEST(TorchTriton, OddAndLargeSizes) {
  RB_REQUIRE_GPU();
  std::vector<std::int64_t> sizes = {1, 33, 4097, 1'000'003, (1 << 24) + 3, 100'000'007};
  std::mt19937_64 rng(5);
  for (int i = 0; i < 12; ++i) sizes.push_back(1 + 2 * static_cast<std::int64_t>(rng() % 50'000));
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  Session session(rb::test::small_options(sizes));
  const auto registered = rb::test::registered_gpu_defs();
  std::vector<BackendDef<float>> defs;
  for (const char* name : {"triton/two_pass", "triton/onepass", "torch/sum"})
    defs.push_back(rb::test::by_name(registered, name));
  std::string why_not;
  auto entries = bind_backends(session, defs, why_not);
  const std::string skipped = rb::test::drop_unavailable(entries);
  if (entries.empty()) GTEST_SKIP() << skipped;
  if (!skipped.empty()) std::cout << "[ skipped  ] " << skipped;
  rb::test::run_in_process(session, entries);
  release_gpu();
  std::size_t ok = 0;
  for (const auto& o : session.log().outcomes()) {
    EXPECT_EQ(o.kind, Outcome::Kind::ok) << o.name << ": " << o.message;
    ok += o.kind == Outcome::Kind::ok;
  }
  EXPECT_GT(ok, 0u);
}

}  // namespace
