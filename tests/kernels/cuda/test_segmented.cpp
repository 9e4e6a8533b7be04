// cuda/segmented (kernels/cuda/segmented.hpp), f32, f16 and bf16: every output of every shape of a sweep
// over B and N (both axes, every plan reached, checked through geometry), at start offsets of 0 to 3
// elements past a 256-byte boundary, on one scratch prepared once. Integer data: every output the
// integer sum bit for bit, with 64 elements of 2^20 (2^15 in f16) on either side of the array (an element read
// beyond it changes an exact sum). Random data: within (summed + 8) x 2^-24 x sum|x| of an fp64
// reference (the first-order rounding bound of any order of float additions, plus room for the
// reference's own error). Every call: every output written, none of the 64 floats after them
// touched, and a second call the same bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <span>
#include <type_traits>
#include <vector>

#include "common/cuda_check.hpp"
#include "common/dtype.hpp"
#include "common/parallel.hpp"
#include "kernels/cuda/segmented.hpp"
#include "tests/kernels/cuda/device.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/typed_reference.hpp"

namespace {

using rb::cuda::Axis;
using rb::cuda::SegmentedPlan;
using rb::cuda::SegmentedVariant;
using rb::cuda::Shape2D;
using rb::test::DeviceArray;

constexpr std::int64_t kGuard = 64;       // poisoned elements on each side; floats checked after out
constexpr int kMaxOffset = 3;             // elements past the 256-byte boundary
constexpr std::uint32_t kSentinel = ~0u;  // cudaMemset 0xFF: a NaN no finite sum gives
constexpr std::int64_t kSweepElements = std::int64_t{1} << 25;

// Every (B, N) of the two lists with B x N <= 2^25, for one axis; the plans' boundaries lie among them.
std::vector<Shape2D> sweep(Axis axis) {
  const std::int64_t lengths[] = {
      1,   2,   3,   4,   5,    7,    8,    16,   31,   32,   33,    64,    100,     127,           128,
      129, 255, 256, 257, 1000, 1024, 1025, 4095, 4096, 4097, 65536, 65537, 1 << 20, (1 << 20) + 3, 1 << 22};
  const std::int64_t counts[] = {1, 2, 3, 7, 32, 100, 1000, 4097, 1 << 16};
  std::vector<Shape2D> shapes;
  for (const std::int64_t n : lengths)
    for (const std::int64_t b : counts)
      if (b * n <= kSweepElements) shapes.push_back({b, n, axis});
  return shapes;
}

enum class Data { integers, random };

// The input on the host and the device: kLead elements, the first 256-byte boundary after which
// an offset starts the array, room for kMaxOffset and the guard after the largest shape.
template <class T>
struct Input {
  static constexpr std::int64_t kLead = 512 / static_cast<std::int64_t>(sizeof(T));  // >= kGuard
  Data data;
  std::vector<T> host;
  DeviceArray<T> device;

  Input(Data d, std::int64_t max_elements, std::uint64_t seed)
      : data(d),
        host(d == Data::integers ? rb::test::small_integers<T>(kLead + max_elements + kMaxOffset + kGuard, seed)
                                 : rb::test::random_elements<T>(kLead + max_elements + kMaxOffset + kGuard, seed)),
        device(rb::test::upload<T>(std::span<const T>(host))) {}
  const T* host_at(int offset) const { return host.data() + kLead + offset; }
  T* device_at(int offset) const { return device.get() + kLead + offset; }
};

// kGuard fence values (2^20; 2^15 in f16) on either side of the device's x[0, count) while it
// lives; the input's own values put back after.
template <class T>
class Fence {
 public:
  Fence(const Input<T>& in, int offset, std::int64_t count)
      : in_(in), before_(in.device_at(offset) - kGuard), after_(in.device_at(offset) + count) {
    const std::vector<T> poison(kGuard, rb::test::fence_value<T>());
    for (T* at : {before_, after_})
      RB_CUDA_CHECK(cudaMemcpy(at, poison.data(), kGuard * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~Fence() {
    for (T* at : {before_, after_}) {
      const T* from = in_.host.data() + (at - in_.device.get());
      if (cudaMemcpy(at, from, kGuard * sizeof(T), cudaMemcpyHostToDevice) != cudaSuccess)
        ADD_FAILURE() << "input not put back";
    }
  }
  Fence(const Fence&) = delete;
  Fence& operator=(const Fence&) = delete;

 private:
  const Input<T>& in_;
  T* before_;
  T* after_;
};

// Each output's fp64 sum and sum|x|, in tasks of 64 outputs x a part of the summed length (so a
// single long row or column is split too), the parts added in order. Integer data: exact.
struct Reference {
  std::vector<double> sum, sum_abs;
};

template <class T>
Reference reference(const T* x, Shape2D s) {
  constexpr std::int64_t kTile = 64;
  const std::int64_t outs = s.outputs(), len = s.summed();
  const std::int64_t out_stride = s.axis == Axis::rows ? s.cols : 1, k_stride = s.axis == Axis::rows ? 1 : s.cols;
  const std::int64_t tiles = (outs + kTile - 1) / kTile;
  const std::int64_t parts = std::clamp<std::int64_t>(len * std::min(outs, kTile) >> 18, 1, 64);
  std::vector<double> part_sum(static_cast<std::size_t>(parts * outs)), part_abs(part_sum.size());
  const auto task = [&](std::int64_t t) {
    const std::int64_t o0 = t / parts * kTile, o1 = std::min(outs, o0 + kTile), p = t % parts;
    double a[kTile] = {}, b[kTile] = {};
    for (std::int64_t k = p * len / parts; k < (p + 1) * len / parts; ++k) {
      for (std::int64_t o = o0; o < o1; ++o) {
        const double w = rb::widen(x[o * out_stride + k * k_stride]);
        a[o - o0] += w;
        b[o - o0] += std::fabs(w);
      }
    }
    std::copy(a, a + (o1 - o0), part_sum.begin() + p * outs + o0);
    std::copy(b, b + (o1 - o0), part_abs.begin() + p * outs + o0);
  };
  if (s.elements() < (std::int64_t{1} << 16)) {  // threads would cost more than they save
    for (std::int64_t t = 0; t < tiles * parts; ++t) task(t);
  } else {
    rb::parallel_for(tiles * parts, task);
  }
  Reference r{std::vector<double>(static_cast<std::size_t>(outs)), std::vector<double>(static_cast<std::size_t>(outs))};
  for (std::int64_t p = 0; p < parts; ++p) {
    for (std::int64_t o = 0; o < outs; ++o) {
      r.sum[o] += part_sum[p * outs + o];
      r.sum_abs[o] += part_abs[p * outs + o];
    }
  }
  return r;
}

// One variant with one scratch, sized for every shape it will see and prepared once (the kernels
// put their arrival counters back themselves), and one output buffer with kGuard floats after.
template <class T>
class Runner {
  using Out = rb::cuda::SumType<T>;
  static_assert(sizeof(Out) == sizeof(kSentinel));

 public:
  explicit Runner(const std::vector<Shape2D>& shapes)
      : scratch_bytes_(max_scratch(shapes)), scratch_(scratch_bytes_), out_(max_outputs(shapes) + kGuard) {
    v_.prepare(scratch_.get(), scratch_bytes_, nullptr);
  }

  // Two calls on x[offset, offset + B x N) fenced by poison, each into outputs filled with the
  // sentinel: every output written and right, nothing after them, the same bits twice.
  bool expect_sums(const Input<T>& in, Shape2D s, int offset) {
    const rb::cuda::SegmentedGeometry g = v_.geometry(s);
    SCOPED_TRACE(testing::Message() << s.rows << " x " << s.cols << (s.axis == Axis::rows ? " rows" : " cols")
                                    << ", offset " << offset << ", plan " << rb::cuda::plan_name(g.plan) << ", grid "
                                    << g.grid << ", per_block " << g.per_block);
    const auto outs = static_cast<std::size_t>(s.outputs());
    if (v_.scratch_bytes(s) > scratch_bytes_) {
      ADD_FAILURE() << "scratch_bytes grew: " << v_.scratch_bytes(s) << " > " << scratch_bytes_;
      return false;
    }
    std::vector<Out> got[2];
    {
      const Fence<T> fence(in, offset, s.elements());
      for (std::vector<Out>& g2 : got) {
        g2.resize(outs + kGuard);
        RB_CUDA_CHECK(cudaMemset(out_.get(), 0xFF, g2.size() * sizeof(Out)));
        v_.sum(in.device_at(offset), s, scratch_.get(), out_.get(), nullptr);
        RB_CUDA_CHECK(cudaMemcpy(g2.data(), out_.get(), g2.size() * sizeof(Out), cudaMemcpyDeviceToHost));
      }
    }
    const auto written_after = std::count_if(got[0].begin() + static_cast<std::ptrdiff_t>(outs), got[0].end(),
                                             [](Out v) { return std::bit_cast<std::uint32_t>(v) != kSentinel; });
    EXPECT_EQ(written_after, 0) << "floats written after the " << outs << " outputs";
    const bool same = std::memcmp(got[0].data(), got[1].data(), outs * sizeof(Out)) == 0;
    EXPECT_TRUE(same) << "two calls differ";

    const Reference ref = reference(in.host_at(offset), s);
    const bool exact = in.data == Data::integers;
    std::int64_t wrong = 0, unwritten = 0, worst = -1;
    double worst_excess = -1;
    for (std::size_t o = 0; o < outs; ++o) {
      const double have = got[0][o], want = ref.sum[o];
      const double allowed = exact ? 0.0 : (static_cast<double>(s.summed()) + 8) * 0x1p-24 * ref.sum_abs[o] + 0x1p-126;
      unwritten += std::bit_cast<std::uint32_t>(got[0][o]) == kSentinel;
      if (std::fabs(have - want) <= allowed) continue;
      ++wrong;
      const double excess =
          std::isnan(have) ? std::numeric_limits<double>::infinity() : std::fabs(have - want) - allowed;
      if (excess > worst_excess) {
        worst_excess = excess;
        worst = static_cast<std::int64_t>(o);
      }
    }
    EXPECT_EQ(unwritten, 0) << "outputs left at the sentinel";
    if (wrong > 0) {
      const auto w = static_cast<std::size_t>(worst);
      ADD_FAILURE() << wrong << " of " << outs << " outputs wrong; worst output " << worst << ": got " << got[0][w]
                    << ", expected " << ref.sum[w] << (exact ? " exactly" : "") << " (sum|x| " << ref.sum_abs[w]
                    << ", summed " << s.summed() << ")";
    }
    return written_after == 0 && same && unwritten == 0 && wrong == 0;
  }

 private:
  static std::size_t max_scratch(const std::vector<Shape2D>& shapes) {
    std::size_t bytes = 1;
    for (const Shape2D& s : shapes) bytes = std::max(bytes, rb::cuda::segmented_of<T>().scratch_bytes(s));
    return bytes;
  }
  static std::size_t max_outputs(const std::vector<Shape2D>& shapes) {
    std::int64_t most = 0;
    for (const Shape2D& s : shapes) most = std::max(most, s.outputs());
    return static_cast<std::size_t>(most);
  }

  const SegmentedVariant<T>& v_ = rb::cuda::segmented_of<T>();
  std::size_t scratch_bytes_;
  DeviceArray<unsigned char> scratch_;
  DeviceArray<Out> out_;
};

// Every shape at every offset in `offsets`, both axes, stopping after 20 failing calls; returns
// the plans the shapes got.
template <class T>
std::set<SegmentedPlan> expect_sweep(const Input<T>& in, std::initializer_list<int> offsets) {
  std::vector<Shape2D> shapes = sweep(Axis::rows), cols = sweep(Axis::cols);
  shapes.insert(shapes.end(), cols.begin(), cols.end());
  Runner<T> runner(shapes);
  std::set<SegmentedPlan> plans;
  int failures = 0;
  for (const Shape2D& s : shapes) {
    plans.insert(rb::cuda::segmented_of<T>().geometry(s).plan);
    for (const int offset : offsets) {
      if (!runner.expect_sums(in, s, offset) && ++failures == 20) {
        ADD_FAILURE() << "stopped after 20 failing shapes";
        return plans;
      }
    }
  }
  return plans;
}

template <class T>
class Segmented : public testing::Test {};
using Types = testing::Types<float, rb::f16, rb::bf16>;
TYPED_TEST_SUITE(Segmented, Types, rb::test::DtypeNames);

TYPED_TEST(Segmented, IntegerSumsExactAtEveryShapeAndOffsetAndEveryPlanReached) {
  RB_REQUIRE_GPU();
  const Input<TypeParam> in(Data::integers, kSweepElements, 31);
  const std::set<SegmentedPlan> plans = expect_sweep(in, {0, 1, 2, 3});
  for (const SegmentedPlan p : {SegmentedPlan::rows_tile, SegmentedPlan::rows_warp, SegmentedPlan::rows_blocks,
                                SegmentedPlan::cols_flat, SegmentedPlan::cols_tile}) {
    EXPECT_TRUE(plans.contains(p)) << "no shape of the sweep reaches " << rb::cuda::plan_name(p);
  }
}

TYPED_TEST(Segmented, RandomSumsWithinTheBoundAtEveryShapeAndOffset) {
  RB_REQUIRE_GPU();
  const Input<TypeParam> in(Data::random, kSweepElements, 37);
  expect_sweep(in, {0, 1, 2, 3});
}

// A sum of nothing is 0 (N = 0 along rows, B = 0 along columns); no outputs, nothing written.
TYPED_TEST(Segmented, EmptyShapesWriteZerosOrNothing) {
  RB_REQUIRE_GPU();
  const Input<TypeParam> in(Data::integers, 8, 41);
  std::vector<Shape2D> shapes;
  for (const Axis axis : {Axis::rows, Axis::cols}) {
    for (const Shape2D s : {Shape2D{0, 0, axis}, Shape2D{0, 7, axis}, Shape2D{7, 0, axis}, Shape2D{0, 1 << 20, axis},
                            Shape2D{1 << 20, 0, axis}})
      shapes.push_back(s);
  }
  Runner<TypeParam> runner(shapes);
  for (const Shape2D& s : shapes) runner.expect_sums(in, s, 1);
}

// Three data sets in a row through one scratch prepared once, at shapes whose outputs several
// blocks add (the last to arrive must put its counter back to 0 for the next call).
TYPED_TEST(Segmented, ScratchReusedAcrossCallsOnNewData) {
  RB_REQUIRE_GPU();
  std::vector<Shape2D> shapes;
  for (const Axis axis : {Axis::rows, Axis::cols}) {
    const std::int64_t dims[][2] = {{1, 1 << 22}, {3, 1'000'003}, {100, 4097}, {4097, 257},
                                    {1 << 16, 3}, {1 << 16, 16},  {2, 65537}};
    for (const auto& [b, n] : dims) shapes.push_back({b, n, axis});
  }
  Runner<TypeParam> runner(shapes);
  const Input<TypeParam> inputs[] = {
      {Data::integers, 1 << 22, 43}, {Data::integers, 1 << 22, 47}, {Data::integers, 1 << 22, 53}};
  for (const Shape2D& s : shapes)
    for (const Input<TypeParam>& in : inputs) runner.expect_sums(in, s, 0);
}

// Near 2^28 floats (1 GiB): a few rows of 2^26, and columns of 2^16 and 2^22 rows, integer data.
TEST(SegmentedLarge, F32IntegerSumsNearTwoToThe28Elements) {
  RB_REQUIRE_GPU();
  const std::vector<Shape2D> shapes = {
      {4, (std::int64_t{1} << 26) + 5, Axis::rows}, {65537, 4096, Axis::cols}, {(1 << 22) + 1, 64, Axis::cols}};
  std::int64_t most = 0;
  for (const Shape2D& s : shapes) most = std::max(most, s.elements());
  std::size_t free = 0, total = 0;
  RB_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  if (free < static_cast<std::size_t>(most) * sizeof(float) + (std::size_t{1} << 30))
    GTEST_SKIP() << "needs " << static_cast<double>(most) * 4 / 1e9 << " GB of device memory and 1 GiB to spare";
  const Input<float> in(Data::integers, most, 59);
  Runner<float> runner(shapes);
  for (const Shape2D& s : shapes)
    for (const int offset : {0, 3}) runner.expect_sums(in, s, offset);
}

}  // namespace
