#pragma once
// How the vectorised kernels see x[0, n): a scalar head up to the first 16-byte boundary, a body
// of 16-byte vectors, a scalar tail of less than one vector; and how the body is shared out over
// blocks. Computed on the host, once per launch, and passed to the kernel by value. Generic over
// the element type T (16 / sizeof(T) elements per vector); Split is the float instance.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

namespace rb::cuda {

__host__ __device__ constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// The 16-byte vector a body of T is loaded as: float4, double2, int4, or the bits of eight 16-bit
// floats (uint4; kernels/cuda/elements.cuh converts them).
template <class T>
struct Vector16 {
  static_assert(sizeof(T) == 2 || std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, std::int32_t>,
                "float, double, int32, or a 16-bit floating-point type loaded as its bits");
  using type = std::conditional_t<
      std::is_same_v<T, float>, float4,
      std::conditional_t<std::is_same_v<T, double>, double2, std::conditional_t<sizeof(T) == 2, uint4, int4>>>;
};

template <class T>
struct SplitOf {
  using Vec = typename Vector16<T>::type;
  static constexpr int kPerVec = static_cast<int>(16 / sizeof(T));  // elements per vector

  const T* head;    // x[0, head_n): before the first 16-byte boundary (< kPerVec elements)
  const Vec* body;  // then body_n vectors, 16-byte aligned
  const T* tail;    // then tail_n elements (< kPerVec)
  std::int64_t body_n;
  int head_n;
  int tail_n;

  // Thread t's share of the head and tail: at most one element each for threads
  // [0, head_n + tail_n), zero (T{}) for the others.
  __host__ __device__ __forceinline__ T edge(int t) const {
    if (t < head_n) return head[t];
    t -= head_n;
    return t < tail_n ? tail[t] : T{};
  }
};

// The float split: head and tail of 0 to 3 floats, a body of float4s. A class of its own, not an
// alias, so that the kernels taking one keep their names.
struct Split : SplitOf<float> {};

// The split without the checks, for host and device code alike (a row of cuda/segmented): x on an
// element boundary, n >= 0.
template <class T>
__host__ __device__ __forceinline__ SplitOf<T> split_unchecked(const T* x, std::int64_t n) {
  using S = SplitOf<T>;
  constexpr auto kPerVec = std::int64_t{S::kPerVec};
  constexpr auto kSize = static_cast<std::int64_t>(sizeof(T));
  const auto misalign = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(x) % 16);
  const std::int64_t to_boundary = (16 - misalign) % 16 / kSize;
  const std::int64_t head = n < to_boundary ? n : to_boundary;
  const std::int64_t body = (n - head) / kPerVec;
  const std::int64_t tail = n - head - kPerVec * body;
  return {x, reinterpret_cast<const typename S::Vec*>(x + head), x + head + kPerVec * body, body,
          static_cast<int>(head), static_cast<int>(tail)};
}

// x may start at any element (sizeof(T)-byte) boundary; n may be 0 (x may then be null).
template <class T>
SplitOf<T> split_aligned(const T* x, std::int64_t n) {
  if (n < 0) throw std::invalid_argument("negative element count");
  if (reinterpret_cast<std::uintptr_t>(x) % sizeof(T) != 0) {
    throw std::invalid_argument("input is not aligned to its element type");
  }
  return split_unchecked(x, n);
}

// The float overload (also for a null x with n = 0).
inline Split split_aligned(const float* x, std::int64_t n) { return {split_aligned<float>(x, n)}; }

struct Range {
  std::int64_t begin, end;
};

// Splits `items` vectors into rows of `row` (one vector per thread of a block) and hands every
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

// Blocks for n elements when each block should read at least one full tile (of `tile` elements)
// and at most max_grid blocks run: a small n gets a grid sized to its work (no idle blocks to
// launch and retire), a large n the whole machine. At least 1, so n = 0 still writes 0.
inline int work_sized_grid(std::int64_t n, std::int64_t tile, int max_grid) {
  return static_cast<int>(std::clamp<std::int64_t>(ceil_div(n, tile), 1, max_grid));
}

}  // namespace rb::cuda
