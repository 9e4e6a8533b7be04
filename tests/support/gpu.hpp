#pragma once
// RB_REQUIRE_GPU(): skip (never pass) a GPU test on a machine without a usable CUDA device. On a
// machine that must have one (the GPU runner sets RB_EXPECT_GPU=1), a missing device fails the
// test instead: a GPU suite that silently skipped everything would otherwise look green.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace rb::test {

// True when a CUDA device is usable; otherwise false and `why_not` says why.
bool gpu_available(std::string& why_not);

inline bool gpu_expected() {
  const char* v = std::getenv("RB_EXPECT_GPU");
  return v != nullptr && std::string(v) == "1";
}

}  // namespace rb::test

#define RB_REQUIRE_GPU()                                                                   \
  do {                                                                                     \
    std::string rb_why_;                                                                   \
    if (!::rb::test::gpu_available(rb_why_)) {                                             \
      if (::rb::test::gpu_expected()) FAIL() << "RB_EXPECT_GPU=1, but " << rb_why_;        \
      GTEST_SKIP() << rb_why_;                                                             \
    }                                                                                      \
  } while (0)
