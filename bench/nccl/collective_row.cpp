#include "bench/nccl/collective_row.hpp"

#include <algorithm>
#include <chrono>

#include "bench/gpu/session.hpp"
#include "bench/nccl/check.hpp"
#include "bench/nccl/lsa_combine.hpp"
#include "common/cuda_check.hpp"

namespace rb::bench::nccl {
namespace {

constexpr int kCombineSamples = 30;

// An allreduce of one float (always 0) that no GPU leaves before every GPU has entered it.
void enqueue_barrier(Team& team) {
  RB_NCCL_CHECK(ncclGroupStart());
  for (auto& m : team.members()) {
    RB_NCCL_CHECK(ncclAllReduce(m.token.get(), m.token.get(), 1, ncclFloat32, ncclSum, m.comm, m.stream));
  }
  RB_NCCL_CHECK(ncclGroupEnd());
}

}  // namespace

Locals make_locals(Team& team, const BackendDef<float>& def, const Options& o, bool exact) {
  Locals out;
  for (auto& m : team.members()) {
    RB_CUDA_CHECK(cudaSetDevice(m.device));
    const float* x = exact ? team.exact(m, o) : team.input(m, o);
    out.push_back(def.make(gpu::GpuProblem{x, m.shard.size(), m.stream, m.scratch,
                                           gpu::ResultSlot(m.combine().partial(), m.stream), m.sm_count}));
  }
  return out;
}

void enqueue_combine(Team& team, Combine combine, ncclDataType_t type) {
  if (combine == Combine::lsa) {  // kernels of ours: no host NCCL call
    for (auto& m : team.members()) {
      RB_CUDA_CHECK(cudaSetDevice(m.device));
      enqueue_lsa_sum(*m.lsa, m.combine(), type == ncclFloat64, m.stream);
    }
    return;
  }
  RB_NCCL_CHECK(ncclGroupStart());
  for (auto& m : team.members()) {
    void* const partial = m.combine().partial();
    void* const result = m.combine().result();
    if (combine == Combine::allreduce) {
      RB_NCCL_CHECK(ncclAllReduce(partial, result, 1, type, ncclSum, m.comm, m.stream));
    } else {
      RB_NCCL_CHECK(ncclReduce(partial, result, 1, type, ncclSum, 0, m.comm, m.stream));
    }
  }
  RB_NCCL_CHECK(ncclGroupEnd());
}

double median(std::vector<double> v) { return v.empty() ? 0.0 : quantile(v, 0.5); }

double read_result(Team& team, ncclDataType_t type) {
  team.sync();
  auto& m = team.members().front();
  RB_CUDA_CHECK(cudaSetDevice(m.device));
  double v = 0;
  if (type == ncclFloat32) {
    float f = 0;
    RB_CUDA_CHECK(cudaMemcpy(&f, m.combine().result(), sizeof f, cudaMemcpyDeviceToHost));
    v = f;
  } else {
    RB_CUDA_CHECK(cudaMemcpy(&v, m.combine().result(), sizeof v, cudaMemcpyDeviceToHost));
  }
  return team.from_rank0(v);
}

void Row::prepare(Locals& locals, bool flush) {
  for (std::size_t i = 0; i < locals.size(); ++i) {
    auto& m = team.members()[i];
    RB_CUDA_CHECK(cudaSetDevice(m.device));
    if (flush) team.enqueue_flush(m);
    RB_CUDA_CHECK(cudaMemsetAsync(m.combine().partial(), 0xFF, CombineBuffers::kSlotBytes, m.stream));
    RB_CUDA_CHECK(cudaMemsetAsync(m.combine().result(), 0xFF, CombineBuffers::kSlotBytes, m.stream));
    team.enqueue_spin(m, spin_ns);
  }
}

std::pair<double, double> Row::sample(Locals& locals) {
  prepare(locals, cold);
  enqueue_barrier(team);
  for (std::size_t i = 0; i < locals.size(); ++i) {
    auto& m = team.members()[i];
    RB_CUDA_CHECK(cudaSetDevice(m.device));
    RB_CUDA_CHECK(cudaEventRecord(m.start, m.stream));
    locals[i]->enqueue(m.stream);
    RB_CUDA_CHECK(cudaEventRecord(m.mid, m.stream));
  }
  enqueue_combine(team, combine, type);
  for (auto& m : team.members()) {
    RB_CUDA_CHECK(cudaSetDevice(m.device));
    RB_CUDA_CHECK(cudaEventRecord(m.stop, m.stream));
  }
  double total = 0, local = 0;
  for (auto& m : team.members()) {
    team.wait(m, m.stop);
    total = std::max(total, seconds_between(m.start, m.stop));
    local = std::max(local, seconds_between(m.start, m.mid));
  }
  return {total, local};
}

double Row::combine_alone() {
  std::vector<double> t;
  for (int k = 0; k < kCombineSamples; ++k) {
    for (auto& m : team.members()) {
      RB_CUDA_CHECK(cudaSetDevice(m.device));
      team.enqueue_spin(m, spin_ns);
    }
    enqueue_barrier(team);
    for (auto& m : team.members()) {
      RB_CUDA_CHECK(cudaSetDevice(m.device));
      RB_CUDA_CHECK(cudaEventRecord(m.start, m.stream));
    }
    enqueue_combine(team, combine, type);
    double dt = 0;
    for (auto& m : team.members()) {
      RB_CUDA_CHECK(cudaSetDevice(m.device));
      RB_CUDA_CHECK(cudaEventRecord(m.stop, m.stream));
    }
    for (auto& m : team.members()) {
      team.wait(m, m.stop);
      dt = std::max(dt, seconds_between(m.start, m.stop));
    }
    t.push_back(dt);
  }
  double med = median(t);
  team.all_max(&med, 1);
  return med;
}

SampleStats Row::solo(gpu::GpuBackend& local) {
  auto& m = team.members().front();
  RB_CUDA_CHECK(cudaSetDevice(m.device));
  Sampler s(o.rule);
  const auto t0 = std::chrono::steady_clock::now();
  do {
    if (cold) team.enqueue_flush(m);
    RB_CUDA_CHECK(cudaMemsetAsync(m.combine().partial(), 0xFF, CombineBuffers::kSlotBytes, m.stream));
    team.enqueue_spin(m, gpu::spin_ns(o));
    RB_CUDA_CHECK(cudaEventRecord(m.start, m.stream));
    local.enqueue(m.stream);
    RB_CUDA_CHECK(cudaEventRecord(m.stop, m.stream));
    team.wait(m, m.stop);
    s.add(seconds_between(m.start, m.stop));
  } while (!s.done(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
  return s.stats();
}

}  // namespace rb::bench::nccl
