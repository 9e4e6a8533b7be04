#include "bench/nccl/launch.hpp"

#include <charconv>
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
  const char* size;      // first choice
  const char* size_alt;  // when the first is unset (nullptr: none)
  const char* local;
};

// OpenMPI before Slurm: mpirun inside an allocation sees both, and its own are the processes'.
// Slurm's batch step has SLURM_PROCID=0 and SLURM_NTASKS of the whole job but runs one process;
// srun's tasks also have SLURM_STEP_NUM_TASKS, which is preferred.
constexpr Names kLaunchers[] = {
    {"OpenMPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", nullptr, "OMPI_COMM_WORLD_LOCAL_RANK"},
    {"MPICH/PMI", "PMI_RANK", "PMI_SIZE", nullptr, "MPI_LOCALRANKID"},
    {"Slurm", "SLURM_PROCID", "SLURM_STEP_NUM_TASKS", "SLURM_NTASKS", "SLURM_LOCALID"},
    {"torchrun/RANK", "RANK", "WORLD_SIZE", nullptr, "LOCAL_RANK"},
};

}  // namespace

Launch read_launch(const Getenv& env) {
  for (const auto& n : kLaunchers) {
    const char* rank = env(n.rank);
    const char* size = env(n.size);
    if (!size && n.size_alt) size = env(n.size_alt);
    if (!rank || !size) continue;
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
  return {};
}

const Launch& launch() {
  static const Launch l = read_launch([](const char* name) { return std::getenv(name); });
  return l;
}

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

void keep_collective_rows(const Launch& l, std::vector<BackendEntry>& entries) {
  if (l.size == 1) return;
  for (auto& e : entries) {
    if (!e.name.starts_with("nccl/") && e.unavailable.empty()) {
      e.unavailable = "launched as " + std::to_string(l.size) + " processes (" + l.by +
                      "): only the nccl/* rows run, the same on every rank";
    }
  }
}

}  // namespace rb::bench
