// Registrations for test_registration.cpp: this file and registrations_b.cpp are linked in both
// orders (two executables), so static initialisation registers them in both orders.
#include <stdexcept>
#include <vector>

#include "bench/api/cpu_backend.hpp"
#include "tests/bench/registration/registrations.hpp"
#if RB_TEST_GPU
#include "bench/api/gpu_backend.hpp"
#endif

namespace rb::test {
namespace {

using bench::BackendDef;

int evaluated = 0;

BackendDef<float> counted(BackendDef<float> def) {
  ++evaluated;
  return def;
}

}  // namespace

int evaluations() { return evaluated; }
bool register_duplicates = false;

RB_REGISTER_BACKEND(counted(bench::unavailable_backend("t/zeta", "a test row")));
// One registration of two rows, listed out of name order: the order listed is kept.
RB_REGISTER_BACKEND(std::vector<BackendDef<float>>{bench::unavailable_backend("t/alpha_b", "a test row"),
                                               bench::unavailable_backend("t/alpha_a", "a test row")});
RB_REGISTER_BACKEND(register_duplicates ? std::vector<BackendDef<float>>{bench::unavailable_backend("t/dup", "a")}
                                        : std::vector<BackendDef<float>>{});
#if RB_TEST_GPU
RB_REGISTER_BACKEND(std::vector<bench::BackendDef<float>>{bench::gpu::unavailable_backend("t/gpu_b2", "a test row"),
                                                           bench::gpu::unavailable_backend("t/gpu_b1", "a test row")});
#endif

}  // namespace rb::test
