#pragma once
// The exact check's data (the check itself: bench/detail/verify.hpp).
//   dense   the nonzero integers in [-8, 8] of --dist=integers at every index (common/synth.hpp):
//           every partial sum of any order stays far below 2^24, exact in float and double.
//   sparse  for a row that adds in a 16-bit float or returns one: a 16-bit type is exact for
//           integers only up to 2^11 (f16) or 2^8 (bf16), and the dense data's partial sums pass
//           that, so it gets at most kSparseCount nonzero integers in [-4, 4] over zeros: sum|x| <=
//           192, so every partial sum of any order is exact in both. They sit at the first and last
//           16 indices (a dropped head, tail or vector remainder changes the sum) and 16 hashed
//           ones (a dropped block there does). Weaker than dense: a dropped zero goes unseen.
#include <cstdint>
#include <vector>

#include "bench/api/summation.hpp"
#include "common/dtype.hpp"

namespace rb::bench {

enum class ExactData { dense, sparse };

// Which exact data set a buffer holds (bench/detail/exact_data.hpp): the runners ask for the same one
// more than once per case, and at 2^28 rewriting it costs a copy of the input.
struct ExactFill {
  std::int64_t n = -1;
  int set = -1;
  Dtype dtype = Dtype::f32;
  ExactData data = ExactData::dense;
  bool operator==(const ExactFill&) const = default;
};

// Sparse for a 16-bit accumulator, and for a float sum rounded to a 16-bit result (the dense
// integers' sum itself is not exact in bf16 past 256).
constexpr ExactData exact_data_for(const Structure& s) {
  return is_16bit(s.acc) || s.result_u > 0 ? ExactData::sparse : ExactData::dense;
}

inline constexpr int kSparseCount = 48;

// The nonzeros of the sparse data set of `seed` at n: distinct indices in [0, n), ascending, and
// their values (neighbouring indices differ in parity, as the dense data's do).
struct SparseSet {
  std::vector<std::int64_t> index;
  std::vector<float> value;
};
SparseSet sparse_set(std::uint64_t seed, std::int64_t n);

}  // namespace rb::bench
