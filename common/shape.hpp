#pragma once
// A sum along one dimension: x as B rows of N elements, row-major, and the axis summed:
//   Axis::rows  out[r] = x[r][0] + ... + x[r][N-1]   B outputs   (torch.sum(x, dim=1))
//   Axis::cols  out[j] = x[0][j] + ... + x[B-1][j]   N outputs   (torch.sum(x, dim=0))
// The one-dimensional sum of n elements is the shape 1 x n summed along its rows.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rb {

enum class Axis { rows, cols };

struct Shape2D {
  std::int64_t rows = 0;  // B
  std::int64_t cols = 0;  // N, the row length
  Axis axis = Axis::rows;
  std::int64_t outputs() const noexcept { return axis == Axis::rows ? rows : cols; }
  std::int64_t elements() const noexcept { return rows * cols; }
  // The length of each output's sum: N for rows, B for columns.
  std::int64_t summed() const noexcept { return axis == Axis::rows ? cols : rows; }
  bool operator==(const Shape2D&) const = default;
};

// "BxN" for rows, "BxN/cols" for columns: the shape's part of a benchmark name.
std::string shape_name(const Shape2D& s);

// --shapes: a comma-separated list of items, each one of
//   BxN          B rows of N summed along the rows (B, N in the sizes grammar: 4096, 2^12, 4Ki)
//   BxN/cols     the same array summed along its columns
//   T:N1..N2     every power-of-4 row length N from N1 to N2 at total T (B = T / N), rows and
//                columns: "2^28:1..2^28"
//   default      the default set: T:1..T for T = 2^24 and 2^28, rows and columns
// Each shape is listed once, in order of first appearance. Throws std::invalid_argument naming
// the offending item (a zero dimension, B x N above kMaxSize, N not dividing T, ...).
std::vector<Shape2D> parse_shapes(std::string_view text);
// The set `default` stands for.
std::vector<Shape2D> default_shapes();

}  // namespace rb
