// Compiled with the OpenMP flags (kernels/cpu/CMakeLists.txt); nothing else in rb_kernels_cpu is.
#include <omp.h>

#include "kernels/cpu/openmp.hpp"

namespace rb::cpu {

const char* openmp_unavailable() noexcept { return ""; }

int openmp_max_threads() noexcept { return omp_get_max_threads(); }

namespace {

template <class P>
P reduce(const void* data, std::int64_t n, int threads, std::int64_t min_chunk, std::int64_t align,
         ChunkKernel<P> kernel) {
  const int parts = parts_for(n, threads, min_chunk);
  if (parts == 1) return kernel(data, 0, n);  // too small to be worth waking the team
  P sum = 0;
#pragma omp parallel for num_threads(parts) schedule(static, 1) reduction(+ : sum)
  for (int t = 0; t < parts; ++t) {
    const Range r = chunk(n, parts, t, align);
    sum += kernel(data, r.begin, r.end - r.begin);
  }
  return sum;
}

}  // namespace

double openmp_reduce(const void* data, std::int64_t n, int threads, std::int64_t min_chunk, std::int64_t align,
                     ChunkKernel<double> kernel) {
  return reduce(data, n, threads, min_chunk, align, kernel);
}

std::int64_t openmp_reduce(const void* data, std::int64_t n, int threads, std::int64_t min_chunk,
                           std::int64_t align, ChunkKernel<std::int64_t> kernel) {
  return reduce(data, n, threads, min_chunk, align, kernel);
}

}  // namespace rb::cpu
