#pragma once
// The harness's own kernels: none of them is ever inside the timed region.
#include <cuda_runtime.h>

#include <cstdint>

#include "bench/detail/exact_data.hpp"
#include "bench/detail/options.hpp"

namespace rb::bench::gpu {

// Busy-waits `cycles` SM clock cycles. Queued right before the start event, it keeps the GPU busy
// while the host enqueues the event and the backend's launches, so the host's launch latency
// falls outside the measurement (an idle GPU measures ~6.9 us for an empty kernel, a busy one
// ~2.7 us).
// It counts clock64() cycles, not %globaltimer: a spin that ends on a globaltimer tick records
// every start event at the same phase of the ~1 us event clock, and the quantisation then stops
// averaging out. Measured on the H200: CUB at 2^24 alternated between 21.09 and 22.08 us from one
// repetition to the next (cv 2.4%) with a globaltimer spin. The caller also dithers `cycles`.
void enqueue_spin(cudaStream_t stream, long long cycles);

// Reads `bytes` of `buf` (>= 2x L2) with 16-byte loads, evicting the input from L2. A read, not
// a memset: a memset leaves dirty lines that get written back during the timed kernel (CUB at
// 2^24 measured +30% after a memset flush).
void enqueue_l2_flush(cudaStream_t stream, const void* buf, std::size_t bytes, unsigned* sink, int sm_count);

// One 4-byte read at the start of each `page_bytes` page of `buf` (ColdFlush's page touch).
void enqueue_page_touch(cudaStream_t stream, const void* buf, std::size_t bytes, std::size_t page_bytes,
                        unsigned* sink);

// Copies the 16-byte result slot to `keep` (when not null), then fills the slot with NaN: the
// per-call check keeps the previous call's sum in the same launch that poisons the slot for the next.
void enqueue_keep_and_poison(cudaStream_t stream, void* slot, void* keep);

// x[i] = value for i in [0, count).
void enqueue_fill(cudaStream_t stream, float* x, std::int64_t count, float value);

// x[set.index[k]] = set.value[k] for every nonzero of a sparse exact data set (bench/detail/exact_data.hpp).
void enqueue_scatter(cudaStream_t stream, float* x, const SparseSet& set);

// dst[i] = src[i] stored as `d`, for i in [0, count): bitwise what bench/detail/element.hpp's store() gives.
void enqueue_store(cudaStream_t stream, Dtype d, const float* src, void* dst, std::int64_t count);

// x[i] = synthetic value of i, for i in [0, n): bitwise what the host generates.
void enqueue_generate(cudaStream_t stream, float* x, std::int64_t n, Dist dist, std::uint64_t seed);
// x[i - begin] = synthetic value of i, for i in [begin, end): one GPU's shard of the whole array.
void enqueue_generate_range(cudaStream_t stream, float* x, std::int64_t begin, std::int64_t end, Dist dist,
                            std::uint64_t seed);

// The per-call check of a shape's outputs: counts the i in [0, count) where got[i] and want[i]
// differ in bits into *wrong, and lowers *first to the smallest such i (*wrong starts at 0 and
// *first at all ones).
void enqueue_compare(cudaStream_t stream, const float* got, const float* want, std::int64_t count,
                     unsigned long long* wrong, unsigned long long* first);

}  // namespace rb::bench::gpu
