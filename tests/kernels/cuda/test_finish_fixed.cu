// FinishFixed (kernels/cuda/finish_fixed.cuh) with float partials, on the Mid shape and on the
// Wide shape: small integers summed exactly on either path, random data within the bound and bit
// for bit the same over runs, the slot path taken by partials beyond the sample's grid, by NaN and
// by a sample that gives no grid, the scratch left zeroed, and a grid beyond its count fields
// refused. Scratch: the 64-bit word, then one float slot per block.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/tuning.cuh"
#include "tests/kernels/cuda/device.hpp"
#include "tests/kernels/cuda/fixed_sample.hpp"
#include "tests/support/data.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/typed_reference.hpp"

namespace {

using rb::cuda::FinishFixed;
using rb::test::Acc;
using rb::test::DeviceArray;
using rb::test::nonzero_bytes;
constexpr auto small_integers = rb::test::small_integers<float>;  // every path: the integer sum exactly
using Shape = rb::cuda::OnepassMidShape;
using Grid = rb::cuda::OneTileGrid<float, Shape, float, FinishFixed>;
using Looping = rb::cuda::Onepass<float, Shape, FinishFixed>;

static_assert(std::is_same_v<rb::cuda::OnepassTuned<float, rb::cuda::OnepassSm90Tuning>::TileFinish, FinishFixed>,
              "cuda/onepass's float Mid grid is the one tested here");

constexpr std::int64_t kTile = Grid::kTile;
constexpr std::size_t kWordBytes = sizeof(unsigned long long);

double exact_sum(std::span<const float> x) { return rb::test::exact_sum(x); }
constexpr auto sampled_elements = rb::test::sampled_elements<float>;

// Block b's tile set to `value`, except for the sampled elements, which keep theirs.
void fill_tile_unsampled(std::vector<float>& x, std::int64_t b, float value) {
  const auto n = static_cast<std::int64_t>(x.size());
  std::vector<char> sampled(x.size(), 0);
  for (const std::int64_t i : sampled_elements(n)) sampled[static_cast<std::size_t>(i)] = 1;
  for (std::int64_t i = b * kTile; i < (b + 1) * kTile && i < n; ++i)
    if (!sampled[static_cast<std::size_t>(i)]) x[static_cast<std::size_t>(i)] = value;
}

unsigned slot_word(float partial) {
  unsigned bits = 0;
  std::memcpy(&bits, &partial, sizeof(bits));
  return ~bits;  // slots.cuh's encoding
}

struct Scratch {
  explicit Scratch(std::int64_t n) : bytes(Grid::scratch_bytes(n)), mem(bytes) {
    Grid::prepare(mem.get(), bytes, nullptr);
  }
  unsigned* slot(int b) const { return reinterpret_cast<unsigned*>(mem.get() + kWordBytes) + b; }
  void set_slot(int b, unsigned w) const { RB_CUDA_CHECK(cudaMemcpy(slot(b), &w, sizeof(w), cudaMemcpyHostToDevice)); }
  unsigned get_slot(int b) const { return rb::test::read_back(slot(b)); }
  std::size_t bytes;
  DeviceArray<unsigned char> mem;
};

float run(const rb::cuda::Variant<float>& v, const DeviceArray<float>& d, int offset, std::int64_t n,
          const Scratch& s, DeviceArray<float>& out) {
  return rb::test::sum_into(v, d.get() + offset, n, s.mem.get(), out.get());
}

// One n on the one-tile grid: its scratch and result, a call on host data (uploaded for it), and
// whether the word and every slot are zero again.
struct Calls {
  explicit Calls(std::int64_t count) : n(count), s(count), out(1) {}
  float sum(const std::vector<float>& x) { return run(Grid::variant(), rb::test::upload(x), 0, n, s, out); }
  bool zeroed() const { return nonzero_bytes(s.mem.get(), s.bytes) == 0; }
  std::int64_t n;
  Scratch s;
  DeviceArray<float> out;
};

TEST(FinishFixed, SmallIntegersExactOnEveryGridAndBothKernels) {
  RB_REQUIRE_GPU();
  const std::int64_t most = FinishFixed::kMaxGrid * kTile;
  const auto x = small_integers(most + 8, 21);
  const auto d = rb::test::upload(x);
  Scratch s(most);
  DeviceArray<float> out(1);
  for (const auto& v : {Grid::variant(), Looping::variant()}) {
    for (const int offset : {0, 1, 3}) {
      for (const std::int64_t n : {std::int64_t{5}, kTile - 1, kTile + 1, 2 * kTile + 7, 37 * kTile + 1029,
                                   96 * kTile - 1, most}) {
        SCOPED_TRACE(testing::Message() << "offset " << offset << ", n " << n << ", grid " << v.geometry(n).grid);
        EXPECT_EQ(run(v, d, offset, n, s, out), exact_sum(std::span(x).subspan(offset, n)));
        EXPECT_EQ(nonzero_bytes(s.mem.get(), s.bytes), 0) << "word or slots not put back to zero";
      }
    }
  }
}

TEST(FinishFixed, RandomDataWithinTheBoundAndTheSameBitsEveryRun) {
  RB_REQUIRE_GPU();
  const std::int64_t most = 96 * kTile;
  for (const std::uint64_t seed : {std::uint64_t{3}, std::uint64_t{4}}) {
    const auto x = seed == 3 ? rb::test::random_signed(most + 8, seed) : rb::test::ill_conditioned(most + 8, seed);
    const auto d = rb::test::upload(x);
    Scratch s(most);
    DeviceArray<float> out(1);
    for (const std::int64_t n : {3 * kTile + 5, 32 * kTile, 64 * kTile + 11, most}) {
      SCOPED_TRACE(testing::Message() << "seed " << seed << ", n " << n);
      const float first = run(Grid::variant(), d, 1, n, s, out);
      RB_EXPECT_SUM(first, std::span(x).subspan(1, n), Acc::f32_tree);
      for (int r = 0; r < 10; ++r) {
        const float again = run(Grid::variant(), d, 1, n, s, out);
        EXPECT_EQ(std::memcmp(&again, &first, sizeof(float)), 0) << "run " << r << ": " << again << " vs " << first;
      }
      EXPECT_EQ(nonzero_bytes(s.mem.get(), s.bytes), 0);
    }
  }
}

// Where every partial fits, no slot is read or emptied: a word planted in one stays. Where two
// blocks' partials (4096 x 100) reach past the grid the sample sets (largest |x| 8: 2^18), those
// blocks take the slot path and the last block adds every non-empty slot, the planted one too
// (which shows that path ran), and empties them; the fitting blocks' partials stay exact.
TEST(FinishFixed, PartialsBeyondTheGridTakeTheSlotPath) {
  RB_REQUIRE_GPU();
  Calls c(40 * kTile + 5);
  const auto fits = small_integers(c.n, 22);
  auto beyond = fits;
  fill_tile_unsampled(beyond, 2, 100.0f);
  fill_tile_unsampled(beyond, 5, 100.0f);
  const unsigned planted = slot_word(1000.0f);

  c.s.set_slot(7, planted);
  EXPECT_EQ(c.sum(fits), exact_sum(fits));
  EXPECT_EQ(c.s.get_slot(7), planted) << "the fast path read or emptied a slot";

  EXPECT_EQ(c.sum(beyond), exact_sum(beyond) + 1000.0);
  EXPECT_TRUE(c.zeroed()) << "the slot path left a slot or the word set";
  for (int r = 0; r < 5; ++r) EXPECT_EQ(c.sum(beyond), exact_sum(beyond));
  EXPECT_EQ(c.sum(fits), exact_sum(fits));
  EXPECT_TRUE(c.zeroed());
}

// No grid: an infinite sample, or a largest |x| of 2^-117 (bottom below -126); every block takes
// the slot path and the sum is still exact. A NaN outside the sample: its block's partial is NaN,
// and so is the sum. A clean call after each gives the exact sum again.
TEST(FinishFixed, NoGridOrNanStillCorrect) {
  RB_REQUIRE_GPU();
  Calls c(29 * kTile + 3);
  const auto sampled = sampled_elements(c.n);
  rb::test::expect_no_grid_or_nan_correct<float>(
      small_integers(c.n, 23), -120, sampled[4 * 9], 11 * kTile + 77,
      [&c](const std::vector<float>& x) { return c.sum(x); }, [&c] { return c.zeroed(); });
}

// cuda/onepass's Wide grid (tiles of 256 x 8, one per block, 1.5 to 4 MiB) is completed by
// FinishFixed too: small integers exactly and random data within the bound and the same bits every
// run, at grids from 2 to 128 blocks, the scratch left zeroed.
using Wide = rb::cuda::OneTileGrid<float, rb::cuda::OnepassWideShape, float, FinishFixed>;
static_assert(std::is_same_v<rb::cuda::OnepassTuned<float, rb::cuda::OnepassSm90Tuning>::Wide, Wide>,
              "cuda/onepass's float Wide grid is the one tested here");

TEST(FinishFixed, WideGridExactAndWithinTheBound) {
  RB_REQUIRE_GPU();
  constexpr std::int64_t tile = Wide::kTile;
  const std::int64_t most = FinishFixed::kMaxGrid * tile;
  const auto ints = small_integers(most + 8, 25);
  const auto random = rb::test::random_signed(most + 8, 26);
  const auto di = rb::test::upload(ints);
  const auto dr = rb::test::upload(random);
  Scratch s(most);  // the Mid grid's scratch for most: more slots than Wide's 128 blocks use
  DeviceArray<float> out(1);
  const auto v = Wide::variant();
  for (const int offset : {0, 3}) {
    for (const std::int64_t n : {tile + 1, 48 * tile, 65 * tile + 7, 97 * tile - 1, most}) {
      SCOPED_TRACE(testing::Message() << "offset " << offset << ", n " << n << ", grid " << v.geometry(n).grid);
      EXPECT_EQ(run(v, di, offset, n, s, out), exact_sum(std::span(ints).subspan(offset, n)));
      const float first = run(v, dr, offset, n, s, out);
      RB_EXPECT_SUM(first, std::span(random).subspan(offset, n), Acc::f32_tree);
      for (int r = 0; r < 3; ++r) {
        const float again = run(v, dr, offset, n, s, out);
        EXPECT_EQ(std::memcmp(&again, &first, sizeof(float)), 0) << "run " << r << ": " << again << " vs " << first;
      }
      EXPECT_EQ(nonzero_bytes(s.mem.get(), s.bytes), 0) << "word or slots not put back to zero";
    }
  }
}

// One block more than the count fields hold is refused before any launch; the grid's roundings
// are stated (1 float addition per 16 blocks of 4096 floats).
TEST(FinishFixed, GridBeyondItsCountFieldsRefusedAndRoundingsStated) {
  RB_REQUIRE_GPU();
  const std::int64_t n = FinishFixed::kMaxGrid * kTile + 1;
  const auto x = small_integers(n, 24);
  const auto d = rb::test::upload(x);
  Scratch s(n);
  DeviceArray<float> out(1);
  EXPECT_THROW(Grid::sum(d.get(), n, s.mem.get(), out.get(), nullptr), std::invalid_argument);
  EXPECT_EQ(Grid::geometry(32 * kTile).window_roundings, 2);
  EXPECT_EQ(Grid::geometry(33 * kTile).window_roundings, 3);
  EXPECT_EQ(FinishFixed::window_roundings<float>(96, 8192), 12);  // 16-bit input: tiles of 8192 elements
}

}  // namespace
