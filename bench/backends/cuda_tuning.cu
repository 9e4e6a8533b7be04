// tune/onepass/t<threads>_u<loads in flight>_b<blocks per SM>[_pf]: onepass over a grid of launch
// shapes (_pf: loads with the L2::256B prefetch hint), and tune/cluster/t<threads>_u<loads>: the
// one-cluster path alone (skipped above its 8 x tile floats). Built only with
// -DRB_TUNING_BACKENDS=ON. Pick the winner per n from
//   reduce_bench --benchmark_filter='tune/|cuda/|cub' --sizes=...
// and write it into kernels/cuda/tuning.cuh (OnepassSmallShape/OnepassLargeShape) with the figures.
// (vec4 against vec4_ilp4, for cuda/auto's threshold, are the regular cuda/ rows.)
//
// Bounds: threads x blocks <= 2048 (an sm_90 SM's thread limit), and loads in flight fit the
// register budget __launch_bounds__ gives them (65536 / (threads x blocks) per thread; 8 float4s
// alone are 32 registers, so unroll 8 only where 64 or more are left; ptxas -v shows no spills for
// every shape here).
#include <string>

#include "bench/backends/cuda_kernel.hpp"
#include "bench/backends/gpu_defs.hpp"
#include "bench/session.hpp"
#include "kernels/cuda/cluster.cuh"
#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/tuning.cuh"

namespace rb::bench::gpu {
namespace {

using rb::cuda::LoadHint;

template <int Threads, int Unroll, int BlocksPerSm, LoadHint Hint = LoadHint::ldg>
GpuBackendDef onepass_shape() {
  using Kernel = rb::cuda::Onepass<float, rb::cuda::LaunchShape<Threads, Unroll, BlocksPerSm, Hint>>;
  return cuda_kernel("tune/onepass/t" + std::to_string(Threads) + "_u" + std::to_string(Unroll) + "_b" +
                         std::to_string(BlocksPerSm) + (Hint == LoadHint::ldg ? "" : "_pf"),
                     Kernel::variant());
}

template <int Threads, int Unroll>
GpuBackendDef cluster_shape() {
  using Cluster = rb::cuda::ClusterSum<float, rb::cuda::LaunchShape<Threads, Unroll, 1>>;
  const rb::cuda::Variant<float> v{
      [](std::int64_t) -> std::size_t {
        if (!rb::cuda::cluster_launch_supported()) throw Skip("this device cannot launch thread-block clusters");
        return 0;
      },
      [](void*, std::size_t, cudaStream_t) {},
      [](const float* in, std::int64_t n, void*, float* out, cudaStream_t s) { Cluster::sum(in, n, out, s); },
      &Cluster::geometry};
  auto def = cuda_kernel("tune/cluster/t" + std::to_string(Threads) + "_u" + std::to_string(Unroll), v);
  def.make = [make = def.make](const GpuProblem& p) {
    if (p.n > Cluster::kMaxN) throw Skip("one cluster covers at most " + std::to_string(Cluster::kMaxN) + " floats");
    return make(p);
  };
  return def;
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
      cluster_shape<128, 8>(),      cluster_shape<256, 4>(),     cluster_shape<256, 8>(),
      cluster_shape<512, 4>(),      cluster_shape<512, 8>(),
  };
}

}  // namespace rb::bench::gpu
