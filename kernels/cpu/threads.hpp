#pragma once
// Runtime 1: the persistent thread pool (thread_pool.hpp) over any serial kernel.
//   Threads<avx2_f32> sum(threads);   // threads start here, once
//   double s = sum(data, n);          // wakes them; no thread is created per call
// Thread t sums chunk t (parallel.hpp) with the serial kernel and writes its partial, as a
// double, to its own cache line; the partials are then added in thread order, so the result
// depends on n and the thread count only, never on timing.
#include <cstdint>
#include <vector>

#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/thread_pool.hpp"

namespace rb::cpu {

// One partial per thread, alone on its cache line: neighbours writing theirs at the end of a
// chunk would otherwise bounce the line between cores (false sharing).
struct alignas(64) Partial {
  double value = 0;
};

// The sum of data[0, n) on `pool`, one chunk per thread (partials.size() >= pool.size()).
double pool_reduce(ThreadPool& pool, std::vector<Partial>& partials, const float* data,
                   std::int64_t n, std::int64_t min_chunk, ChunkKernel kernel) noexcept;

template <auto Kernel>
class Threads {
 public:
  explicit Threads(int threads = default_thread_count(), std::int64_t min_chunk = kMinChunk)
      : pool_(threads), partials_(static_cast<std::size_t>(pool_.size())), min_chunk_(min_chunk) {}

  double operator()(const float* data, std::int64_t n) noexcept {
    return pool_reduce(pool_, partials_, data, n, min_chunk_, &as_chunk_kernel<Kernel>);
  }
  int threads() const noexcept { return pool_.size(); }
  int parts(std::int64_t n) const noexcept { return parts_for(n, pool_.size(), min_chunk_); }

 private:
  ThreadPool pool_;
  std::vector<Partial> partials_;
  std::int64_t min_chunk_;
};

}  // namespace rb::cpu
