#pragma once
// Reference kernels: the floors a reduction is judged against, not reductions themselves.
// No device code: include it from .cpp files.
#include <cuda_runtime.h>

#include <cstdint>

namespace rb::cuda::ref {

// ref/launch (ref_launch.cu): an empty kernel, one block of one thread. The cost of any
// single-launch reduction before it reads a byte.
void launch_empty(cudaStream_t stream);

// ref/read (ref_read.cu): onepass's read phase alone, same shape and grid: every block streams its
// chunk and writes its float sum to partials[block]; nothing combines them on the device. It
// bounds what a one-launch reduction can reach at each n, and cuda/onepass minus ref/read is the
// cost of onepass's completion. The caller sums the partials (after timing) to check the read.
int read_blocks(std::int64_t n);  // partials written for n; untimed first call (queries occupancy)
void read(const float* in, std::int64_t n, float* partials, cudaStream_t stream);

// ref/segmented (ref_segmented.cu): the floor of a sum along a dimension: in[0, bytes) read once
// as ref/read reads (its shape, grid and shares) and out[0, outputs) (16-byte aligned) written once
// with 16-byte stores (zeros), a slice after every step of loads, in one launch. `sink` (device,
// 4 bytes) is written only for an impossible fold of what was read.
void read_write(const void* in, std::size_t bytes, float* out, std::int64_t outputs, unsigned* sink, int sm_count,
                cudaStream_t stream);

}  // namespace rb::cuda::ref
