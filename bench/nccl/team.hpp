#pragma once
// This process's GPUs in the NCCL world: one communicator, stream, cold flush, spin, event
// triple, shard buffer and combine buffers (plain, or symmetric windows: bench/nccl/symmetric.hpp)
// per GPU. In one process (--gpus=G) the team holds G GPUs, ranks 0..G-1; under a launcher each
// process holds --gpus GPUs (default 1) and ranks rank*G ... rank*G + G-1.
// Either way the communicators come from one ncclCommInitRank per GPU inside a group, with the
// unique id from rank 0 (MPI when built with it, else the rendezvous: bench/launch/rendezvous.hpp).
//
// Every host-side wait polls instead of blocking, checking the communicators' asynchronous errors
// and a deadline (--collective_timeout, default 300 s): a peer that died or a collective that
// lost its partner ends this process with an error instead of a hang.
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/gpu/cold_flush.hpp"
#include "bench/api/gpu_memory.hpp"
#include "bench/launch/launch.hpp"
#include "bench/nccl/lsa_combine.hpp"
#include "bench/nccl/shard.hpp"
#include "bench/nccl/symmetric.hpp"
#include "bench/detail/options.hpp"

namespace rb::bench::nccl {

struct Member {
  int device = 0;
  int rank = 0;  // in the NCCL world
  int sm_count = 0;
  std::int64_t l2_bytes = 0;
  int sm_clock_khz = 0;
  double peak_bytes_per_s = 0;
  cudaStream_t stream = nullptr;
  ncclComm_t comm = nullptr;
  cudaEvent_t start = nullptr, mid = nullptr, stop = nullptr;  // mid: the local sum done
  // The L2 read of gpu::ColdFlush without its page touch: the shards are reallocated per n, and
  // the page buffer would take room from the largest n (docs/multi-gpu.md).
  std::optional<gpu::ColdFlush> cold;
  // The local backend's sum and the combined sum: plain ones always; symmetric windows and the
  // device communicator once a row first asks (Team::use_buffers), kept until the team goes.
  CombineBuffers plain;
  std::optional<CombineBuffers> symmetric;
  LsaCommPtr lsa;
  // Which of them the current row's combine uses.
  Buffers buffers = Buffers::plain;

  gpu::DeviceBuffer token;     // the barrier's one float
  gpu::DeviceBuffer exchange;  // host-level agreement values
  gpu::DeviceScratch scratch;
  gpu::DeviceBuffer input, exact;     // this GPU's shard of the input and of the exact check's integers
  std::int64_t input_n = -1, exact_n = -1;  // the n the shards were made for
  Shard shard;
  std::uint64_t spins = 0;

  CombineBuffers& combine() { return buffers == Buffers::symmetric ? *symmetric : plain; }
};

class Team {
 public:
  // options.gpus: GPUs of this process (0: all visible; throws when there are fewer);
  // options.rendezvous, options.collective_timeout, and the cold flush's diagnostics.
  Team(const Options& options, const Launch& launch);
  ~Team();
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;

  int world() const noexcept { return world_; }
  bool holds_rank0() const noexcept { return members_.front().rank == 0; }
  std::vector<Member>& members() noexcept { return members_; }
  std::string describe() const;

  // Max over every rank of v[0..count) (count <= 8), in place: the agreement step.
  void all_max(double* v, int count);
  // True when every rank says ok.
  bool all_ok(bool ok);
  // Rank 0's value, on every rank.
  double from_rank0(double v);

  // Every GPU's combine from now on uses `kind` (symmetric, with a device communicator, when
  // `device_api`). Symmetric windows and device communicators are made once per team, on first
  // use. Collective, and agreed: false on every rank, with NCCL's message (or "on another rank"),
  // when any rank could not; a failure is remembered, so later rows skip without asking NCCL again.
  bool use_buffers(Buffers kind, bool device_api, std::string& why);

  // Shard of x[0, n) (options' dist and seed; options' offset past alignment) on every GPU; false
  // with the reason when it does not fit. Not collective: callers agree with all_ok.
  bool make_input(std::int64_t n, const Options& o, std::string& why);
  bool make_exact(std::int64_t n, std::uint64_t seed, const Options& o, std::string& why);
  const float* input(const Member& m, const Options& o) const { return m.input.as<const float>() + o.offset; }
  const float* exact(const Member& m, const Options& o) const { return m.exact.as<const float>() + o.offset; }

  void enqueue_spin(Member& m, std::uint64_t ns);
  void enqueue_flush(Member& m);
  // Waits for `e` (recorded on m's stream), polling NCCL's asynchronous errors and the deadline.
  void wait(const Member& m, cudaEvent_t e);
  void sync();  // every member's stream

 private:
  void exchange(double* v, int count, ncclRedOp_t op, bool only_first);
  bool make_shards(std::int64_t n, Dist dist, std::uint64_t seed, const Options& o, bool exact, std::string& why);
  void wait_until(const Member& m, const std::function<cudaError_t()>& query, const char* what);
  bool make_symmetric(std::string& why);
  bool make_lsa(std::string& why);
  // f(member) for every GPU of this process at once, one thread each (inline for one): NCCL's
  // collective set-up calls block until every rank has made them, so one thread cannot make them
  // GPU after GPU. Returns the failures, "GPU d: what; ...", or empty.
  std::string on_every_gpu(const std::function<void(Member&)>& f);
  [[noreturn]] void fail(const std::string& why);
  void check_usable() const;

  std::vector<Member> members_;
  int world_ = 1;
  double timeout_s_ = 300;
  double* host_ = nullptr;  // pinned: the exchange's copies back are waited for by polling
  bool broken_ = false;     // aborted after an error: every later use throws
  // Why symmetric windows or device communicators could not be made, agreed: never retried.
  std::string symmetric_why_, lsa_why_;
};

// cudaEventElapsedTime in seconds.
double seconds_between(cudaEvent_t a, cudaEvent_t b);

}  // namespace rb::bench::nccl
