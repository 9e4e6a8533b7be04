#pragma once
// Runtime 2: OpenMP over any serial kernel.
//   OpenMP<avx2_f32> sum;  double s = sum(data, n);
// One `parallel for reduction(+ : sum)` over one chunk per thread (parallel.hpp), each chunk
// summed by the serial kernel into a double. The OpenMP runtime keeps its threads between
// regions (libgomp: spin briefly, then sleep on a futex), so nothing is created per call.
// The reduction clause adds the thread partials in an unspecified order: the result can differ
// in the last bits of the double from run to run (the pool in threads.hpp is deterministic).
// A typed kernel (OpenMP<avx2_bf16>) is cut like the pool cuts it (threads.hpp); an integer
// kernel's partials are reduced in int64, exact in any order, so its sum is deterministic.
//
// Optional: without OpenMP at configure time, openmp_none.cpp is built instead and
// openmp_unavailable() says why.
#include <cstdint>
#include <type_traits>

#include "kernels/cpu/parallel.hpp"

namespace rb::cpu {

// Empty when built with OpenMP; otherwise why not.
const char* openmp_unavailable() noexcept;
// omp_get_max_threads(): the default team size (1 without OpenMP).
int openmp_max_threads() noexcept;
// The sum of data[0, n) with a team of `threads`, at least min_chunk elements per thread, chunks of
// `align`-element multiples, the kernel's element type erased (parallel.hpp).
double openmp_reduce(const void* data, std::int64_t n, int threads, std::int64_t min_chunk, std::int64_t align,
                     ChunkKernel<double> kernel);
std::int64_t openmp_reduce(const void* data, std::int64_t n, int threads, std::int64_t min_chunk,
                           std::int64_t align, ChunkKernel<std::int64_t> kernel);

template <auto Kernel>
class OpenMP : public ChunkedRuntime<Kernel> {
  using Chunked = ChunkedRuntime<Kernel>;

 public:
  explicit OpenMP(int threads = openmp_max_threads(), std::int64_t min_chunk = kMinChunk)
      : threads_(threads), min_chunk_(min_chunk) {}

  auto operator()(const typename Chunked::element_type* data, std::int64_t n) const {
    return openmp_reduce(data, n, threads_, min_chunk_, Chunked::chunk_align, Chunked::chunk_kernel);
  }
  int threads() const noexcept { return threads_; }
  int parts(std::int64_t n) const noexcept { return parts_for(n, threads_, min_chunk_); }

 private:
  int threads_;
  std::int64_t min_chunk_;
};

}  // namespace rb::cpu
