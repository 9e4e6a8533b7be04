// The Triton rows of the element types other than f32 through the real harness (--dtype):
// triton/onepass@f64, @f16, @bf16, @i32 and triton/onepass_acc16@f16, @bf16 are registered under
// those names, and every one of them is verified at odd and large sizes (the 16-bit accumulator's
// rows by the exact check on the sparse data their accumulator adds exactly: bench/detail/exact_data.hpp).
// On a machine that cannot run triton the run is skipped with the reason.
#include <gtest/gtest.h>

#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "bench/detail/element.hpp"
#include "bench/gpu/context.hpp"
#include "bench/detail/registry.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/run_cases.hpp"

namespace {

using namespace rb::bench;

const std::set<std::string> kRows = {"triton/onepass@f64", "triton/onepass@f16",       "triton/onepass@bf16",
                                     "triton/onepass@i32", "triton/onepass_acc16@f16", "triton/onepass_acc16@bf16"};

std::vector<BackendEntry> typed_triton_rows(Session& session) {
  std::string why_not;
  auto entries = registered_backends(session, why_not);
  std::erase_if(entries, [](const BackendEntry& e) { return !kRows.contains(e.name); });
  return entries;
}

TEST(TritonTypedRows, AreRegisteredUnderTheirTypedNames) {
  Options o = rb::test::small_options({1024});
  o.dtypes = parse_dtypes("all");
  Session session(o);
  std::set<std::string> names;
  for (const auto& e : typed_triton_rows(session)) names.insert(e.name);
  EXPECT_EQ(names, kRows);
}

TEST(TritonTypedRows, AreVerifiedAtOddAndLargeSizes) {
  RB_REQUIRE_GPU();
  Options o = rb::test::small_options({1, 33, 4097, 99'991, 1'000'003, (1 << 24) + 3});
  o.dtypes = {Dtype::f64, Dtype::f16, Dtype::bf16, Dtype::i32};
  Session session(o);
  auto entries = typed_triton_rows(session);
  const std::string skipped = rb::test::drop_unavailable(entries);
  if (entries.empty()) GTEST_SKIP() << skipped;
  if (!skipped.empty()) std::cout << "[ skipped  ] " << skipped;
  rb::test::run_in_process(session, entries);
  release_gpu();
  std::set<std::string> verified;
  for (const auto& out : session.log().outcomes()) {
    EXPECT_EQ(out.kind, Outcome::Kind::ok) << out.name << ": " << out.message;
    EXPECT_NE(out.exact, Outcome::Check::failed) << out.name;
    if (out.kind == Outcome::Kind::ok) verified.insert(out.name.substr(0, out.name.find('/', out.name.find('@'))));
  }
  std::set<std::string> ran;
  for (const auto& e : entries) ran.insert(e.name);
  EXPECT_EQ(verified, ran);
}

}  // namespace
