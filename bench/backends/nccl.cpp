// nccl/<local>: n split over G GPUs (--gpus, or one per rank under a launcher), each shard summed
// by a single-GPU backend, the partials combined by NCCL (bench/nccl/runner.hpp has the loop):
//   nccl/cub, nccl/onepass   ncclAllReduce: every GPU ends with the sum, as training code does
//   nccl/onepass/reduce      ncclReduce to rank 0: only the root needs it
// They run when --gpus is given or the process is one of several ranks (bench/launch.hpp).
// With --gpus=1: the local sum plus a one-rank collective (NCCL's copy), so the combine's fixed
// cost shows against cub and cuda/onepass on the same GPU.
#include <benchmark/benchmark.h>

#include <memory>
#include <optional>
#include <vector>

#include "bench/gpu/backend.hpp"
#include "bench/nccl/runner.hpp"
#include "bench/run_context.hpp"

namespace rb::bench::gpu {
namespace {

BackendDef<float> row(std::string name, std::string local, nccl::Combine combine) {
  AcrossGpus across;
  // The local backend is looked up when the row first runs: registrations are evaluated then.
  auto def = std::make_shared<std::optional<BackendDef<float>>>();
  across.run = [local, combine, def](benchmark::State& s, Session& session, const Case& c) {
    if (!*def) {
      for (auto& b : registered_defs<float>()) {
        if (b.name == local) *def = std::move(b);
      }
    }
    if (!*def || !(*def)->unavailable.empty()) {
      s.SkipWithError(("local backend " + local + " is not available").c_str());
      session.record({c.name(), Outcome::Kind::skipped, "local backend " + local + " is not available"});
      return;
    }
    nccl::run_case(s, session, **def, combine, c);
  };
  across.probe = [](const Options& o) {
    const std::string why = nccl::probe(o.gpus);
    if (why.empty()) set_context("nccl", nccl::describe_world(o.gpus));  // once: three rows probe
    return why;
  };
  across.release = [] { nccl::release(); };
  return {std::move(name), std::move(across)};
}

}  // namespace

RB_REGISTER_BACKEND(std::vector<BackendDef<float>>{row("nccl/cub", "cub", nccl::Combine::allreduce),
                                                   row("nccl/onepass", "cuda/onepass", nccl::Combine::allreduce),
                                                   row("nccl/onepass/reduce", "cuda/onepass", nccl::Combine::reduce)});

}  // namespace rb::bench::gpu
