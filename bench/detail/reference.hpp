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
  double max_abs = 0;  // the largest |x| among them: the scale of a binned accumulator's loss
  // Among the finite values: how many are zero, and how many have |x| = max_abs (an i32 input
  // saturated at its limit shows there: bench/detail/stored_input.hpp).
  std::int64_t zeros = 0;
  std::int64_t at_max = 0;
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

// A prefix scan over x: extend() moves it forward to cover more sizes, never reading an element
// twice, so the references of a whole sweep cost one pass over its largest n, and a size that is
// never run (too large for memory) is never scanned. Chunks are summed in parallel with TwoSum
// compensation and combined in order: the result does not depend on the thread count and is
// accurate to about one double rounding.
class ReferenceScan {
 public:
  explicit ReferenceScan(ChunkSource source) : source_(std::move(source)) {}
  // sizes: sorted, unique, none below the sizes already covered. Returns their references.
  std::vector<Reference> extend(std::span<const std::int64_t> sizes);
  std::int64_t covered() const noexcept { return pos_; }

 private:
  struct Partial {
    double hi = 0, lo = 0, abs = 0, max_abs = 0;
    std::int64_t zeros = 0, at_max = 0, nan = 0, pos_inf = 0, neg_inf = 0;
    void add(const Partial& o);
  };
  static Partial sum_chunk(const float* x, std::int64_t count);

  ChunkSource source_;
  Partial total_;
  std::int64_t pos_ = 0;
};

// The references at every size in one scan from 0.
std::vector<Reference> compute_references(std::span<const std::int64_t> sizes, const ChunkSource& source);

}  // namespace rb::bench
