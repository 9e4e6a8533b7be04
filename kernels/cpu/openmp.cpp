// Compiled with the OpenMP flags (kernels/cpu/CMakeLists.txt); nothing else in rb_kernels_cpu is.
#include <omp.h>

#include "kernels/cpu/openmp.hpp"

namespace rb::cpu {

const char* openmp_unavailable() noexcept { return ""; }

int openmp_max_threads() noexcept { return omp_get_max_threads(); }

double openmp_reduce(const float* data, std::int64_t n, int threads, std::int64_t min_chunk,
                     ChunkKernel kernel) {
  const int parts = parts_for(n, threads, min_chunk);
  if (parts == 1) return kernel(data, n);  // too small to be worth waking the team
  double sum = 0;
#pragma omp parallel for num_threads(parts) schedule(static, 1) reduction(+ : sum)
  for (int t = 0; t < parts; ++t) {
    const Range r = chunk(n, parts, t);
    sum += kernel(data + r.begin, r.end - r.begin);
  }
  return sum;
}

namespace {

template <class P>
P reduce_erased(const void* data, std::int64_t n, int threads, std::int64_t min_chunk, std::int64_t align,
                ErasedChunk<P> kernel) {
  const int parts = parts_for(n, threads, min_chunk);
  if (parts == 1) return kernel(data, 0, n);
  P sum = 0;
#pragma omp parallel for num_threads(parts) schedule(static, 1) reduction(+ : sum)
  for (int t = 0; t < parts; ++t) {
    const Range r = chunk(n, parts, t, align);
    sum += kernel(data, r.begin, r.end - r.begin);
  }
  return sum;
}

}  // namespace

double openmp_reduce_erased(const void* data, std::int64_t n, int threads, std::int64_t min_chunk,
                            std::int64_t align, ErasedChunk<double> kernel) {
  return reduce_erased(data, n, threads, min_chunk, align, kernel);
}

std::int64_t openmp_reduce_erased(const void* data, std::int64_t n, int threads, std::int64_t min_chunk,
                                  std::int64_t align, ErasedChunk<std::int64_t> kernel) {
  return reduce_erased(data, n, threads, min_chunk, align, kernel);
}

}  // namespace rb::cpu
