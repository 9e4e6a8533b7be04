#pragma once
// Runtime 3: the C++17 parallel algorithms (libstdc++'s PSTL, which runs on oneTBB).
//
// Two different things carry the std:: name here, and the registration keeps them apart:
//   std_reduce_par / std_reduce_par_unseq: `std::reduce(policy, first, last, 0.0f)` over the
//       raw floats, exactly as a user writes it. Its kernel is the library's: TBB's
//       parallel_reduce over leaves that libstdc++ sums with its serial transform_reduce (par:
//       groups of 4 added pairwise into one float accumulator, ~4x std::accumulate) or with an
//       `omp simd` float loop (par_unseq: libstdc++ spells unsequenced as that pragma, which GCC
//       honours only with -fopenmp-simd, so this file gets that flag). These are
//       `cpu/std_reduce_par[_unseq]`: they answer "what does the standard library give me", so
//       they must not secretly call our kernels.
//   StdPar<Kernel>: `std::for_each(par, blocks)` calling one of our serial kernels per block,
//       partials in double, added in block order (deterministic). This is the std::execution
//       *runtime* composed with a kernel, registered as `cpu/<kernel>/std_par`.
// Both use the TBB worker pool, created once per process and kept.
//
// Optional: without TBB at configure time, libstdc++ would silently run par sequentially;
// pstl_none.cpp is built instead and pstl_unavailable() says why.
#include <cstdint>
#include <type_traits>

#include "kernels/cpu/parallel.hpp"

namespace rb::cpu {

// Empty when built with TBB; otherwise why not.
const char* pstl_unavailable() noexcept;
// TBB's default concurrency (this_task_arena::max_concurrency); 1 without TBB.
int pstl_threads() noexcept;

float std_reduce_par(const float* data, std::int64_t n);
float std_reduce_par_unseq(const float* data, std::int64_t n);

// At most this many blocks of `align`-element multiples; blocks hold at least min_block elements.
inline constexpr int kMaxPstlBlocks = 256;
double pstl_reduce(const void* data, std::int64_t n, std::int64_t min_block, std::int64_t align,
                   ChunkKernel<double> kernel);

// std::reduce(par) / (par_unseq) over raw floats, shaped as a runtime for the registration.
// TBB's partitioner chooses the leaves and joins them in float, so no split can be promised:
// parts() says one, and the registration states the worst case, one float chain over n.
struct StdReducePar {
  using element_type = float;
  float operator()(const float* data, std::int64_t n) const { return std_reduce_par(data, n); }
  int threads() const noexcept { return pstl_threads(); }
  int parts(std::int64_t) const noexcept { return 1; }
};

struct StdReduceParUnseq {
  using element_type = float;
  float operator()(const float* data, std::int64_t n) const { return std_reduce_par_unseq(data, n); }
  int threads() const noexcept { return pstl_threads(); }
  int parts(std::int64_t) const noexcept { return 1; }
};

template <auto Kernel>
  requires std::is_same_v<PartialType<Kernel>, double>
class StdPar : public ChunkedRuntime<Kernel> {
  using Chunked = ChunkedRuntime<Kernel>;

 public:
  explicit StdPar(std::int64_t min_block = kMinChunk) : min_block_(min_block) {}

  double operator()(const typename Chunked::element_type* data, std::int64_t n) const {
    return pstl_reduce(data, n, min_block_, Chunked::chunk_align, Chunked::chunk_kernel);
  }
  int threads() const noexcept { return pstl_threads(); }
  int parts(std::int64_t n) const noexcept { return parts_for(n, kMaxPstlBlocks, min_block_); }

 private:
  std::int64_t min_block_;
};

}  // namespace rb::cpu
