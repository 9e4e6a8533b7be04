// Registrations for test_registration.cpp (see registrations_a.cpp).
#include <vector>

#include "bench/api/cpu_backend.hpp"
#include "tests/bench/registration/registrations.hpp"
#if RB_TEST_GPU
#include "bench/api/gpu_backend.hpp"
#endif

namespace rb::test {

RB_REGISTER_BACKEND(bench::unavailable_backend("t/mid", "a test row"));
RB_REGISTER_BACKEND(register_duplicates
                        ? std::vector<bench::BackendDef<float>>{bench::unavailable_backend("t/dup", "b")}
                        : std::vector<bench::BackendDef<float>>{});
#if RB_TEST_GPU
RB_REGISTER_BACKEND(bench::gpu::unavailable_backend("t/gpu_a", "a test row"));
#endif

}  // namespace rb::test
