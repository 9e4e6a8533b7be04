// FinishFixed (kernels/cuda/finish_fixed.cuh) with double partials, the Mid and Wide grids'
// completion of cuda/onepass@f64 and cuda/onepass_accf64: q split over a low and a high word. Small integers summed
// exactly on both kernels, with double and with float input; random full-precision doubles within
// a double bound and bit for bit the same over runs; the two words' last blocks meeting (forced
// by planted counts); the slot path (partials beyond the grid, NaN, no grid); the scratch left
// zeroed. Scratch: the low, high and meeting words, then one double slot per block.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/tuning.cuh"
#include "tests/kernels/cuda/device.hpp"
#include "tests/kernels/cuda/fixed_sample.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/typed_reference.hpp"

namespace {

using rb::cuda::FinishFixed;
using rb::test::DeviceArray;
using rb::test::nonzero_bytes;
using Shape = rb::cuda::OnepassMidShape;
using Word = unsigned long long;
template <class T>
using Grid = rb::cuda::OneTileGrid<double, Shape, T, FinishFixed>;
template <class T>
using Looping = rb::cuda::Onepass<double, Shape, FinishFixed, T>;

static_assert(
    std::is_same_v<rb::cuda::OnepassTuned<double, rb::cuda::OnepassSm90Tuning, double>::TileFinish, FinishFixed>,
    "cuda/onepass@f64's Mid grid is the one tested here");
static_assert(std::is_same_v<rb::cuda::OnepassTuned<double, rb::cuda::OnepassSm90Tuning>::TileFinish, FinishFixed>,
              "and cuda/onepass_accf64's");

constexpr std::int64_t kTile = Grid<double>::kTile;  // 2048 doubles
constexpr int kLow = 0, kHigh = 1, kMeet = 2;
constexpr std::size_t kHeaderBytes = 3 * sizeof(Word);

using rb::test::exact_sum;

constexpr auto sampled_elements = rb::test::sampled_elements<double>;

// 2^bottom of the grid for x (aligned, doubles; fixed_grid.cuh), from its sampled elements.
double grid_unit(std::span<const double> x) {
  double largest = 0;
  for (const std::int64_t i : sampled_elements(static_cast<std::int64_t>(x.size())))
    largest = std::max(largest, std::fabs(x[static_cast<std::size_t>(i)]));
  const int e = std::ilogb(largest);
  return std::ldexp(1.0, e + 1 + 11 + rb::cuda::detail::FixedGrid::kSlack - 82);
}

struct Scratch {
  explicit Scratch(std::int64_t n) : bytes(Grid<double>::scratch_bytes(n)), mem(bytes) {
    Grid<double>::prepare(mem.get(), bytes, nullptr);
  }
  Word* word(int i) const { return reinterpret_cast<Word*>(mem.get()) + i; }
  Word get(int i) const { return rb::test::read_back(word(i)); }
  void set(int i, Word w) const { RB_CUDA_CHECK(cudaMemcpy(word(i), &w, sizeof(w), cudaMemcpyHostToDevice)); }
  Word* slot(int b) const { return reinterpret_cast<Word*>(mem.get() + kHeaderBytes) + b; }
  void set_slot(int b, Word w) const { RB_CUDA_CHECK(cudaMemcpy(slot(b), &w, sizeof(w), cudaMemcpyHostToDevice)); }
  Word get_slot(int b) const { return rb::test::read_back(slot(b)); }
  bool zeroed() const { return nonzero_bytes(mem.get(), bytes) == 0; }
  std::size_t bytes;
  DeviceArray<unsigned char> mem;
};

template <class T>
double run(const rb::cuda::TypedVariant<T, double>& v, const T* in, std::int64_t n, const Scratch& s,
           DeviceArray<double>& out) {
  RB_CUDA_CHECK(cudaMemset(out.get(), 0xFF, sizeof(double)));  // NaN: a launch that writes nothing fails
  v.sum(in, n, s.mem.get(), out.get(), nullptr);
  return rb::test::read_back(out.get());
}
double run(const rb::cuda::Variant<double>& v, const float* in, std::int64_t n, const Scratch& s,
           DeviceArray<double>& out) {
  return rb::test::sum_into(v, in, n, s.mem.get(), out.get());
}

// One n on the double one-tile grid: its scratch and result, and a call on host data.
struct Calls {
  explicit Calls(std::int64_t count) : n(count), s(count), out(1) {}
  double sum(const std::vector<double>& x) {
    const auto d = rb::test::upload(std::span<const double>(x));
    return run(Grid<double>::variant(), d.get(), n, s, out);
  }
  std::int64_t n;
  Scratch s;
  DeviceArray<double> out;
};

template <class T>
void expect_integers_exact(std::uint64_t seed) {
  constexpr std::int64_t kTileT = Grid<T>::kTile;
  const std::int64_t most = FinishFixed::kMaxGrid * kTileT;
  const auto x = rb::test::small_integers<T>(most + 8, seed);
  const auto d = rb::test::upload(std::span<const T>(x));
  Scratch s(std::max(most, FinishFixed::kMaxGrid * kTile));
  DeviceArray<double> out(1);
  for (const auto& v : {Grid<T>::variant(), Looping<T>::variant()}) {
    for (const int offset : {0, 1, 3}) {
      for (const std::int64_t n : {std::int64_t{5}, kTileT - 1, kTileT + 1, 2 * kTileT + 7, 37 * kTileT + 1029,
                                   96 * kTileT - 1, most}) {
        SCOPED_TRACE(testing::Message() << "offset " << offset << ", n " << n << ", grid " << v.geometry(n).grid);
        EXPECT_EQ(run(v, d.get() + offset, n, s, out), exact_sum(std::span<const T>(x).subspan(offset, n)));
        EXPECT_TRUE(s.zeroed()) << "a word or slot not put back to zero";
      }
    }
  }
}

TEST(FinishFixedDouble, SmallIntegersExactOnEveryGridAndBothKernels) {
  RB_REQUIRE_GPU();
  expect_integers_exact<double>(31);
  expect_integers_exact<float>(32);  // cuda/onepass_accf64: float input, double partials
}

TEST(FinishFixedDouble, FullPrecisionWithinADoubleBoundAndTheSameBitsEveryRun) {
  RB_REQUIRE_GPU();
  const std::int64_t most = 96 * kTile;
  const auto x = rb::test::random_elements<double>(most + 8, 5);  // 53-bit significands: q has low bits
  const auto d = rb::test::upload(std::span<const double>(x));
  Scratch s(most);
  DeviceArray<double> out(1);
  for (const std::int64_t n : {3 * kTile + 5, 32 * kTile, 64 * kTile + 11, most}) {
    SCOPED_TRACE(testing::Message() << "n " << n);
    const auto ref = rb::test::reference_of(std::span<const double>(x).subspan(1, n));
    // Each element reaches the sum through fewer than 40 double roundings (its vector, the tile's
    // pairs, the block tree, the grid's one); an element lost or the two words misjoined (an
    // error near 2^(bottom + 41), above 2^-27 of the largest |x|) is far above this.
    const double bound = 40 * 0x1p-53 * ref.sum_abs;
    const double first = run(Grid<double>::variant(), d.get() + 1, n, s, out);
    EXPECT_LE(std::fabs(first - ref.sum), bound) << first << " vs " << ref.sum;
    for (int r = 0; r < 10; ++r) {
      const double again = run(Grid<double>::variant(), d.get() + 1, n, s, out);
      EXPECT_EQ(std::memcmp(&again, &first, sizeof(double)), 0) << "run " << r << ": " << again << " vs " << first;
    }
    EXPECT_TRUE(s.zeroed());
  }
}

// cuda/onepass@f64's and cuda/onepass_accf64's Wide grid (tiles of 256 x 8, one per block, 1.5 to
// 4 MiB) is completed by FinishFixed too: small integers exactly, full-precision doubles within the
// bound above and the same bits every run, at grids from 2 to 128 blocks, the scratch left zeroed.
template <class T>
using Wide = rb::cuda::OneTileGrid<double, rb::cuda::OnepassWideShape, T, FinishFixed>;
static_assert(std::is_same_v<rb::cuda::OnepassTuned<double, rb::cuda::OnepassSm90Tuning, double>::Wide, Wide<double>>,
              "cuda/onepass@f64's Wide grid is the one tested here");
static_assert(std::is_same_v<rb::cuda::OnepassTuned<double, rb::cuda::OnepassSm90Tuning>::Wide, Wide<float>>,
              "and cuda/onepass_accf64's");

template <class T>
void expect_wide_grid_sums(std::uint64_t seed) {
  constexpr std::int64_t tile = Wide<T>::kTile;
  const std::int64_t most = FinishFixed::kMaxGrid * tile;
  const auto ints = rb::test::small_integers<T>(most + 8, seed);
  const auto random = rb::test::random_elements<T>(most + 8, seed + 1);
  const auto di = rb::test::upload(std::span<const T>(ints));
  const auto dr = rb::test::upload(std::span<const T>(random));
  Scratch s(most);  // the Mid grid's scratch for most: more slots than Wide's 128 blocks use
  DeviceArray<double> out(1);
  const auto v = Wide<T>::variant();
  for (const int offset : {0, 3}) {
    for (const std::int64_t n : {tile + 1, 48 * tile, 65 * tile + 7, 97 * tile - 1, most}) {
      SCOPED_TRACE(testing::Message() << "offset " << offset << ", n " << n << ", grid " << v.geometry(n).grid);
      EXPECT_EQ(run(v, di.get() + offset, n, s, out), exact_sum(std::span<const T>(ints).subspan(offset, n)));
      const auto ref = rb::test::reference_of(std::span<const T>(random).subspan(offset, n));
      const double first = run(v, dr.get() + offset, n, s, out);
      EXPECT_LE(std::fabs(first - ref.sum), 40 * 0x1p-53 * ref.sum_abs) << first << " vs " << ref.sum;
      for (int r = 0; r < 3; ++r) {
        const double again = run(v, dr.get() + offset, n, s, out);
        EXPECT_EQ(std::memcmp(&again, &first, sizeof(double)), 0) << "run " << r << ": " << again << " vs " << first;
      }
      EXPECT_TRUE(s.zeroed()) << "a word or slot not put back to zero";
    }
  }
}

TEST(FinishFixedDouble, WideGridExactAndWithinTheBound) {
  RB_REQUIRE_GPU();
  expect_wide_grid_sums<double>(41);
  expect_wide_grid_sums<float>(43);
}

// The two words' last blocks differ: with the high word planted at grid - 1 arrivals and a sum S,
// the first block to reach it is its last, and the low word's last is (almost always) another
// block, so the two meet at the third word. Every tile is the same small integers, so every block
// has the same partial p and its low part is 0: the sum is then p + S x 2^(bottom + 41) whichever
// block came first. The other blocks' adds race with its reset of the high word, so what that
// word holds after is not checked, only put back to zero.
TEST(FinishFixedDouble, LastBlocksOfTheTwoWordsMeet) {
  RB_REQUIRE_GPU();
  const int grid = 40;
  Calls c(grid * kTile);
  const auto tile = rb::test::small_integers<double>(kTile, 33);
  std::vector<double> x;
  for (int b = 0; b < grid; ++b) x.insert(x.end(), tile.begin(), tile.end());
  const double p = exact_sum(std::span<const double>(tile));
  const double unit = grid_unit(x);
  for (const long long planted : {1LL, -3LL, 1LL << 40}) {
    SCOPED_TRACE(testing::Message() << "S " << planted);
    c.s.set(kHigh, (static_cast<Word>(planted) << 14) + (grid - 1));
    EXPECT_EQ(c.sum(x), p + static_cast<double>(planted) * unit * 0x1p41);
    EXPECT_EQ(c.s.get(kLow), 0u);
    EXPECT_EQ(c.s.get(kMeet), 0u) << "the meeting word not put back to zero";
    c.s.set(kHigh, 0);
    EXPECT_TRUE(c.s.zeroed());
    EXPECT_EQ(c.sum(x), grid * p);
    EXPECT_TRUE(c.s.zeroed());
  }
}

// Where every partial fits, no slot is read or emptied: a word planted in one stays. Where two
// blocks' partials (about 2048 x 100) reach past the grid the sample sets (2^(e + 14) for a
// largest |x| below 2^(e + 1): at most 2^17), those blocks take the slot path; the last block adds every non-empty
// slot, the planted one too, and empties them.
TEST(FinishFixedDouble, PartialsBeyondTheGridTakeTheSlotPath) {
  RB_REQUIRE_GPU();
  Calls c(40 * kTile + 5);
  const auto fits = rb::test::small_integers<double>(c.n, 34);
  auto beyond = fits;
  std::vector<char> sampled(beyond.size(), 0);
  for (const std::int64_t i : sampled_elements(c.n)) sampled[static_cast<std::size_t>(i)] = 1;
  for (const std::int64_t b : {2, 5})
    for (std::int64_t i = b * kTile; i < (b + 1) * kTile; ++i)
      if (!sampled[static_cast<std::size_t>(i)]) beyond[static_cast<std::size_t>(i)] = 100.0;
  Word planted = 0;
  const double thousand = 1000.0;
  std::memcpy(&planted, &thousand, sizeof(planted));
  planted = ~planted;  // slots.cuh's encoding

  c.s.set_slot(7, planted);
  EXPECT_EQ(c.sum(fits), exact_sum(std::span<const double>(fits)));
  EXPECT_EQ(c.s.get_slot(7), planted) << "the fast path read or emptied a slot";

  EXPECT_EQ(c.sum(beyond), exact_sum(std::span<const double>(beyond)) + 1000.0);
  EXPECT_TRUE(c.s.zeroed()) << "the slot path left a slot or a word set";
  for (int r = 0; r < 5; ++r) EXPECT_EQ(c.sum(beyond), exact_sum(std::span<const double>(beyond)));
  EXPECT_EQ(c.sum(fits), exact_sum(std::span<const double>(fits)));
  EXPECT_TRUE(c.s.zeroed());
}

// No grid: an infinite sample, or a largest |x| of 2^-997 (bottom below -1022); every block takes
// the slot path and the sum is still exact. A NaN outside the sample: the sum is NaN. A clean
// call after each gives the exact sum again.
TEST(FinishFixedDouble, NoGridOrNanStillCorrect) {
  RB_REQUIRE_GPU();
  Calls c(29 * kTile + 3);
  const auto sampled = sampled_elements(c.n);
  rb::test::expect_no_grid_or_nan_correct<double>(
      rb::test::small_integers<double>(c.n, 35), -1000, sampled[2 * 9], 11 * kTile + 77,
      [&c](const std::vector<double>& x) { return c.sum(x); }, [&c] { return c.s.zeroed(); });
}

// The grid's roundings in double additions: 2^(11 + 2 - 82 + 53) = 2^-16 per block of 2048
// doubles, one addition for any grid FinishFixed takes; one block more is refused.
TEST(FinishFixedDouble, RoundingsStatedAndGridBeyondItsCountFieldsRefused) {
  RB_REQUIRE_GPU();
  EXPECT_EQ(Grid<double>::geometry(96 * kTile).window_roundings, 1);
  EXPECT_EQ(Grid<float>::geometry(96 * Grid<float>::kTile).window_roundings, 1);
  EXPECT_EQ(FinishFixed::window_roundings<double>(1 << 16, kTile), 1);
  EXPECT_EQ(FinishFixed::window_roundings<double>((1 << 16) + 1, kTile), 2);
  const std::int64_t n = FinishFixed::kMaxGrid * kTile + 1;
  const auto x = rb::test::small_integers<double>(n, 36);
  const auto d = rb::test::upload(std::span<const double>(x));
  Scratch s(n);
  DeviceArray<double> out(1);
  EXPECT_THROW(Grid<double>::sum(d.get(), n, s.mem.get(), out.get(), nullptr), std::invalid_argument);
}

}  // namespace
