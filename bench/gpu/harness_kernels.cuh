#pragma once
// The harness's own kernels: none of them is ever inside the timed region.
#include <cuda_runtime.h>

#include <cstdint>

#include "bench/options.hpp"

namespace rb::bench::gpu {

// Busy-waits `ns` nanoseconds on %globaltimer. Queued right before the start event, it keeps the
// GPU busy while the host enqueues the event and the backend's launches, so the host's launch
// latency falls outside the measurement (an idle GPU measures ~6.9 us for an empty kernel,
// a busy one ~2.7 us: FIELD-NOTES).
void enqueue_spin(cudaStream_t stream, std::uint64_t ns);

// Reads `bytes` of `buf` (>= 2x L2) with 16-byte loads, evicting the input from L2. A read, not
// a memset: a memset leaves dirty lines that get written back during the timed kernel (CUB at
// 2^24 measured +30% after a memset flush: FIELD-NOTES).
void enqueue_l2_flush(cudaStream_t stream, const void* buf, std::size_t bytes, unsigned* sink, int sm_count);

// x[i] = synthetic value of i, for i in [0, n): bitwise what the host generates.
void enqueue_generate(cudaStream_t stream, float* x, std::int64_t n, Dist dist, std::uint64_t seed);

}  // namespace rb::bench::gpu
