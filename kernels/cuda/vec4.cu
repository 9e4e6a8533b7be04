// cuda/vec4: the first vectorised kernel, two passes.
//   Changed from shfl: 16-byte float4 loads (a scalar head up to the first 16-byte boundary and a
//         scalar tail of < 4 floats go to block 0's first threads, so any start pointer works);
//         grid = SMs x resident blocks per SM from the occupancy API, every n; each block sums one
//         contiguous chunk (EvenShare: chunks differ by at most one row of 256 float4s) instead of
//         striding over the whole array.
//   Why faster: 4x fewer load instructions for the same bytes, and 16 bytes in flight per load
//         instead of 4; a grid that fills the machine exactly once.
//   What it costs: still one load in flight per thread (each add waits for its load before the
//         next load issues; chunk_sum.cuh stops nvcc from unrolling the loop into an ILP kernel
//         behind the design's back, so this row measures the design); still two launches; the
//         full grid runs even at tiny n, where most blocks find an empty chunk.
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"
#include "kernels/cuda/two_pass.cuh"

namespace rb::cuda {

const Variant<float> vec4 = TwoPass<kVec4Threads, 1>::variant();

}  // namespace rb::cuda
