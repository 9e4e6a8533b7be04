#include "bench/nccl/runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "bench/gpu/clock_watch.hpp"
#include "bench/gpu/session.hpp"
#include "bench/detail/measure.hpp"
#include "bench/nccl/check.hpp"
#include "bench/nccl/collective_row.hpp"
#include "bench/nccl/faults.hpp"
#include "bench/nccl/lsa_combine.hpp"
#include "bench/nccl/symmetric.hpp"
#include "bench/nccl/team.hpp"
#include "bench/detail/finish.hpp"
#include "common/cuda_check.hpp"

namespace rb::bench::nccl {
namespace {

// Enough to keep every GPU busy while the host enqueues the barrier, G local sums and the
// combine group (an NCCL group launch costs ~10 us of host time per GPU).
constexpr std::uint64_t kSpinPerGpuNs = 40'000;

std::unique_ptr<Team>& team_slot() {
  static std::unique_ptr<Team> t;
  return t;
}

Team& team_for(const Options& o) {
  auto& t = team_slot();
  if (!t) t = std::make_unique<Team>(o, launch());
  return *t;
}

// A row's state from set-up on: the loop's settings, one local backend per GPU, and the local
// structure the accuracy bound starts from.
struct Setup {
  Row row;
  Locals locals;
  Structure structure;
};

// What the timed samples leave for the checks and counters.
struct Timed {
  Timing timing;
  std::vector<double> sums;             // each sample's combined sum
  std::vector<double> local_times;      // each sample's start-to-mid, agreed over ranks
  std::vector<gpu::ClockWatch> clocks;  // one per GPU of this process
};

constexpr double kNoReading = 1e9;  // the lowest clock when no GPU read one

// The clocks over every GPU of every rank.
struct Clocks {
  double throttled = 0;  // 1: some GPU throttled
  double lowest_mhz = kNoReading;
};

// Max over ranks of `max_of` and min over ranks of `min_of`, in one Team::all_max call. Team
// agrees only by maximum, so the minimum travels negated: min(x) = -max(-x).
struct MaxMin {
  double max, min;
};
MaxMin agreed_max_and_min(Team& team, double max_of, double min_of) {
  double v[2] = {max_of, -min_of};
  team.all_max(v, 2);
  return {v[0], -v[1]};
}

// Per benchmark run: every GPU's shard of x[0, n), or a Skip every rank agrees on.
Team& team_with_shards(Session& session, const Options& o, const Case& c) {
  if (!session.input().synthetic()) {
    throw Skip("the nccl/* rows generate each shard on its own GPU: synthetic input only (not --input)");
  }
  Team& team = team_for(o);
  std::string why;
  const bool fits = team.make_input(c.n, o, why);
  if (!team.all_ok(fits))
    throw Skip(fits ? "n = " + std::to_string(c.n) + ": a shard does not fit on another rank's GPU" : why);
  return team;
}

// Per benchmark run: the combine's buffers the row asks for on every GPU, or a Skip every rank
// agrees on (symmetric windows this platform or NCCL cannot register: NCCL's message).
void use_buffers(Team& team, Buffers buffers, Combine combine) {
  std::string why;
  if (!team.use_buffers(buffers, combine == Combine::lsa, why)) throw Skip(why);
}

// Per benchmark run: one local backend per GPU; a failure on any rank ends the row on every rank.
Setup set_up_locals(Team& team, const BackendDef<float>& def, const Options& o, Combine combine, const Case& c) {
  Setup s{Row{team, o, combine}, Locals{}, Structure{}};
  s.row.cold = c.mode == Mode::cold;
  s.row.spin_ns = gpu::spin_ns(o) + kSpinPerGpuNs * team.members().size();
  bool ok = true;
  std::string why;
  try {
    s.locals = make_locals(team, def, o, false);
    s.structure = s.locals.front()->structure();
    s.row.type = s.structure.float_result ? ncclFloat32 : ncclFloat64;
  } catch (const std::exception& e) {
    ok = false;
    why = e.what();
  }
  if (!team.all_ok(ok)) throw std::runtime_error(ok ? "a local backend failed on another rank" : why);
  return s;
}

// Warm-up: module loading, libraries' first calls, NCCL's first use of this collective.
// Returns its sum: what every timed call is compared with.
double warm_up_row(Setup& s) {
  s.row.sample(s.locals);
  return read_result(s.row.team, s.row.type);
}

// One SM clock watch per GPU of this process, polled after each sample.
std::vector<gpu::ClockWatch> watch_clocks(Team& team) {
  std::vector<gpu::ClockWatch> clocks;
  for (const auto& m : team.members()) {
    char bus[32] = {};
    RB_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, m.device));
    clocks.emplace_back(bus, m.sm_clock_khz);
  }
  return clocks;
}

// The timed samples, each agreed over ranks before the stopping rule sees it (runner.hpp).
Timed timed_samples(benchmark::State& state, const Case& c, Setup& s) {
  Team& team = s.row.team;
  Faults* const faults = installed_faults();  // a test's; nullptr in reduce_bench
  const bool agreeing = faults == nullptr || faults->ranks_agree();
  Timed out;
  out.clocks = watch_clocks(team);
  double last_local = 0;
  std::function<double()> sample = [&] {
    const auto [total, local] = s.row.sample(s.locals);
    last_local = local;
    out.sums.push_back(read_result(team, s.row.type));  // every rank takes the same samples: a paired read
    for (auto& w : out.clocks) w.poll();
    return total;
  };
  if (faults) sample = [plain = std::move(sample), faults] { return plain() + faults->after_sample(launch().rank); };
  out.timing = measure(state, sampling_for(s.row.o, c, kEventTickSeconds), sample, [&](double& dt, double& wall) {
    double v[3] = {dt, wall, last_local};
    if (agreeing) team.all_max(v, 3);
    dt = v[0];
    wall = v[1];
    out.local_times.push_back(v[2]);
  });
  if (launch().size > 1) {
    std::fprintf(stderr, "reduce_bench[rank %d of %d]: %s: %lld samples\n", launch().rank, launch().size,
                 c.name().c_str(), static_cast<long long>(out.timing.stats.count));
  }
  return out;
}

// Throttled on any GPU of any rank, and the lowest clock any of them read.
Clocks agree_clocks(Team& team, const std::vector<gpu::ClockWatch>& watches) {
  double throttled = 0, lowest = kNoReading;
  for (const auto& w : watches) {
    if (w.throttled()) throttled = 1;
    if (w.lowest_mhz() > 0) lowest = std::min(lowest, static_cast<double>(w.lowest_mhz()));
  }
  const MaxMin agreed = agreed_max_and_min(team, throttled, lowest);
  return {agreed.max, agreed.min};
}

// The solo baseline, on the process holding rank 0 only: Row::solo issues no collective, so the
// ranks stay paired.
SampleStats solo_baseline(Setup& s) {
  return s.row.team.holds_rank0() ? s.row.solo(*s.locals.front()) : SampleStats{};
}

// The exact check's sum: the integer input sharded the same way, fresh local backends on it and
// one collective call.
double exact_sum(Session& session, const BackendDef<float>& def, Row& row, const Case& c, int set) {
  Team& team = row.team;
  std::string no_room;
  const bool room = team.make_exact(c.n, session.input().exact_seed(set), row.o, no_room);
  if (!team.all_ok(room)) throw Skip(room ? "no room for the exact check's shard on another rank" : no_room);
  Locals exact = make_locals(team, def, row.o, true);
  row.cold = false;
  row.prepare(exact, false);
  for (std::size_t i = 0; i < exact.size(); ++i) {
    RB_CUDA_CHECK(cudaSetDevice(team.members()[i].device));
    exact[i]->enqueue(team.members()[i].stream);
  }
  enqueue_combine(team, row.combine, row.type);
  return read_result(team, row.type);
}

Measurement measurement_of(const Setup& s, const BackendDef<float>& def, double first_result, Timed& timed,
                           const Clocks& clocks) {
  Team& team = s.row.team;
  Measurement m;
  m.calls = std::move(timed.sums);
  m.seconds = timed.timing.seconds;
  m.peak_bytes_per_s = team.members().front().peak_bytes_per_s * team.world();
  // Each GPU reads its shard: a cold row is held to the DRAM peak of all of them.
  if (s.row.cold) m.ceiling = {m.peak_bytes_per_s, "DRAM peak of " + std::to_string(team.world()) + " GPUs"};
  m.stats = timed.timing.stats;
  m.throttled = clocks.throttled > 0;
  m.first_result = first_result;
  // The combine adds no freedom: NCCL's order depends on the ranks and the algorithm it picks for
  // the size, both fixed within a row.
  m.promised = def.determinism;
  return m;
}

// The checks and outcome (bench/detail/finish.hpp, finish_case): the exact sum, the accuracy bound and
// the timed calls' sums against the warm-up's.
void check_outcome(benchmark::State& state, Session& session, const BackendDef<float>& def, const Case& c,
                   const Reference& ref, Setup& s, double first_result, Timed& timed, const Clocks& clocks) {
  // The combine adds each partial once more, after rounding it to the partial's type.
  s.structure.tree += s.row.team.world();
  if (!s.structure.float_result) s.structure.f64_adds += s.row.team.world();
  Measurement m = measurement_of(s, def, first_result, timed, clocks);
  m.reference = ref;
  m.structure = s.structure;
  m.exact = session.exact().run(c, exact_data_for(s.structure),
                                [&](int set) { return exact_sum(session, def, s.row, c, set); });
  finish_case(state, session, c, m);
}

void set_counters(benchmark::State& state, const Case& c, int world, const Clocks& clocks, double combine_s,
                  const Timed& timed, const SampleStats& solo) {
  const double g = world;
  const SampleStats& stats = timed.timing.stats;
  state.counters["gpus"] = g;
  if (clocks.lowest_mhz < kNoReading) state.counters["sm_mhz"] = clocks.lowest_mhz;
  state.counters["throttled"] = clocks.throttled;
  state.counters["combine_us"] = combine_s * 1e6;
  state.counters["local_us"] = median(timed.local_times) * 1e6;
  if (stats.median > 0) {
    state.counters["per_gpu_GBps"] = 4.0 * static_cast<double>(c.n) / g / stats.median / 1e9;
  }
  if (solo.count > 0 && stats.median > 0) {
    state.counters["solo_us"] = solo.median * 1e6;
    state.counters["scaling_eff"] = solo.median / stats.median;
  }
}

}  // namespace

void run_case(benchmark::State& state, Session& session, const BackendDef<float>& def, Combine combine, const Case& c,
              Buffers buffers) {
  try {
    const Options& o = session.options();
    Team& team = team_with_shards(session, o, c);
    use_buffers(team, buffers, combine);
    const Reference& ref = session.references().input(c.n);
    Setup s = set_up_locals(team, def, o, combine, c);
    const double first_result = warm_up_row(s);
    const double combine_s = s.row.combine_alone();
    Timed timed = timed_samples(state, c, s);
    const Clocks clocks = agree_clocks(team, timed.clocks);
    const SampleStats solo = solo_baseline(s);
    s.locals.clear();
    check_outcome(state, session, def, c, ref, s, first_result, timed, clocks);
    set_counters(state, c, team.world(), clocks, combine_s, timed, solo);
  } catch (const std::exception& e) {
    fail_case(state, session, c, e);
  }
}

namespace {

std::unique_ptr<Faults>& faults_slot() {
  static std::unique_ptr<Faults> f;
  return f;
}

}  // namespace

void install_faults(std::unique_ptr<Faults> faults) { faults_slot() = std::move(faults); }

Faults* installed_faults() { return faults_slot().get(); }

std::string unavailable_in_build(Combine combine, Buffers buffers) {
  if (combine == Combine::lsa) {
    const std::string why = lsa_unavailable_in_build();
    if (!why.empty()) return why;
  }
  if (combine == Combine::lsa || buffers == Buffers::symmetric) {
    return needs_nccl(NCCL_VERSION_CODE, kSymmetricSince, "symmetric memory", "this build has");
  }
  return {};
}

std::string probe(int gpus, Combine combine, Buffers buffers) {
  int visible = 0;
  if (cudaGetDeviceCount(&visible) != cudaSuccess) {
    (void)cudaGetLastError();
    return "no usable CUDA device";
  }
  const int want = gpus == 0 ? visible : gpus;
  const Launch& l = launch();
  if (want > visible) {
    return "needs " + std::to_string(want) + " GPUs per process (--gpus=" + std::to_string(want) + "), " +
           std::to_string(visible) + " visible";
  }
  // One rank has no LSA peer, and NCCL 2.28.3's ncclDevCommCreate refused such a communicator on
  // the H200 ("invalid usage"): listed unavailable rather than skipped at every size.
  if (combine == Combine::lsa && want * l.size < 2) return "needs 2 or more GPUs in the job (one rank has no LSA peer)";
  // Built against newer headers than the library loaded: the calls would not resolve.
  int library = 0;
  RB_NCCL_CHECK(ncclGetVersion(&library));
  if (combine == Combine::lsa) {
    const std::string why = needs_nccl(library, kDeviceApiSince, "device API", "the loaded library is");
    if (!why.empty() || library == NCCL_VERSION_CODE) return why;
    // ncclDevComm is laid out as this build's headers say, and NCCL 2.28 does not version it.
    return "the device API's structures are NCCL " + version_text(NCCL_VERSION_CODE) +
           "'s (this build's headers); the loaded library is " + version_text(library);
  }
  if (buffers == Buffers::symmetric) {
    return needs_nccl(library, kSymmetricSince, "symmetric memory", "the loaded library is");
  }
  return {};
}

std::string describe_world(int gpus) {
  int v = 0;
  (void)ncclGetVersion(&v);
  const Launch& l = launch();
  std::string d = "NCCL " + version_text(v);
  if (v != NCCL_VERSION_CODE) d += " (built with " + version_text(NCCL_VERSION_CODE) + ")";
  const std::string symmetric = unavailable_in_build(Combine::allreduce, Buffers::symmetric);
  const std::string lsa = unavailable_in_build(Combine::lsa, Buffers::symmetric);
  d += symmetric.empty() ? "; symmetric memory built" : "; symmetric memory not built";
  d += lsa.empty() ? ", device API built" : ", device API not built";
  d += "; " + (gpus == 0 ? std::string("all visible") : std::to_string(gpus)) + " GPU(s) per process";
  if (l.size > 1) d += "; " + std::to_string(l.size) + " processes launched by " + l.by;
  return d;
}

void release() { team_slot().reset(); }

}  // namespace rb::bench::nccl
