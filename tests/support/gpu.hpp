#pragma once
// RB_REQUIRE_GPU(): skip (never pass) a GPU test on a machine without a usable CUDA device.
#include <gtest/gtest.h>

#include <string>

namespace rb::test {

// True when a CUDA device is usable; otherwise false and `why_not` says why.
bool gpu_available(std::string& why_not);

}  // namespace rb::test

#define RB_REQUIRE_GPU()                                              \
  do {                                                                \
    std::string rb_why_;                                              \
    if (!::rb::test::gpu_available(rb_why_)) GTEST_SKIP() << rb_why_; \
  } while (0)
