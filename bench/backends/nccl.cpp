// nccl/<local>: n split over G GPUs (--gpus, or one per rank under a launcher), each shard summed
// by a single-GPU backend, the partials combined by NCCL (bench/nccl/runner.hpp has the loop):
//   nccl/cub, nccl/onepass   ncclAllReduce: every GPU ends with the sum, as training code does
//   nccl/onepass/reduce      ncclReduce to rank 0: only the root needs it
//   nccl/onepass/symmetric   ncclAllReduce on symmetric windows (NCCL >= 2.27): NCCL's low-latency
//                            symmetric kernels for the one value
//   nccl/onepass/lsa         no host NCCL call: a kernel of ours reads every partial over NVLink
//                            (NCCL >= 2.28 device API, every rank on one node)
// They run when --gpus is given or the process is one of several ranks (bench/launch/launch.hpp).
// With --gpus=1: the local sum plus a one-rank collective (NCCL's copy), so the combine's fixed
// cost shows against cub and cuda/onepass on the same GPU.
#include <benchmark/benchmark.h>

#include <memory>
#include <optional>
#include <vector>

#include "bench/api/gpu_backend.hpp"
#include "bench/nccl/runner.hpp"
#include "bench/detail/run_context.hpp"

namespace rb::bench::gpu {
namespace {

BackendDef<float> row(std::string name, std::string local, nccl::Combine combine,
                      nccl::Buffers buffers = nccl::Buffers::plain) {
  AcrossGpus across;
  // The local backend is looked up when the row first runs: registrations are evaluated then.
  auto def = std::make_shared<std::optional<BackendDef<float>>>();
  across.run = [local, combine, buffers, def](benchmark::State& s, Session& session, const Case& c) {
    if (!*def) {
      for (auto& b : registered_defs<float>()) {
        if (b.name == local) *def = std::move(b);
      }
    }
    if (!*def || !(*def)->unavailable.empty()) {
      s.SkipWithError(("local backend " + local + " is not available").c_str());
      session.log().record({c.name(), Outcome::Kind::skipped, "local backend " + local + " is not available"});
      return;
    }
    nccl::run_case(s, session, **def, combine, c, buffers);
  };
  across.probe = [combine, buffers](const Options& o) {
    const std::string why = nccl::probe(o.gpus);
    if (!why.empty()) return why;
    set_context("nccl", nccl::describe_world(o.gpus));  // once: every row probes
    return nccl::probe(o.gpus, combine, buffers);
  };
  across.release = [] { nccl::release(); };
  BackendDef<float> out{std::move(name), std::move(across)};
  out.unavailable = nccl::unavailable_in_build(combine, buffers);
  return out;
}

}  // namespace

RB_REGISTER_BACKEND(std::vector<BackendDef<float>>{
    row("nccl/cub", "cub", nccl::Combine::allreduce), row("nccl/onepass", "cuda/onepass", nccl::Combine::allreduce),
    row("nccl/onepass/reduce", "cuda/onepass", nccl::Combine::reduce),
    row("nccl/onepass/symmetric", "cuda/onepass", nccl::Combine::allreduce, nccl::Buffers::symmetric),
    row("nccl/onepass/lsa", "cuda/onepass", nccl::Combine::lsa, nccl::Buffers::symmetric)});

}  // namespace rb::bench::gpu
