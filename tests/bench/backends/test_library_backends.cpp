// The library backends (CUB, Thrust) through the real harness on signed random data: odd sizes,
// CUB's single-tile/two-kernel boundary, and one size above 2^31 (64-bit counts end to end).
#include <gtest/gtest.h>

#include "bench/api/gpu_backend.hpp"
#include "bench/gpu/context.hpp"
#include "bench/detail/registry.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/run_cases.hpp"

namespace {

using namespace rb::bench;
using Kind = Outcome::Kind;

std::vector<BackendDef<float>> library_backends() {
  const auto registered = rb::test::registered_gpu_defs();
  std::vector<BackendDef<float>> out;
  for (const char* name : {"cub", "thrust/reduce", "thrust/reduce_cached"})
    out.push_back(rb::test::by_name(registered, name));
  return out;
}

void expect_all_verified(std::vector<std::int64_t> sizes) {
  Session session(rb::test::small_options(sizes));
  std::string why_not;
  const auto entries = bind_backends(session, library_backends(), why_not);
  ASSERT_TRUE(why_not.empty()) << why_not;
  EXPECT_EQ(rb::test::run_in_process(session, entries), entries.size() * sizes.size() * 2);
  for (const auto& o : session.log().outcomes()) EXPECT_EQ(o.kind, Kind::ok) << o.name << ": " << o.message;
  release_gpu();
}

TEST(LibraryBackends, OddSizes) {
  RB_REQUIRE_GPU();
  expect_all_verified({1, 2, 31, 33, 4095, 4096, 4097, 65'537, 100'003, 1'000'001});
}

TEST(LibraryBackends, Above2Pow31) {
  RB_REQUIRE_GPU();
  expect_all_verified({(std::int64_t{1} << 31) + 7});
}

}  // namespace
