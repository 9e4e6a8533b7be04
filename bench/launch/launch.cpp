#include "bench/launch/launch.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

namespace rb::bench {
namespace {

int parse_int(const char* name, const char* text) {
  int v = 0;
  const std::string_view s(text);
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) {
    throw std::invalid_argument(std::string(name) + "='" + text + "' is not an integer");
  }
  return v;
}

struct Names {
  const char* by;
  const char* rank;
  const char* size;
  const char* local;
};

constexpr Names kOpenMpi{"OpenMPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"};
constexpr Names kPmi{"MPICH/PMI", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"};
constexpr Names kTorchrun{"torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK"};
constexpr Names kSlurm{"Slurm", "SLURM_PROCID", "SLURM_STEP_NUM_TASKS", "SLURM_LOCALID"};
constexpr Names kRankWorld{"RANK/WORLD_SIZE", "RANK", "WORLD_SIZE", "LOCAL_RANK"};

bool present(const Getenv& env, const char* name) { return env(name) != nullptr; }

bool has(const Getenv& env, const Names& n) { return present(env, n.rank) && present(env, n.size); }

// The launch the variables of `n` describe (all of them set: has(env, n)).
Launch take(const Getenv& env, const Names& n) {
  const char* rank = env(n.rank);
  const char* size = env(n.size);
  Launch l;
  l.rank = parse_int(n.rank, rank);
  l.size = parse_int(n.size, size);
  const char* local = env(n.local);
  l.local_rank = local ? parse_int(n.local, local) : 0;
  if (l.size < 1 || l.rank < 0 || l.rank >= l.size || l.local_rank < 0) {
    throw std::invalid_argument(std::string(n.by) + " launch: rank " + rank + " of " + size + " (local " +
                                (local ? local : "unset") + ") is out of range");
  }
  if (l.size > 1) l.by = n.by;
  else l = Launch{};
  return l;
}

// "RANK=3 WORLD_SIZE=8" when those would have meant several processes; empty otherwise (a size of
// 1, or text that is no number: nothing is lost by not taking them).
std::string several(const Getenv& env, const char* rank, const char* size) {
  const char* r = env(rank);
  const char* s = env(size);
  if (!r || !s) return {};
  int n = 0;
  const std::string_view text(s);
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || ptr != text.data() + text.size() || n <= 1) return {};
  return std::string(rank) + "=" + r + " " + size + "=" + s;
}

}  // namespace

Launch read_launch(const Getenv& env, const std::string& rendezvous_flag) {
  if (has(env, kOpenMpi)) return take(env, kOpenMpi);
  if (has(env, kPmi)) return take(env, kPmi);
  const bool rendezvous = !rendezvous_flag.empty() || present(env, "RB_RENDEZVOUS");
  if (has(env, kTorchrun) && present(env, "TORCHELASTIC_RUN_ID")) return take(env, kTorchrun);
  if (has(env, kSlurm) && (rendezvous || present(env, "PMIX_RANK"))) return take(env, kSlurm);
  if (has(env, kRankWorld) && rendezvous) return take(env, kRankWorld);

  std::string ignored;
  const auto note = [&ignored](const std::string& vars, const std::string& why) {
    if (!vars.empty()) ignored += (ignored.empty() ? "" : "; ") + vars + " ignored: " + why;
  };
  note(several(env, "RANK", "WORLD_SIZE"),
       "torchrun sets TORCHELASTIC_RUN_ID beside them, and another launcher needs --rendezvous or RB_RENDEZVOUS");
  if (present(env, kSlurm.size)) {
    note(several(env, "SLURM_PROCID", kSlurm.size),
         "srun without MPI needs --rendezvous or RB_RENDEZVOUS (docs/multi-gpu.md)");
  } else {
    note(several(env, "SLURM_PROCID", "SLURM_NTASKS"),
         "no SLURM_STEP_NUM_TASKS: a batch script's or a copied environment, not a task of srun");
  }
  Launch l;
  if (!ignored.empty()) l.ignored = ignored + "; running as one process, every row available";
  return l;
}

namespace {

const Launch& launch_once(const std::string* rendezvous_flag) {
  static const Launch l = [rendezvous_flag] {
    Launch r = read_launch([](const char* name) { return std::getenv(name); },
                           rendezvous_flag ? *rendezvous_flag : std::string());
    if (rendezvous_flag && !r.ignored.empty()) std::fprintf(stderr, "reduce_bench: %s\n", r.ignored.c_str());
    return r;
  }();
  return l;
}

}  // namespace

const Launch& init_launch(const std::string& rendezvous_flag) { return launch_once(&rendezvous_flag); }

const Launch& launch() { return launch_once(nullptr); }

void drop_output_flags(const Launch& l, std::vector<char*>& args) {
  if (l.rank == 0) return;
  std::erase_if(args, [](const char* a) { return a && std::string_view(a).starts_with("--benchmark_out"); });
}

namespace {

class Silent final : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

}  // namespace

std::unique_ptr<benchmark::BenchmarkReporter> silent_reporter() { return std::make_unique<Silent>(); }

void keep_collective_rows(const Launch& l, bool gpus_given, std::vector<BackendEntry>& entries) {
  if (l.size == 1) {
    if (gpus_given) return;
    for (auto& e : entries) {
      if (e.collective && e.unavailable.empty()) {
        e.unavailable = "one process, --gpus not given: rows over several GPUs run with --gpus=G or as several "
                        "ranks (docs/multi-gpu.md)";
      }
    }
    return;
  }
  for (auto& e : entries) {
    if (!e.collective && e.unavailable.empty()) {
      e.unavailable = "launched as " + std::to_string(l.size) + " processes (" + l.by +
                      "): only the rows over several GPUs run, the same on every rank";
    }
  }
}

}  // namespace rb::bench
