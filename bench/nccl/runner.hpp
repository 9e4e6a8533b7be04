#pragma once
// The measurement loop of the nccl/* rows: n split over G GPUs, each summed by a single-GPU backend
// (bench/api/gpu_backend.hpp), the G partials combined by one NCCL collective.
//
//   per benchmark run (untimed):  every GPU's shard generated on that GPU; one local backend per
//        GPU; a warm-up; the combine alone (30 samples: barrier -> start -> collective of one value
//        -> stop), `combine_us`
//   per sample, on every GPU:  [cold: L2 flush] -> poison partial and result -> spin kernel ->
//        barrier (an allreduce of one float: the GPUs leave it together) -> start event -> local
//        sum -> mid event -> ncclAllReduce (or ncclReduce to rank 0, or our LSA kernel) of the
//        partials -> stop event.
//        The sample is the slowest GPU's start-to-stop; `local_us` its start-to-mid.
//   agreement:  before the stopping rule sees a sample, the sample and the wall time spent are
//        replaced by their maximum over every rank (bench/detail/measure.hpp, Agree), so every rank takes
//        the same number of samples and the collectives stay paired. Skips and set-up errors are
//        agreed the same way (Team::all_ok) before any rank leaves the row.
//   after (untimed):  the solo baseline (rank 0's local backend on its shard, the other GPUs idle,
//        by the same rule: `solo_us`, `scaling_eff` = solo / row); the exact check (the integer
//        input sharded the same way, one collective call), the accuracy bound (the local
//        structure at the longest shard plus the combine's additions), reference = the whole sum,
//        and the warm-up's sum against the last sample's, held to the local backend's promise.
#include <benchmark/benchmark.h>

#include <string>

#include "bench/api/gpu_backend.hpp"
#include "bench/nccl/symmetric.hpp"
#include "bench/detail/session.hpp"

namespace rb::bench::nccl {

// How the partials are combined: ncclAllReduce, ncclReduce to rank 0, or our kernel over the
// symmetric windows through NCCL's device API (bench/nccl/lsa_combine.hpp; needs Buffers::symmetric).
enum class Combine { allreduce, reduce, lsa };

// `buffers`: where the combine reads and writes (bench/nccl/symmetric.hpp); a row whose symmetric
// windows cannot be registered is skipped on every rank with NCCL's reason.
void run_case(benchmark::State& state, Session& session, const BackendDef<float>& local, Combine combine, const Case& c,
              Buffers buffers = Buffers::plain);
// Why this build cannot run such a row (its NCCL headers predate symmetric memory or the device
// API), or empty.
std::string unavailable_in_build(Combine combine, Buffers buffers);
// At bind time: why --gpus cannot be honoured here, or why the NCCL library loaded is too old for
// such a row, or empty.
std::string probe(int gpus, Combine combine = Combine::allreduce, Buffers buffers = Buffers::plain);
// NCCL's version (the library's and, when they differ, the headers'), what this build's rows over
// symmetric memory need, and this launch, for the JSON context.
std::string describe_world(int gpus);
// Destroys the communicators (their windows and device communicators first) and frees every shard.
void release();

}  // namespace rb::bench::nccl
