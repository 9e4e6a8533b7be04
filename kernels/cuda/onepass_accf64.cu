// cuda/onepass_accf64: onepass over float input accumulated in double, returning a double.
//   Changed from onepass: the accumulator type (OnepassBySize<double>, onepass's paths and
//         shapes): every float is converted to double before its first addition, and partials
//         (8-byte slot words), the block tree and the result are double.
//   Why: accuracy at the same speed. A memory-bound kernel has arithmetic to spare: at 4.7 TB/s
//         an H200 must convert and add ~1.2e12 floats/s; its FP64 units add ~1.7e13/s and it
//         converts float->double at 16/clk/SM (~4e12/s, the programming guide's throughput
//         table). The error bound drops from ~log2(n) x 2^-24 to ~log2(n) x 2^-53 of sum|x|
//         (target: rel_err <= 1e-12).
//   What it costs: twice the accumulator registers and twice the scratch per partial, and the
//         conversions, which run on the XU pipe: 0.976-0.998x onepass from 2^24
//         (results/h200/kernels.md), 0.4-1.5 µs, about two thirds of it the conversions
//         (results/h200/tuning.md#round-12; what was tried against it: rounds 11-14).
#include "kernels/cuda/onepass.cuh"

namespace rb::cuda {

const Variant<double> onepass_accf64 = OnepassBySize<double>::variant();

Variant<double> onepass_accf64_with(TuningEntry entry) { return OnepassBySize<double>::variant(entry); }

}  // namespace rb::cuda
