// cuda/onepass: the best kernel here. One launch for any n.
//   Changed from vec4_ilp4: (1) no second kernel: the last block to finish sums the partials
//         (onepass.cuh explains the completion and its memory ordering) and resets the counter
//         itself, so there is no memset launch either; (2) the grid is sized to the work: one
//         block per tile of 256 threads x 4 float4s (16 KiB) up to SMs x 4 blocks, so tiny n
//         launch a handful of blocks, and a single block skips the completion entirely;
//         (3) threads, loads in flight and blocks per SM are one LaunchShape, tuned as data.
//   Why faster: at small and medium n the second launch (~2-3 us) and the idle blocks of a full
//         grid are most of the time; at large n it reads like vec4_ilp4 (4 loads in flight).
//   What it costs: after the slowest block, an L2 round trip for its ticket, one to read the
//         partials and a second block reduction, on one SM (about a microsecond, to be measured
//         on H200: cuda/onepass minus ref/read); 1 KiB of scratch per 256 blocks; a counter that
//         must be zero before the first launch on a scratch buffer (prepare()).
//         Deterministic: no floating-point atomics anywhere.
#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/tuning.cuh"

namespace rb::cuda {

const Variant<float> onepass = Onepass<float, OnepassShape>::variant();

}  // namespace rb::cuda
