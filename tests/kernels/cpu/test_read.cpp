#include <gtest/gtest.h>

#include "kernels/cpu/read.hpp"
#include "tests/kernels/cpu/sum_checks.hpp"

namespace {

using rb::test::Acc;
using rb::test::call;

// read_f32 is built for several ISAs (target_clones); this checks the one this CPU runs.
RB_SUM_TESTS(ReadF32, call<rb::cpu::read_f32>, Acc::f32_sequential, "")

}  // namespace
