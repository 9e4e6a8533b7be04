#pragma once
// How the vectorised kernels see x[0, n): a scalar head up to the first 16-byte boundary, a body
// of float4s, a scalar tail of fewer than 4 floats; and how the body is shared out over blocks.
// Computed on the host, once per launch, and passed to the kernel by value.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace rb::cuda {

__host__ __device__ constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

struct Split {
  const float* head;   // x[0, head_n): before the first 16-byte boundary (0 to 3 floats)
  const float4* body;  // then body_n float4s, 16-byte aligned
  const float* tail;   // then tail_n floats (0 to 3)
  std::int64_t body_n;
  int head_n;
  int tail_n;

  // Thread t's share of the head and tail: at most one float each for threads 0 to 5.
  __host__ __device__ __forceinline__ float edge(int t) const {
    if (t < head_n) return head[t];
    t -= head_n;
    return t < tail_n ? tail[t] : 0.0f;
  }
};

// x may start at any float (4-byte) boundary; n may be 0 (x may then be null).
inline Split split_aligned(const float* x, std::int64_t n) {
  if (n < 0) throw std::invalid_argument("negative element count");
  const auto misalign = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(x) % 16);
  if (misalign % static_cast<std::int64_t>(sizeof(float)) != 0) {
    throw std::invalid_argument("input is not aligned to a float");
  }
  const std::int64_t head = std::min(n, (16 - misalign) % 16 / 4);
  const std::int64_t body = (n - head) / 4;
  const std::int64_t tail = n - head - 4 * body;
  return {x, reinterpret_cast<const float4*>(x + head), x + head + 4 * body, body,
          static_cast<int>(head), static_cast<int>(tail)};
}

struct Range {
  std::int64_t begin, end;
};

// Splits `items` float4s into rows of `row` (one float4 per thread of a block) and hands every
// block q or q + 1 consecutive rows (the first r blocks get the extra one): contiguous chunks that
// differ by at most one row, so no block finishes a whole tile after the others. Every chunk
// starts on a row boundary; only the last row of the body may be partial.
struct EvenShare {
  std::int64_t items;
  std::int64_t q;  // rows every block gets
  std::int64_t r;  // blocks [0, r) get one more
  int row;

  static EvenShare make(std::int64_t items, int row, int grid) {
    const std::int64_t rows = ceil_div(items, row);
    return {items, rows / grid, rows % grid, row};
  }

  __host__ __device__ __forceinline__ Range block(std::int64_t b) const {
    const std::int64_t first = b * q + (b < r ? b : r);
    const std::int64_t last = first + q + (b < r ? 1 : 0);
    const std::int64_t begin = first * row, end = last * row;
    return {begin < items ? begin : items, end < items ? end : items};
  }
};

// Blocks for n floats when each block should read at least one full tile and at most max_grid
// blocks run: a small n gets a grid sized to its work (no idle blocks to launch and retire), a
// large n the whole machine. At least 1, so n = 0 still writes 0.
inline int work_sized_grid(std::int64_t n, std::int64_t tile_floats, int max_grid) {
  return static_cast<int>(std::clamp<std::int64_t>(ceil_div(n, tile_floats), 1, max_grid));
}

}  // namespace rb::cuda
