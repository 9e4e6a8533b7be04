// cuda/onepass: the best kernel here. One launch for any n.
//   Changed from vec4_ilp4: (1) no second kernel: the last block to finish sums the partials
//         (onepass.cuh explains the completion and its memory ordering) and resets the counter
//         itself, so there is no memset launch either; (2) the grid is sized to the work: one
//         block per tile up to SMs x blocks per SM, so tiny n launch a handful of blocks, and a
//         single block (n <= 8192) skips the completion entirely; (3) 8 float4 loads in flight
//         per thread, and two launch shapes chosen by n (tuning.cuh: 256 threads x 2 blocks/SM
//         below 2^18, 512 x 2 from there), picked from a 17-shape sweep on the H200.
//   Why faster: at small and medium n the second launch (~2-3 us) and the idle blocks of a full
//         grid are most of the time; at large n it reads like ref/read (8 loads in flight).
//   What it costs: after the slowest block, an L2 round trip for its ticket, one to read the
//         partials and a second block reduction, on one SM: ~1.1 µs measured on the H200
//         (cuda/onepass - ref/read at 2^20 and 2^22); 4 bytes of scratch per block; a counter
//         that must be zero before the first launch on a scratch buffer (prepare()).
//         Deterministic: no floating-point atomics anywhere.
#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/tuning.cuh"

namespace rb::cuda {

const Variant<float> onepass = OnepassBySize<float>::variant();

}  // namespace rb::cuda
