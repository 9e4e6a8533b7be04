#pragma once
// Runtime 1: the persistent thread pool (thread_pool.hpp) over any serial kernel.
//   Threads<avx2_f32> sum(threads);   // threads start here, once
//   double s = sum(data, n);          // wakes them; no thread is created per call
// Thread t sums chunk t (parallel.hpp) with the serial kernel and writes its partial, as a
// double, to its own cache line; the partials are then added in thread order, so the result
// depends on n and the thread count only, never on timing.
// A typed kernel (Threads<avx2_bf16>, Threads<avx512_i32>) sums the same way over its own element
// type, chunks cut on 64-byte boundaries (kChunkAlignOf<T>) and at least min_chunk elements each;
// an integer kernel's partials are int64 and added exactly, and the sum is returned as int64.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/thread_pool.hpp"

namespace rb::cpu {

// One partial per thread, alone on its cache line: neighbours writing theirs at the end of a
// chunk would otherwise bounce the line between cores (false sharing).
template <class P>
struct alignas(64) PartialOf {
  P value = 0;
};

// The sum of data[0, n) on `pool`, one chunk of `align`-element multiples per thread
// (partials.size() >= pool.size()), the kernel's element type erased (parallel.hpp).
double pool_reduce(ThreadPool& pool, std::vector<PartialOf<double>>& partials, const void* data, std::int64_t n,
                   std::int64_t min_chunk, std::int64_t align, ChunkKernel<double> kernel) noexcept;
std::int64_t pool_reduce(ThreadPool& pool, std::vector<PartialOf<std::int64_t>>& partials, const void* data,
                         std::int64_t n, std::int64_t min_chunk, std::int64_t align,
                         ChunkKernel<std::int64_t> kernel) noexcept;

template <auto Kernel>
class Threads : public ChunkedRuntime<Kernel> {
  using Chunked = ChunkedRuntime<Kernel>;

 public:
  explicit Threads(int threads = default_thread_count(), std::int64_t min_chunk = kMinChunk)
      : pool_(threads), partials_(static_cast<std::size_t>(pool_.size())), min_chunk_(min_chunk) {}

  auto operator()(const typename Chunked::element_type* data, std::int64_t n) noexcept {
    return pool_reduce(pool_, partials_, data, n, min_chunk_, Chunked::chunk_align, Chunked::chunk_kernel);
  }
  int threads() const noexcept { return pool_.size(); }
  int parts(std::int64_t n) const noexcept { return parts_for(n, pool_.size(), min_chunk_); }

 private:
  ThreadPool pool_;
  std::vector<PartialOf<typename Chunked::result_type>> partials_;
  std::int64_t min_chunk_;
};

}  // namespace rb::cpu
