#pragma once
// One collective call of an nccl/* row (bench/nccl/runner.hpp): the local backends, one per GPU of
// this process, the barrier, the combine of their partials, and the combined sum read back.
#include <nccl.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "bench/api/gpu_backend.hpp"
#include "bench/nccl/runner.hpp"
#include "bench/nccl/team.hpp"
#include "bench/detail/sampling.hpp"

namespace rb::bench::nccl {

using Locals = std::vector<std::unique_ptr<gpu::GpuBackend>>;

// One local backend per GPU of this process, over its shard of the input or of the exact data.
Locals make_locals(Team& team, const BackendDef<float>& def, const Options& o, bool exact);
// The partials combined as `combine` says, on every GPU's stream.
void enqueue_combine(Team& team, Combine combine, ncclDataType_t type);
// The combined sum, read from rank 0's result slot and handed to every rank.
double read_result(Team& team, ncclDataType_t type);
double median(std::vector<double> v);

struct Row {
  Team& team;
  const Options& o;
  Combine combine;
  ncclDataType_t type = ncclFloat32;
  bool cold = false;
  std::uint64_t spin_ns = 0;

  // Every GPU: [flush,] result slots poisoned, the spin kernel queued.
  void prepare(Locals& locals, bool flush);
  // One collective call of the whole row, timed; returns {slowest start-to-stop, slowest start-to-mid}.
  std::pair<double, double> sample(Locals& locals);
  // The combine alone, from the same barrier: what the collective adds to the local sums.
  double combine_alone();
  // Rank 0's local backend on its shard with every other GPU idle: the one-GPU time at n/G.
  SampleStats solo(gpu::GpuBackend& local);
};

}  // namespace rb::bench::nccl
