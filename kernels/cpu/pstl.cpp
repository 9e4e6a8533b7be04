// Compiled with TBB and -fopenmp-simd (kernels/cpu/CMakeLists.txt). libstdc++ picks its TBB
// backend when <tbb/tbb.h> is on the include path, which TBB::tbb guarantees here.
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <execution>
#include <numeric>

#include "kernels/cpu/pstl.hpp"

namespace rb::cpu {
namespace {

// Block indices as a random-access range: the PSTL dispatches on the iterator category and
// runs a forward/input range (such as std::views::iota's) sequentially.
constexpr std::array<int, kMaxPstlBlocks> kBlockIds = [] {
  std::array<int, kMaxPstlBlocks> ids{};
  std::iota(ids.begin(), ids.end(), 0);
  return ids;
}();

}  // namespace

const char* pstl_unavailable() noexcept { return ""; }

int pstl_threads() noexcept { return tbb::this_task_arena::max_concurrency(); }

float std_reduce_par(const float* data, std::int64_t n) {
  return std::reduce(std::execution::par, data, data + n, 0.0f);
}

float std_reduce_par_unseq(const float* data, std::int64_t n) {
  return std::reduce(std::execution::par_unseq, data, data + n, 0.0f);
}

double pstl_reduce(const void* data, std::int64_t n, std::int64_t min_block, std::int64_t align,
                   ChunkKernel<double> kernel) {
  const int blocks = parts_for(n, kMaxPstlBlocks, min_block);
  if (blocks == 1) return kernel(data, 0, n);
  // 2 KiB on the stack; each entry is written once per block of >= min_block floats, so
  // neighbours sharing a line cost nothing measurable.
  std::array<double, kMaxPstlBlocks> partial;
  std::for_each(std::execution::par, kBlockIds.begin(), kBlockIds.begin() + blocks, [&](int b) {
    const Range r = chunk(n, blocks, b, align);
    partial[static_cast<std::size_t>(b)] = kernel(data, r.begin, r.end - r.begin);
  });
  return std::accumulate(partial.begin(), partial.begin() + blocks, 0.0);
}

}  // namespace rb::cpu
