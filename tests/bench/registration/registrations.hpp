#pragma once
// What registrations_a.cpp and registrations_b.cpp register, and the switches their lazily
// evaluated expressions read (test_registration.cpp).
#include <string>
#include <vector>

namespace rb::test {

// How many times registrations_a.cpp's counted expression has been evaluated.
int evaluations();
// When true, both files also register a backend named "t/dup".
extern bool register_duplicates;

// The CPU names in the order the rule gives (bench/detail/registry.hpp): registrations sorted by their
// first name, rows within one registration as listed.
inline const std::vector<std::string> kCpuOrder = {"t/alpha_b", "t/alpha_a", "t/mid", "t/zeta"};
inline const std::vector<std::string> kGpuOrder = {"t/gpu_a", "t/gpu_b2", "t/gpu_b1"};

}  // namespace rb::test
