// cuda/auto (vec4_auto): vec4 below kAutoIlp4MinN (tuning.cuh), vec4_ilp4 from there on.
//   Changed from vec4 / vec4_ilp4: nothing in the kernels; the host picks one per call.
//   Why: a two-pass kernel's best load depth depends on n; the threshold is one measured
//         constant, and both sides are benchmarked on their own (cuda/vec4, cuda/vec4_ilp4) so
//         the crossing is visible.
//   What it costs: one comparison on the host. Scratch covers whichever side n selects.
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning.cuh"

namespace rb::cuda {
namespace {

const Variant<float>& pick(std::int64_t n) { return n >= kAutoIlp4MinN ? vec4_ilp4 : vec4; }

std::size_t scratch_bytes(std::int64_t n) { return pick(n).scratch_bytes(n); }

void prepare(void* scratch, std::size_t bytes, cudaStream_t stream) {
  vec4.prepare(scratch, bytes, stream);
  vec4_ilp4.prepare(scratch, bytes, stream);
}

void sum(const float* in, std::int64_t n, void* scratch, float* out, cudaStream_t stream) {
  pick(n).sum(in, n, scratch, out, stream);
}

Geometry geometry(std::int64_t n) { return pick(n).geometry(n); }

}  // namespace

const Variant<float> vec4_auto{&scratch_bytes, &prepare, &sum, &geometry};

}  // namespace rb::cuda
