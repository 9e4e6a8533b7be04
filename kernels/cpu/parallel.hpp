#pragma once
// What the parallel runtimes (threads.hpp, openmp.hpp, pstl.hpp) share: how they call a serial
// kernel, and how they cut [0, n) into per-thread chunks.
//
// Composition: a runtime takes any serial kernel `R kernel(const float*, std::int64_t)` as a
// template argument (Threads<avx2_f32>), turns it into a ChunkKernel (the partial sum of one
// chunk, widened to double) and hands that function pointer to a non-template reduce function
// compiled once, in its own file, with its own flags (-fopenmp, TBB). The chunk partials are
// combined in double, so the parallel layer adds no float rounding of its own.
#include <algorithm>
#include <cstdint>

namespace rb::cpu {

using ChunkKernel = double (*)(const float* data, std::int64_t n) noexcept;

template <auto Kernel>
double as_chunk_kernel(const float* data, std::int64_t n) noexcept {
  return static_cast<double>(Kernel(data, n));
}

// Chunk boundaries fall on multiples of 16 floats from the start (64 bytes: one cache line when
// the input is aligned), so no two threads share a line and every chunk but the last starts
// where the full-width vector loop of the kernel lines up.
inline constexpr std::int64_t kChunkAlign = 16;

// Below this many floats per thread a split costs more than it saves. Measured on the 2-core
// KVM guest with Threads<avx2_f32>, back-to-back calls, in-cache data: 2^14 floats take 0.63 us
// on one thread and 0.59 us on two (break-even), 2^16 floats 2.84 us against 1.56 us. A pool
// idle for longer than its polling window (thread_pool.hpp) pays a futex wake-up on top, tens
// of microseconds on a VM. Tests pass 1 to exercise the split at every size.
inline constexpr std::int64_t kMinChunk = std::int64_t{1} << 14;

struct Range {
  std::int64_t begin;
  std::int64_t end;
};

// How many of `threads` threads get work for n floats: at least min_chunk floats each.
constexpr int parts_for(std::int64_t n, int threads, std::int64_t min_chunk) noexcept {
  const std::int64_t by_size = n / std::max<std::int64_t>(min_chunk, 1);
  return static_cast<int>(std::clamp<std::int64_t>(by_size, 1, std::max(threads, 1)));
}

// Part i of [0, n) cut into `parts` pieces of equal size rounded up to kChunkAlign; the last
// pieces may be shorter or empty (n = 33 in 4 parts: 16, 16, 1, 0).
constexpr Range chunk(std::int64_t n, int parts, int i) noexcept {
  const std::int64_t per = (n + parts - 1) / parts;
  const std::int64_t step = (per + kChunkAlign - 1) / kChunkAlign * kChunkAlign;
  const std::int64_t begin = std::min(n, step * i);
  return {begin, std::min(n, begin + step)};
}

}  // namespace rb::cpu
