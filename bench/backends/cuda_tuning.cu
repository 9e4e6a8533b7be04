// tune/onepass/t<threads>_u<loads in flight>_b<blocks per SM>[_cg|_pf]: onepass over a grid of
// launch shapes and load hints (chunk_sum.cuh: load_float4); *_ticket, *_fenced, *_block,
// *_early: the other completions (slots.cuh); *_twosum, *_floatsum: double's other ways in
// (tuning.cuh: Widen);
// tune/onepass_f64/*: the same kernels in double; tune/single/t<threads>_u<loads>: the lean
// one-block kernel (skipped above one tile). Built only with -DRB_TUNING_BACKENDS=ON.
// Pick the winner per n from
//   reduce_bench --benchmark_filter='tune/|cuda/|cub' --sizes=...
// and write it into kernels/cuda/tuning.cuh (OnepassSmallShape/OnepassLargeShape) with the figures.
// (vec4 against vec4_ilp4, for cuda/auto's threshold, are the regular cuda/ rows.)
//
// Bounds: threads x blocks <= 2048 (an sm_90 SM's thread limit), and loads in flight fit the
// register budget __launch_bounds__ gives them (65536 / (threads x blocks) per thread; 8 float4s
// alone are 32 registers, so unroll 8 only where 64 or more are left; ptxas -v shows no spills for
// every shape here).
#include <string>
#include <type_traits>

#include "bench/backends/cuda_kernel.hpp"
#include "bench/backends/gpu_defs.hpp"
#include "bench/session.hpp"
#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/tuning.cuh"

namespace rb::bench::gpu {
namespace {

using rb::cuda::LoadHint;
using rb::cuda::Widen;
using rb::cuda::detail::Completion;

template <int Threads, int Unroll, int BlocksPerSm, LoadHint Hint = LoadHint::ldg>
GpuBackendDef onepass_shape() {
  using Kernel = rb::cuda::Onepass<float, rb::cuda::LaunchShape<Threads, Unroll, BlocksPerSm, Hint>>;
  return cuda_kernel("tune/onepass/t" + std::to_string(Threads) + "_u" + std::to_string(Unroll) + "_b" +
                         std::to_string(BlocksPerSm) +
                         (Hint == LoadHint::cg ? "_cg" : Hint == LoadHint::l2_prefetch_256 ? "_pf" : ""),
                     Kernel::variant());
}

template <int Threads, int Unroll>
GpuBackendDef single_block() {
  using Kernel = rb::cuda::SingleBlock<float, rb::cuda::LaunchShape<Threads, Unroll, 1>>;
  auto def = cuda_kernel("tune/single/t" + std::to_string(Threads) + "_u" + std::to_string(Unroll), Kernel::variant());
  def.make = [make = def.make](const GpuProblem& p) {
    if (p.n > Kernel::kMaxN) throw Skip("one block covers at most " + std::to_string(Kernel::kMaxN) + " floats");
    return make(p);
  };
  return def;
}

// Any completion, in float or double, and for double any way in (tuning.cuh: Widen):
// tune/onepass[_f64]/t.._u.._b..[_ticket|_fenced|_block|_early][_twosum|_floatsum].
template <class Acc, int Threads, int Unroll, int BlocksPerSm, Completion C, Widen W = Widen::each>
GpuBackendDef completion() {
  using Shape = rb::cuda::LaunchShape<Threads, Unroll, BlocksPerSm, LoadHint::ldg, W>;
  using Kernel = rb::cuda::Onepass<Acc, Shape, C>;
  const char* family = std::is_same_v<Acc, double> ? "tune/onepass_f64/t" : "tune/onepass/t";
  const char* how = C == Completion::ticket_polls     ? "_ticket"
                    : C == Completion::ticket_fenced  ? "_fenced"
                    : C == Completion::finisher_block ? "_block"
                    : C == Completion::finisher_early ? "_early"
                                                      : "";
  const char* widen = W == Widen::two_sum ? "_twosum" : W == Widen::float_sum ? "_floatsum" : "";
  // The probe rounds like a float sum, and is checked as one.
  return cuda_kernel(family + std::to_string(Threads) + "_u" + std::to_string(Unroll) + "_b" +
                         std::to_string(BlocksPerSm) + how + widen,
                     Kernel::variant(), W == Widen::float_sum ? std::optional(Accumulator::f32) : std::nullopt);
}

}  // namespace

std::vector<GpuBackendDef> cuda_tuning_backends() {
  return {
      onepass_shape<128, 4, 8>(),   onepass_shape<128, 4, 16>(), onepass_shape<128, 8, 8>(),
      onepass_shape<256, 2, 8>(),   onepass_shape<256, 4, 2>(),  onepass_shape<256, 4, 4>(),
      onepass_shape<256, 4, 8>(),   onepass_shape<256, 8, 2>(),  onepass_shape<256, 8, 4>(),
      onepass_shape<512, 2, 4>(),   onepass_shape<512, 4, 2>(),  onepass_shape<512, 4, 4>(),
      onepass_shape<512, 8, 2>(),   onepass_shape<1024, 2, 2>(), onepass_shape<1024, 4, 1>(),
      onepass_shape<1024, 4, 2>(),  onepass_shape<1024, 8, 1>(),
      // single-block shapes for tiny n, and the L2 prefetch hint on the two tuned shapes
      onepass_shape<64, 8, 1>(),    onepass_shape<128, 8, 1>(),  onepass_shape<128, 4, 1>(),
      onepass_shape<256, 8, 2, LoadHint::l2_prefetch_256>(),     onepass_shape<512, 8, 2, LoadHint::l2_prefetch_256>(),
      onepass_shape<128, 8, 1, LoadHint::cg>(),                  onepass_shape<256, 4, 4, LoadHint::cg>(),
      onepass_shape<256, 8, 4, LoadHint::cg>(),                  onepass_shape<512, 8, 2, LoadHint::cg>(),
      onepass_shape<32, 32, 1>(),   onepass_shape<64, 16, 1>(),  onepass_shape<32, 16, 1>(),
      single_block<128, 8>(),       single_block<256, 4>(),      single_block<64, 16>(),
      single_block<256, 8>(),       single_block<512, 8>(),
      // the three completions (slots.cuh) on the mid and large grid shapes
      completion<float, 256, 4, 4, Completion::ticket_polls>(),  completion<float, 256, 4, 4, Completion::ticket_fenced>(),
      completion<float, 512, 8, 2, Completion::ticket_polls>(),  completion<float, 512, 8, 2, Completion::ticket_fenced>(),
      completion<float, 256, 4, 4, Completion::finisher_block>(), completion<float, 512, 8, 2, Completion::finisher_block>(),
      // double beside float, and double's other ways in (tuning.cuh: Widen)
      completion<double, 512, 8, 2, Completion::finisher_block>(),
      completion<double, 512, 8, 2, Completion::finisher_block, Widen::two_sum>(),
      completion<double, 512, 8, 2, Completion::finisher_block, Widen::float_sum>(),
      completion<double, 512, 8, 2, Completion::finisher_polls>(),
      completion<double, 512, 8, 2, Completion::finisher_polls, Widen::two_sum>(),
      completion<double, 512, 8, 2, Completion::finisher_polls, Widen::float_sum>(),
      completion<double, 256, 4, 4, Completion::finisher_polls>(),
      completion<double, 256, 4, 4, Completion::finisher_polls, Widen::two_sum>(),
      // four blocks of 256 per SM instead of two of 512
      completion<float, 256, 8, 4, Completion::finisher_block>(),
      completion<double, 256, 8, 4, Completion::finisher_block>(),
      completion<float, 512, 4, 2, Completion::finisher_block>(),
      completion<double, 512, 4, 2, Completion::finisher_block>(),
      // the last block reading the slots before its own block tree (slots.cuh: finisher_early)
      completion<float, 256, 4, 4, Completion::finisher_early>(),
      completion<float, 512, 8, 2, Completion::finisher_early>(),
      completion<double, 256, 4, 4, Completion::finisher_early>(),
      completion<double, 512, 8, 2, Completion::finisher_early>(),
  };
}

RB_REGISTER_BACKEND(cuda_tuning_backends());

}  // namespace rb::bench::gpu
