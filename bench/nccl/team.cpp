#include "bench/nccl/team.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#if RB_HAVE_MPI
#include <mpi.h>
#endif

#include "bench/gpu/harness_kernels.cuh"
#include "bench/gpu/session.hpp"
#include "bench/nccl/check.hpp"
#include "bench/launch/rank_channel.hpp"
#include "bench/launch/rendezvous.hpp"
#include "bench/detail/session.hpp"
#include "common/cuda_check.hpp"

namespace rb::bench::nccl {
namespace {

// The rendezvous waits this long for rank 0: it publishes the id when it reaches its first
// nccl/* row, after the host has computed nothing yet (the first row's reference comes later).
constexpr double kRendezvousTimeout = 600;

Getenv process_env() {
  return [](const char* name) { return std::getenv(name); };
}

#if RB_HAVE_MPI
// MPI carries the id when the job was started by mpirun (or srun with PMI) and no rendezvous was
// asked for; finalized at exit, after the communicators are gone.
void mpi_broadcast(ncclUniqueId& id) {
  ensure_mpi();
  if (MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
    throw std::runtime_error("MPI_Bcast of the NCCL id failed");
}
#endif

ncclUniqueId share_id(const Launch& launch, const std::string& rendezvous_flag) {
  ncclUniqueId id{};
  if (launch.rank == 0) RB_NCCL_CHECK(ncclGetUniqueId(&id));
  if (launch.size == 1) return id;
  const Rendezvous r = choose_rendezvous(rendezvous_flag, process_env());
#if RB_HAVE_MPI
  if (r.kind == Rendezvous::Kind::none) {
    mpi_broadcast(id);
    return id;
  }
#endif
  if (launch.rank == 0) {
    publish(r, std::string(reinterpret_cast<const char*>(&id), sizeof id), launch.size - 1, kRendezvousTimeout);
  } else {
    const std::string blob = fetch(r, sizeof id, kRendezvousTimeout);
    std::memcpy(&id, blob.data(), sizeof id);
  }
  return id;
}

}  // namespace

double seconds_between(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  RB_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms * 1e-3;
}

Team::Team(const Options& options, const Launch& launch) : timeout_s_(options.collective_timeout) {
  const int gpus = options.gpus;
  const std::string& rendezvous_flag = options.rendezvous;
  int visible = 0;
  RB_CUDA_CHECK(cudaGetDeviceCount(&visible));
  const int local = gpus == 0 ? visible : gpus;
  if (local < 1 || local > visible) {
    throw std::runtime_error("--gpus=" + std::to_string(local) + " but " + std::to_string(visible) +
                             " GPUs are visible");
  }
  // Each process takes its local_rank-th group of `local` GPUs; where the launcher already gave
  // each process its own GPUs (CUDA_VISIBLE_DEVICES per task), the first `local` visible ones.
  const int first = visible >= (launch.local_rank + 1) * local ? launch.local_rank * local : 0;
  world_ = launch.size * local;
  const ncclUniqueId id = share_id(launch, rendezvous_flag);
  members_.resize(static_cast<std::size_t>(local));
  // Rank 0 retires a file rendezvous once the init returns, failed or not: a stale id file would
  // hand the next job's ranks on that path a dead id to wait on.
  const auto retire_id = [&] {
    if (launch.rank == 0 && launch.size > 1) retire(choose_rendezvous(rendezvous_flag, process_env()));
  };
  try {
    RB_NCCL_CHECK(ncclGroupStart());
    for (int i = 0; i < local; ++i) {
      Member& m = members_[static_cast<std::size_t>(i)];
      m.device = first + i;
      m.rank = launch.rank * local + i;
      RB_CUDA_CHECK(cudaSetDevice(m.device));
      RB_NCCL_CHECK(ncclCommInitRank(&m.comm, world_, id, m.rank));
    }
    RB_NCCL_CHECK(ncclGroupEnd());
  } catch (...) {
    retire_id();
    throw;
  }
  retire_id();
  for (auto& m : members_) {
    RB_CUDA_CHECK(cudaSetDevice(m.device));
    cudaDeviceProp p{};
    RB_CUDA_CHECK(cudaGetDeviceProperties(&p, m.device));
    m.sm_count = p.multiProcessorCount;
    m.l2_bytes = p.l2CacheSize;
    int mem_khz = 0, bus_bits = 0;
    RB_CUDA_CHECK(cudaDeviceGetAttribute(&m.sm_clock_khz, cudaDevAttrClockRate, m.device));
    RB_CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, m.device));
    RB_CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, m.device));
    m.peak_bytes_per_s = 2.0 * mem_khz * 1e3 * bus_bits / 8;
    RB_CUDA_CHECK(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking));
    RB_CUDA_CHECK(cudaEventCreate(&m.start));
    RB_CUDA_CHECK(cudaEventCreate(&m.mid));
    RB_CUDA_CHECK(cudaEventCreate(&m.stop));
    m.cold.emplace(m.sm_count, m.l2_bytes, m.stream, false, gpu::cold_flush_plan(options));
    m.plain = CombineBuffers::plain();
    m.token = gpu::DeviceBuffer(sizeof(float));
    RB_CUDA_CHECK(cudaMemsetAsync(m.token.get(), 0, sizeof(float), m.stream));
    m.exchange = gpu::DeviceBuffer(8 * sizeof(double));
  }
  RB_CUDA_CHECK(cudaMallocHost(&host_, 8 * sizeof(double)));
  sync();
}

Team::~Team() {
  // As NCCL's examples: the device communicator, the windows, the symmetric memory, and only then
  // the communicator (an abort, Team::fail, has already freed the first two and ended the third).
  // One thread per GPU, in case a version's teardown waits for the peers as registration does.
  for (auto& m : members_) {
    (void)cudaSetDevice(m.device);
    (void)cudaStreamSynchronize(m.stream);
  }
  if (!broken_) {
    (void)on_every_gpu([](Member& m) {
      if (!m.comm) return;
      if (m.lsa) destroy_lsa_comm(m.comm, *m.lsa);
      if (m.symmetric) m.symmetric->deregister(m.comm);
    });
  }
  for (auto& m : members_) {
    m.lsa.reset();
    m.symmetric.reset();
  }
  for (auto& m : members_) {
    (void)cudaSetDevice(m.device);
    if (m.comm) (void)(broken_ ? ncclCommAbort(m.comm) : ncclCommDestroy(m.comm));
    (void)cudaEventDestroy(m.start);
    (void)cudaEventDestroy(m.mid);
    (void)cudaEventDestroy(m.stop);
    (void)cudaStreamDestroy(m.stream);
  }
  if (host_) (void)cudaFreeHost(host_);
}

std::string Team::describe() const {
  std::string d = std::to_string(world_) + " GPUs in the NCCL world; this process: GPU";
  for (const auto& m : members_) d += " " + std::to_string(m.device) + " (rank " + std::to_string(m.rank) + ")";
  return d;
}

void Team::fail(const std::string& why) {
  // Aborting frees the peers' side too: their next NCCL wait reports the error instead of hanging.
  if (!broken_) {
    broken_ = true;
    for (auto& m : members_) {
      if (m.comm) (void)ncclCommAbort(m.comm);
      m.comm = nullptr;
    }
  }
  throw std::runtime_error("NCCL team aborted: " + why);
}

void Team::check_usable() const {
  if (broken_) throw std::runtime_error("the NCCL team was aborted by an earlier error");
}

void Team::wait_until(const Member& m, const std::function<cudaError_t()>& query, const char* what) {
  const auto t0 = std::chrono::steady_clock::now();
  while (true) {
    const cudaError_t q = query();
    if (q == cudaSuccess) return;
    if (q != cudaErrorNotReady) RB_CUDA_CHECK(q);
    for (const auto& other : members_) {
      ncclResult_t state = ncclSuccess;
      if (other.comm && ncclCommGetAsyncError(other.comm, &state) == ncclSuccess && state != ncclSuccess &&
          state != ncclInProgress) {
        fail(std::string("asynchronous error on GPU ") + std::to_string(other.device) + ": " +
             ncclGetErrorString(state));
      }
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > timeout_s_) {
      fail(std::string("no progress on GPU ") + std::to_string(m.device) + " after " + std::to_string(timeout_s_) +
           " s waiting for " + what + " (a rank that stopped or took another path; --collective_timeout)");
    }
  }
}

void Team::wait(const Member& m, cudaEvent_t e) {
  wait_until(m, [e] { return cudaEventQuery(e); }, "an event");
}

void Team::sync() {
  for (const auto& m : members_) wait_until(m, [&m] { return cudaStreamQuery(m.stream); }, "the stream");
}

void Team::exchange(double* v, int count, ncclRedOp_t op, bool only_first) {
  check_usable();
  if (count < 1 || count > 8) throw std::logic_error("Team::exchange: 1..8 values");
  RB_NCCL_CHECK(ncclGroupStart());
  for (std::size_t i = 0; i < members_.size(); ++i) {
    Member& m = members_[i];
    RB_CUDA_CHECK(cudaSetDevice(m.device));
    for (int k = 0; k < count; ++k) host_[k] = only_first && i > 0 ? 0.0 : v[k];
    // Synchronous copies of a pinned buffer: each member's values are in before the next overwrites it.
    RB_CUDA_CHECK(cudaMemcpy(m.exchange.get(), host_, count * sizeof(double), cudaMemcpyHostToDevice));
    RB_NCCL_CHECK(ncclAllReduce(m.exchange.get(), m.exchange.get(), count, ncclFloat64, op, m.comm, m.stream));
  }
  RB_NCCL_CHECK(ncclGroupEnd());
  Member& m0 = members_.front();
  RB_CUDA_CHECK(cudaSetDevice(m0.device));
  RB_CUDA_CHECK(cudaMemcpyAsync(host_, m0.exchange.get(), count * sizeof(double), cudaMemcpyDeviceToHost, m0.stream));
  sync();
  for (int k = 0; k < count; ++k) v[k] = host_[k];
}

void Team::all_max(double* v, int count) { exchange(v, count, ncclMax, false); }

bool Team::all_ok(bool ok) {
  double v = ok ? 0 : 1;
  all_max(&v, 1);
  return v == 0;
}

double Team::from_rank0(double v) {
  // A sum in which only rank 0 contributes: NaN and infinities travel unchanged (max would not).
  double x = holds_rank0() ? v : 0.0;
  exchange(&x, 1, ncclSum, true);
  return x;
}

std::string Team::on_every_gpu(const std::function<void(Member&)>& f) {
  std::vector<std::string> errors(members_.size());
  auto call = [&](std::size_t i) {
    try {
      RB_CUDA_CHECK(cudaSetDevice(members_[i].device));
      f(members_[i]);
    } catch (const std::exception& e) {
      errors[i] = "GPU " + std::to_string(members_[i].device) + ": " + e.what();
    }
  };
  if (members_.size() == 1) {
    call(0);
  } else {
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < members_.size(); ++i) threads.emplace_back(call, i);
    for (auto& t : threads) t.join();
  }
  std::string all;
  for (const auto& e : errors) {
    if (!e.empty()) all += (all.empty() ? "" : "; ") + e;
  }
  return all;
}

bool Team::make_symmetric(std::string& why) {
  // Allocation is local: agreed before the collective registration, so that no rank registers alone.
  bool ok = true;
  try {
    for (auto& m : members_) {
      RB_CUDA_CHECK(cudaSetDevice(m.device));
      m.symmetric.emplace(CombineBuffers::symmetric());
    }
  } catch (const std::exception& e) {
    ok = false;
    why = e.what();
  }
  if (all_ok(ok)) {
    why = on_every_gpu([](Member& m) { m.symmetric->register_windows(m.comm); });
    ok = why.empty();
    if (all_ok(ok)) return true;
  }
  if (ok) why = "symmetric windows could not be made on another rank";
  for (auto& m : members_) {
    if (m.symmetric) m.symmetric->deregister(m.comm);
    m.symmetric.reset();
  }
  return false;
}

bool Team::make_lsa(std::string& why) {
  why = on_every_gpu([this](Member& m) { m.lsa = make_lsa_comm(m.comm, world_); });
  const bool ok = why.empty();
  if (all_ok(ok)) return true;
  if (ok) why = "the device communicator could not be made on another rank";
  for (auto& m : members_) {
    if (m.lsa) destroy_lsa_comm(m.comm, *m.lsa);
    m.lsa.reset();
  }
  return false;
}

bool Team::use_buffers(Buffers kind, bool device_api, std::string& why) {
  check_usable();
  for (auto& m : members_) m.buffers = Buffers::plain;
  if (kind == Buffers::plain && !device_api) return true;
  // Made once per team, a failure remembered. Every rank takes the same branches: the failures
  // were agreed.
  const auto ready = [&why](bool made, std::string& failed, auto&& make) {
    if (failed.empty() && (made || make(failed))) return true;
    why = failed;
    return false;
  };
  const Member& first = members_.front();
  if (!ready(first.symmetric.has_value(), symmetric_why_, [this](std::string& w) { return make_symmetric(w); })) {
    return false;
  }
  if (device_api && !ready(first.lsa != nullptr, lsa_why_, [this](std::string& w) { return make_lsa(w); })) {
    return false;
  }
  for (auto& m : members_) m.buffers = Buffers::symmetric;
  return true;
}

bool Team::make_shards(std::int64_t n, Dist dist, std::uint64_t seed, const Options& o, bool exact, std::string& why) {
  check_usable();
  for (auto& m : members_) {
    std::int64_t& made = exact ? m.exact_n : m.input_n;
    RB_CUDA_CHECK(cudaSetDevice(m.device));
    if (made == n && exact) {  // the exact check's data sets share a shard: write this seed's over it
      gpu::enqueue_generate_range(m.stream, m.exact.as<float>() + o.offset, m.shard.begin, m.shard.end, dist, seed);
      continue;
    }
    if (made == n) continue;
    gpu::DeviceBuffer& buf = exact ? m.exact : m.input;
    buf = gpu::DeviceBuffer();
    made = -1;
    if (!exact && m.exact_n != n) {  // the exact shard of another n only takes room
      m.exact = gpu::DeviceBuffer();
      m.exact_n = -1;
    }
    m.shard = shard_of(n, world_, m.rank);
    const auto bytes = static_cast<std::size_t>(m.shard.size() + o.offset) * sizeof(float);
    std::size_t free_bytes = 0, total_bytes = 0;
    RB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    // gpu::kDeviceReserve also covers NCCL's own buffers.
    if (static_cast<std::int64_t>(free_bytes) - gpu::kDeviceReserve < static_cast<std::int64_t>(bytes)) {
      why = "n = " + std::to_string(n) + " needs " + format_bytes(static_cast<double>(bytes)) + " on each of " +
            std::to_string(world_) + " GPUs for " + (exact ? "the exact check's shard" : "its shard") + ", " +
            format_bytes(static_cast<double>(free_bytes)) + " free on GPU " + std::to_string(m.device);
      return false;
    }
    buf = gpu::DeviceBuffer(bytes);
    gpu::enqueue_generate_range(m.stream, buf.as<float>() + o.offset, m.shard.begin, m.shard.end, dist, seed);
    made = n;
  }
  sync();
  return true;
}

bool Team::make_input(std::int64_t n, const Options& o, std::string& why) {
  return make_shards(n, o.dist, o.seed, o, false, why);
}

bool Team::make_exact(std::int64_t n, std::uint64_t seed, const Options& o, std::string& why) {
  return make_shards(n, Dist::integers, seed, o, true, why);
}

void Team::enqueue_spin(Member& m, std::uint64_t ns) {
  const std::uint64_t dithered = ns + (m.spins++ * 997) % gpu::kSpinDitherNs;  // as gpu/session.cpp
  gpu::enqueue_spin(m.stream, static_cast<long long>(static_cast<double>(dithered) * m.sm_clock_khz * 1e-6));
}

void Team::enqueue_flush(Member& m) { m.cold->enqueue(m.stream); }

}  // namespace rb::bench::nccl
