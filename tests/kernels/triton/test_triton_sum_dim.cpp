// triton/sum_dim's kernels (kernels/triton/launch.hpp: SumDim, sum.py: rows_kernel, cols_kernel),
// f32, f16 and bf16, without the harness: every output of rows and columns of odd shapes, at a start
// one element past a 16-byte boundary and at an aligned one with N a multiple of 16 (the vectorized
// compile). Integer data: every output the integer sum bit for bit, with fence values (2^20; 2^15
// in f16) in the elements on either side of the array (one read beyond it changes an exact sum). Random data: within
// (summed + 8) x 2^-24 x sum|x| of an fp64 reference. Every call leaves the 64 floats after the
// outputs untouched; zero rows or columns write nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "common/cuda_check.hpp"
#include "common/dtype.hpp"
#include "kernels/triton/launch.hpp"
#include "tests/kernels/cuda/device.hpp"
#include "tests/kernels/triton/require_triton.hpp"
#include "tests/support/typed_reference.hpp"

namespace {

using rb::test::DeviceArray;

constexpr std::int64_t kGuard = 64;       // fence values before and after the array; floats after out
constexpr std::uint32_t kSentinel = ~0u;  // cudaMemset 0xFF: a NaN no finite sum gives

struct Shape {
  std::int64_t rows, cols;
  bool along_rows;
};

// The shapes: both axes, every BLOCK_N the launcher picks (1 to the caps), ragged last blocks.
std::vector<Shape> shapes() {
  std::vector<Shape> out;
  for (const std::int64_t n : {1, 3, 4, 16, 33, 64, 257, 1000, 4096, 4099, 65537})
    for (const std::int64_t b : {1, 7, 100, 1031})
      if (b * n <= (std::int64_t{1} << 22))
        for (const bool r : {true, false}) out.push_back({b, n, r});
  return out;
}

template <class T>
void check_shapes(bool integers) {
  std::int64_t most = 0;
  for (const Shape& s : shapes()) most = std::max(most, s.rows * s.cols);
  for (const int offset : {1, 0}) {
    // x at `offset` elements past the lead: fence values on both sides of every shape's array.
    const std::int64_t lead = 16 / static_cast<std::int64_t>(sizeof(T)) * 8;
    std::vector<T> host = integers ? rb::test::small_integers<T>(lead + most + 2 * kGuard, 11)
                                   : rb::test::random_elements<T>(lead + most + 2 * kGuard, 12);
    for (std::int64_t i = 0; i < lead + offset; ++i) host[i] = rb::test::fence_value<T>();
    const DeviceArray<T> in = rb::test::upload<T>(std::span<const T>(host));
    DeviceArray<float> out(static_cast<std::size_t>(most + kGuard));
    for (const Shape& s : shapes()) {
      if (offset == 0 && s.cols % 16 != 0) continue;  // the aligned compile only where N allows it
      SCOPED_TRACE(::testing::Message() << s.rows << "x" << s.cols << (s.along_rows ? "" : "/cols") << " offset "
                                        << offset << (integers ? " integers" : " random"));
      const std::int64_t n = s.rows * s.cols, outs = s.along_rows ? s.rows : s.cols;
      const T* x = host.data() + lead + offset;
      std::vector<T> after(host.begin() + lead + offset + n, host.begin() + lead + offset + n + kGuard);
      const std::vector<T> fence(kGuard, rb::test::fence_value<T>());
      RB_CUDA_CHECK(cudaMemcpy(in.get() + lead + offset + n, fence.data(), kGuard * sizeof(T), cudaMemcpyHostToDevice));
      RB_CUDA_CHECK(cudaMemset(out.get(), 0xFF, out.size() * sizeof(float)));
      const rb::triton::SumDim k(in.get() + lead + offset, rb::dtype_of<T>, s.rows, s.cols, s.along_rows, out.get());
      k.sum(in.get() + lead + offset, out.get(), nullptr);
      RB_CUDA_CHECK(cudaDeviceSynchronize());
      RB_CUDA_CHECK(cudaMemcpy(in.get() + lead + offset + n, after.data(), kGuard * sizeof(T), cudaMemcpyHostToDevice));
      std::vector<float> got(static_cast<std::size_t>(outs + kGuard));
      RB_CUDA_CHECK(cudaMemcpy(got.data(), out.get(), got.size() * sizeof(float), cudaMemcpyDeviceToHost));
      const std::int64_t len = s.along_rows ? s.cols : s.rows;
      int bad = 0;
      for (std::int64_t o = 0; o < outs && bad < 5; ++o) {
        double ref = 0, abs = 0;
        for (std::int64_t k2 = 0; k2 < len; ++k2) {
          const double v = rb::widen(s.along_rows ? x[o * s.cols + k2] : x[k2 * s.cols + o]);
          ref += v;
          abs += std::fabs(v);
        }
        const double bound = integers ? 0.0 : (static_cast<double>(len) + 8) * 0x1p-24 * abs;
        if (!(std::fabs(got[o] - ref) <= bound)) {
          ++bad;
          ADD_FAILURE() << "output " << o << ": " << got[o] << ", want " << ref << " within " << bound;
        }
      }
      for (std::int64_t g = 0; g < kGuard; ++g) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &got[outs + g], 4);
        ASSERT_EQ(bits, kSentinel) << "float " << g << " after the outputs written";
      }
    }
  }
}

template <class T>
class TritonSumDimTyped : public ::testing::Test {};
using Types = ::testing::Types<float, rb::f16, rb::bf16>;
TYPED_TEST_SUITE(TritonSumDimTyped, Types, rb::test::DtypeNames);

TYPED_TEST(TritonSumDimTyped, IntegersExact) {
  RB_REQUIRE_TRITON();
  check_shapes<TypeParam>(true);
}
TYPED_TEST(TritonSumDimTyped, RandomWithinTheBound) {
  RB_REQUIRE_TRITON();
  check_shapes<TypeParam>(false);
}

TEST(TritonSumDim, OtherElementTypesAreRefused) {
  RB_REQUIRE_TRITON();
  DeviceArray<float> out(4);
  EXPECT_THROW(rb::triton::SumDim(out.get(), rb::Dtype::f64, 2, 2, true, out.get()), std::invalid_argument);
  EXPECT_THROW(rb::triton::SumDim(out.get(), rb::Dtype::f32, -1, 2, true, out.get()), std::invalid_argument);
}

}  // namespace
