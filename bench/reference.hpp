#pragma once
// The fp64 reference every backend is judged against.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace rb::bench {

struct Reference {
  std::int64_t n = 0;
  double sum = 0;      // compensated (double-double) sum of the finite values, rounded to double
  double sum_abs = 0;  // sum of |x| over the finite values: the scale of the rounding error
  std::int64_t nan = 0;
  std::int64_t pos_inf = 0;
  std::int64_t neg_inf = 0;

  bool finite() const noexcept { return nan == 0 && pos_inf == 0 && neg_inf == 0; }
  // What IEEE arithmetic must give: NaN if any NaN or both infinities are present, else the
  // infinity present, else the finite sum.
  double expected() const noexcept;
};

// Returns a pointer to x[begin, end): either into resident data, or into `scratch` (room for
// end - begin floats) after filling it.
using ChunkSource = std::function<const float*(std::int64_t begin, std::int64_t end, float* scratch)>;

// One pass over x[0, sizes.back()) computing the reference at every size (sizes sorted,
// unique). Chunks are summed in parallel with TwoSum compensation and combined in order, so the
// result is independent of the thread count and accurate to about one double rounding.
std::vector<Reference> compute_references(std::span<const std::int64_t> sizes,
                                          const ChunkSource& source);

}  // namespace rb::bench
