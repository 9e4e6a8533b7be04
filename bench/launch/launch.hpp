#pragma once
// Who this process is in a multi-process launch (mpirun, srun, torchrun --no-python), read from
// the launcher's environment, and what that changes in main(): only rank 0 writes the console
// table and --benchmark_out files, and under a launcher only the collective rows (AcrossGpus,
// bench/api/definition.hpp) run, on every rank, because every rank must issue the same collectives in
// the same order. Generic: a CPU-only build reads the same variables, so that under mpirun it
// does not run every row on every rank; what joins the ranks is the collective rows' business.
#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench/detail/registry.hpp"

namespace rb::bench {

struct Launch {
  int rank = 0;        // this process among `size`
  int size = 1;        // processes in the job (1: not launched by a launcher)
  int local_rank = 0;  // among the processes of this node: picks the GPUs
  std::string by;      // "OpenMPI", "MPICH/PMI", "torchrun", "Slurm", "RANK/WORLD_SIZE"; empty when size is 1
  // Launcher variables of several processes found but not taken, and why (one line); empty when none.
  std::string ignored = {};  // "= {}": Launch{rank, size, local, by} stays warning-free
};

using Getenv = std::function<const char*(const char*)>;

// A launch counts only where the variables come with what their launcher always sets beside
// them, so that ones left in an ordinary shell, or a batch script's, do not turn a single
// process into "rank 3 of 8" (every single-process row unavailable). First found:
//   OpenMPI  OMPI_COMM_WORLD_RANK/_SIZE/_LOCAL_RANK   mpirun's own names: taken as they are
//   MPICH    PMI_RANK/PMI_SIZE/MPI_LOCALRANKID        mpiexec's, srun --mpi=pmi2's: the same
//   torchrun RANK/WORLD_SIZE/LOCAL_RANK with TORCHELASTIC_RUN_ID (torchrun sets it for every
//            worker; it comes before Slurm, as torchrun started by srun is the inner launcher)
//   Slurm    SLURM_PROCID/SLURM_STEP_NUM_TASKS/SLURM_LOCALID (srun's step; SLURM_NTASKS is the
//            allocation's, which a batch script's one process has too) with a rendezvous
//            (--rendezvous, RB_RENDEZVOUS) or PMIX_RANK (srun --mpi=pmix: MPI carries the NCCL id)
//   other    RANK/WORLD_SIZE/LOCAL_RANK with a rendezvous
// Ignored variables of a size above 1 are named in Launch::ignored. `rendezvous_flag`:
// --rendezvous, empty when not given. A taken rank outside [0, size) or a value that is no
// number throws std::invalid_argument.
Launch read_launch(const Getenv& env, const std::string& rendezvous_flag = {});
// This process's, read once: from the environment and --rendezvous on the first call of
// init_launch (main() makes it, and prints Launch::ignored on stderr), else from the environment
// alone on the first call of launch().
const Launch& init_launch(const std::string& rendezvous_flag);
const Launch& launch();

// Drops --benchmark_out=... and --benchmark_out_format=... from the arguments of a rank other
// than 0: one JSON file per job, from rank 0.
void drop_output_flags(const Launch& l, std::vector<char*>& args);
// A console reporter that prints nothing, for ranks other than 0.
std::unique_ptr<benchmark::BenchmarkReporter> silent_reporter();
// Under a launcher, every row that is not collective (BackendEntry::collective) becomes
// unavailable, on every rank: single-GPU rows would run on rank 0 only and leave the others
// waiting in NCCL. In one process the collective rows are unavailable unless --gpus was given
// (`gpus_given`): on one GPU they repeat single-GPU rows with a one-rank combine, and cost the
// default sweep 15 s.
void keep_collective_rows(const Launch& l, bool gpus_given, std::vector<BackendEntry>& entries);

}  // namespace rb::bench
