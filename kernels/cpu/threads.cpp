#include "kernels/cpu/threads.hpp"

namespace rb::cpu {
namespace {

template <class P>
P reduce_on_pool(ThreadPool& pool, std::vector<PartialOf<P>>& partials, const void* data, std::int64_t n,
                 std::int64_t min_chunk, std::int64_t align, ChunkKernel<P> kernel) noexcept {
  const int parts = parts_for(n, pool.size(), min_chunk);
  if (parts == 1) return kernel(data, 0, n);  // too small to be worth a wake-up
  auto share = [&](int t) noexcept {
    if (t >= parts) return;
    const Range r = chunk(n, parts, t, align);
    partials[static_cast<std::size_t>(t)].value = kernel(data, r.begin, r.end - r.begin);
  };
  pool.run(share);
  P sum = 0;
  for (int t = 0; t < parts; ++t) sum += partials[static_cast<std::size_t>(t)].value;
  return sum;
}

}  // namespace

double pool_reduce(ThreadPool& pool, std::vector<PartialOf<double>>& partials, const void* data, std::int64_t n,
                   std::int64_t min_chunk, std::int64_t align, ChunkKernel<double> kernel) noexcept {
  return reduce_on_pool(pool, partials, data, n, min_chunk, align, kernel);
}

std::int64_t pool_reduce(ThreadPool& pool, std::vector<PartialOf<std::int64_t>>& partials, const void* data,
                         std::int64_t n, std::int64_t min_chunk, std::int64_t align,
                         ChunkKernel<std::int64_t> kernel) noexcept {
  return reduce_on_pool(pool, partials, data, n, min_chunk, align, kernel);
}

}  // namespace rb::cpu
