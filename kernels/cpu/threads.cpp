#include "kernels/cpu/threads.hpp"

namespace rb::cpu {

double pool_reduce(ThreadPool& pool, std::vector<Partial>& partials, const float* data,
                   std::int64_t n, std::int64_t min_chunk, ChunkKernel kernel) noexcept {
  const int parts = parts_for(n, pool.size(), min_chunk);
  if (parts == 1) return kernel(data, n);  // too small to be worth a wake-up
  auto share = [&](int t) noexcept {
    if (t >= parts) return;
    const Range r = chunk(n, parts, t);
    partials[static_cast<std::size_t>(t)].value = kernel(data + r.begin, r.end - r.begin);
  };
  pool.run(share);
  double sum = 0;
  for (int t = 0; t < parts; ++t) sum += partials[static_cast<std::size_t>(t)].value;
  return sum;
}

}  // namespace rb::cpu
