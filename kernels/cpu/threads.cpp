#include "kernels/cpu/threads.hpp"

namespace rb::cpu {
namespace {

// Both element paths: `sum_chunk(begin, count)` is one chunk's partial, in P.
template <class P, class SumChunk>
P reduce_on_pool(ThreadPool& pool, std::vector<PartialOf<P>>& partials, std::int64_t n, std::int64_t min_chunk,
                 std::int64_t align, SumChunk sum_chunk) noexcept {
  const int parts = parts_for(n, pool.size(), min_chunk);
  if (parts == 1) return sum_chunk(0, n);  // too small to be worth a wake-up
  auto share = [&](int t) noexcept {
    if (t >= parts) return;
    const Range r = chunk(n, parts, t, align);
    partials[static_cast<std::size_t>(t)].value = sum_chunk(r.begin, r.end - r.begin);
  };
  pool.run(share);
  P sum = 0;
  for (int t = 0; t < parts; ++t) sum += partials[static_cast<std::size_t>(t)].value;
  return sum;
}

}  // namespace

double pool_reduce(ThreadPool& pool, std::vector<Partial>& partials, const float* data,
                   std::int64_t n, std::int64_t min_chunk, ChunkKernel kernel) noexcept {
  return reduce_on_pool<double>(pool, partials, n, min_chunk, kChunkAlign,
                                [&](std::int64_t begin, std::int64_t count) noexcept {
                                  return kernel(data + begin, count);
                                });
}

double pool_reduce_erased(ThreadPool& pool, std::vector<PartialOf<double>>& partials, const void* data,
                          std::int64_t n, std::int64_t min_chunk, std::int64_t align,
                          ErasedChunk<double> kernel) noexcept {
  return reduce_on_pool<double>(pool, partials, n, min_chunk, align,
                                [&](std::int64_t begin, std::int64_t count) noexcept {
                                  return kernel(data, begin, count);
                                });
}

std::int64_t pool_reduce_erased(ThreadPool& pool, std::vector<PartialOf<std::int64_t>>& partials,
                                const void* data, std::int64_t n, std::int64_t min_chunk, std::int64_t align,
                                ErasedChunk<std::int64_t> kernel) noexcept {
  return reduce_on_pool<std::int64_t>(pool, partials, n, min_chunk, align,
                                      [&](std::int64_t begin, std::int64_t count) noexcept {
                                        return kernel(data, begin, count);
                                      });
}

}  // namespace rb::cpu
