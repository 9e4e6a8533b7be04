#pragma once
// cuda/mma: the sum of f16 or bf16 elements on the tensor cores, as the host sees it (no device
// code: include it from .cpp files). D = A x ones + C with A the data, so every column of D holds
// A's row sums and C accumulates them (the idea's source: docs/backends.md). Calls as sum.hpp's
// variants (scratch_bytes, prepare, sum, geometry); the result is a float. `in` may start at any
// element boundary, n may be 0 or beyond 2^31. Needs code built for sm_80 or newer (mma.sync with
// f16 and bf16 inputs): unavailable() says why the current device cannot run it, and sum() throws
// then.
//
// What the tensor core's float accumulation does is undocumented; measured (docs/backends.md
// cites the study): the products are exact, then aligned to the largest term and truncated
// (rounded toward zero), not IEEE round to nearest. kRoundingsPerMma states that as float
// additions for the accuracy bound.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/dtype.hpp"
#include "kernels/cuda/sum.hpp"

namespace rb::cuda {

// One mma.sync.m16n8k16 adds 16 products to each C entry in blocks of b >= 4 terms plus C (the
// smallest block that paper measured); each block truncates its b + 1 aligned terms and its result
// to (at least) 24 bits of its largest term: an error below 2 (b + 2) u of the block's sum of
// |terms| (u = 2^-24). 16 / b blocks: at most 2 (16 + 32 / b) u <= 48 u, 48 float additions' worth.
inline constexpr int kRoundingsPerMma = 48;

// What one call launches at n, and what its accuracy bound is built from.
struct MmaGeometry {
  Geometry launch;             // grid, threads per block, row and tile in elements (8 per 16-byte load)
  int accumulators = 0;        // C fragments per thread: a step's load k goes to fragment k % accumulators
  std::int64_t mma_chain = 0;  // the most mma.sync instructions any one C fragment takes at this n
};

// T: rb::f16 or rb::bf16 (device pointers in common/dtype.hpp's storage types).
template <class T>
struct MmaSum {
  // Untimed: sizes the grid for n on the current device (SM count, occupancy and the kernels'
  // code architecture, queried once per device and cached). One slot word per block.
  static std::size_t scratch_bytes(std::int64_t n);
  // Untimed, once per scratch buffer: zeroes the slots; every launch leaves them zero again.
  static void prepare(void* scratch, std::size_t bytes, cudaStream_t stream);
  // One launch, nothing else: the sum of in[0, n) in *out (device).
  static void sum(const T* in, std::int64_t n, void* scratch, float* out, cudaStream_t stream);
  static MmaGeometry geometry(std::int64_t n);
  // Empty when the current device runs the tensor-core kernels; else why not (no device, or no
  // sm_80+ code for it in this build).
  static std::string unavailable();
};

extern template struct MmaSum<f16>;
extern template struct MmaSum<bf16>;

}  // namespace rb::cuda
