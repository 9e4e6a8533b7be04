#pragma once
// What the parallel runtimes (threads.hpp, openmp.hpp, pstl.hpp) share: how they call a serial
// kernel, and how they cut [0, n) into per-thread chunks.
//
// Composition: a runtime takes any serial kernel `R kernel(const T*, std::int64_t)` as a template
// argument (Threads<avx2_f32>, Threads<avx2_bf16>), turns it into a ChunkKernel (the partial sum of
// one chunk, its element type erased) and hands that function pointer to a non-template reduce
// function compiled once, in its own file, with its own flags (-fopenmp, TBB). The partials are
// combined in double for a floating result, so the parallel layer adds no float rounding of its
// own, and in int64 for an integer one: the i32 partials are added exactly, never in double.
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <type_traits>

namespace rb::cpu {

// What a kernel `R f(const T*, std::int64_t)` reads and returns.
template <class F>
struct KernelSignature;
template <class R, class T>
struct KernelSignature<R (*)(const T*, std::int64_t) noexcept> {
  using input = T;
  using result = R;
};
template <class R, class T>
struct KernelSignature<R (*)(const T*, std::int64_t)> : KernelSignature<R (*)(const T*, std::int64_t) noexcept> {};
template <auto Kernel>
using KernelInput = typename KernelSignature<decltype(Kernel)>::input;
// The partial a runtime keeps per chunk: int64 for an integer kernel (exact), double otherwise.
template <auto Kernel>
using PartialType =
    std::conditional_t<std::integral<typename KernelSignature<decltype(Kernel)>::result>, std::int64_t, double>;

// A kernel's partial of data[begin, begin + count), data being its T array seen as void.
template <class P>
using ChunkKernel = P (*)(const void* data, std::int64_t begin, std::int64_t count) noexcept;

template <auto Kernel>
PartialType<Kernel> as_chunk_kernel(const void* data, std::int64_t begin, std::int64_t count) noexcept {
  return static_cast<PartialType<Kernel>>(Kernel(static_cast<const KernelInput<Kernel>*>(data) + begin, count));
}

// Chunk boundaries fall on multiples of 64 bytes from the start (one cache line when the input is
// aligned: 16 floats or int32, 8 doubles, 32 f16 or bf16), so no two threads share a line and
// every chunk but the last starts where the full-width vector loop of the kernel lines up.
template <class T>
inline constexpr std::int64_t kChunkAlignOf = 64 / static_cast<std::int64_t>(sizeof(T));

// What a runtime over Kernel names (bench/backends/cpu_runtime.hpp reads element_type): its element,
// its partial and result (double, or int64 for an integer kernel), its chunks' alignment in
// elements and the kernel as the runtimes call it, its element type erased.
template <auto Kernel>
struct ChunkedRuntime {
  using element_type = KernelInput<Kernel>;
  using result_type = PartialType<Kernel>;
  static constexpr std::int64_t chunk_align = kChunkAlignOf<element_type>;
  static constexpr ChunkKernel<result_type> chunk_kernel = &as_chunk_kernel<Kernel>;
};

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

// Part i of [0, n) cut into `parts` pieces of equal size rounded up to `align` elements; the last
// pieces may be shorter or empty (n = 33 in 4 parts: 16, 16, 1, 0).
constexpr Range chunk(std::int64_t n, int parts, int i, std::int64_t align = kChunkAlignOf<float>) noexcept {
  const std::int64_t per = (n + parts - 1) / parts;
  const std::int64_t step = (per + align - 1) / align * align;
  const std::int64_t begin = std::min(n, step * i);
  return {begin, std::min(n, begin + step)};
}

}  // namespace rb::cpu
