#pragma once
// Skips a test where Triton cannot run: no GPU (RB_REQUIRE_GPU), or no importable triton.
#include <gtest/gtest.h>

#include <string>

#include "kernels/triton/launch.hpp"
#include "tests/support/gpu.hpp"

#define RB_REQUIRE_TRITON()                                       \
  do {                                                            \
    RB_REQUIRE_GPU();                                             \
    const std::string rb_why_ = rb::triton::unavailable_reason(); \
    if (!rb_why_.empty()) GTEST_SKIP() << rb_why_;                \
  } while (0)
