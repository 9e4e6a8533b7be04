// cuda/vec4_ilp4: vec4 with four loads in flight per thread.
//   Changed from vec4: each step issues four independent __ldg float4 loads (rows i, i + 256,
//         i + 512, i + 768 of the chunk) into four independent accumulators; a last, predicated
//         step takes the < 4 rows left; the accumulators are combined pairwise at the end.
//   Why faster: the loads do not wait on each other's adds, so every warp keeps 4 x 512 B in
//         flight instead of 512 B. Off-chip bandwidth is bytes in flight / latency (Little's law):
//         from 2^22 on it leads vec4 at every size of results/h200/kernels.md.
//   What it costs: ~16 more registers per thread (four float4s), and a chunk must hold 4 rows
//         (1024 float4s) before a step runs at full width: when the data sits in L2 (n below
//         ~15M floats) latency is short and vec4 may be as fast; cuda/auto picks by n.
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"
#include "kernels/cuda/two_pass.cuh"

namespace rb::cuda {

const Variant<float> vec4_ilp4 = TwoPass<kVec4Threads, 4>::variant();

}  // namespace rb::cuda
