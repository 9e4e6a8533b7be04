// RB_REGISTER_BACKEND (bench/api/registration.hpp): expressions run when the backends are bound, not
// during static initialisation; the sweep order is the stated rule whatever the link order (this
// file is built twice, with registrations_a.cpp and registrations_b.cpp linked in both orders);
// a name registered twice is refused, naming both places.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "bench/api/cpu_backend.hpp"
#include "bench/detail/registry.hpp"
#include "tests/bench/registration/registrations.hpp"
#include "tests/support/run_cases.hpp"
#if RB_TEST_GPU
#include "bench/api/gpu_backend.hpp"
#endif

namespace {

using namespace rb::bench;

template <class Defs>
std::vector<std::string> names(const Defs& defs) {
  std::vector<std::string> out;
  for (const auto& d : defs) out.push_back(d.name);
  return out;
}

// Evaluations counted when main() has started, before any test binds the backends.
int evaluations_at_start = -1;

class AtStart : public ::testing::Environment {
 public:
  void SetUp() override { evaluations_at_start = rb::test::evaluations(); }
};
[[maybe_unused]] const auto* const kAtStart = ::testing::AddGlobalTestEnvironment(new AtStart);

TEST(Registration, ExpressionsRunWhenBoundNotDuringStaticInitialisation) {
  EXPECT_EQ(evaluations_at_start, 0);
  const int before = rb::test::evaluations();
  (void)rb::test::registered_cpu_defs();
  EXPECT_EQ(rb::test::evaluations(), before + 1);
}

TEST(Registration, CpuOrderIsTheRuleWhateverTheLinkOrder) {
  EXPECT_EQ(names(rb::test::registered_cpu_defs()), rb::test::kCpuOrder);
}

TEST(Registration, BoundEntriesAreCpuThenGpu) {
  Session session(rb::test::small_options({1000}));
  std::string why_not;
  const auto entries = registered_backends(session, why_not);
  std::vector<std::string> expected = rb::test::kCpuOrder;
#if RB_TEST_GPU
  expected.insert(expected.end(), rb::test::kGpuOrder.begin(), rb::test::kGpuOrder.end());
#else
  EXPECT_FALSE(why_not.empty());
#endif
  EXPECT_EQ(names(entries), expected);
  for (const auto& e : entries) EXPECT_NE(e.unavailable.find("a test row"), std::string::npos) << e.name;
}

#if RB_TEST_GPU
TEST(Registration, GpuOrderIsTheRuleWhateverTheLinkOrder) {
  EXPECT_EQ(names(rb::test::registered_gpu_defs()), rb::test::kGpuOrder);
}
#endif

TEST(Registration, ANameRegisteredTwiceIsRefusedNamingBothFiles) {
  rb::test::register_duplicates = true;
  try {
    (void)rb::test::registered_cpu_defs();
    ADD_FAILURE() << "t/dup was registered twice without an error";
  } catch (const std::logic_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'t/dup'"), std::string::npos) << what;
    EXPECT_NE(what.find("registrations_a.cpp:"), std::string::npos) << what;
    EXPECT_NE(what.find("registrations_b.cpp:"), std::string::npos) << what;
  }
  rb::test::register_duplicates = false;
  EXPECT_EQ(names(rb::test::registered_cpu_defs()), rb::test::kCpuOrder);
}

}  // namespace
