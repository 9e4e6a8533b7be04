#pragma once
// Who this process is in a multi-process launch (mpirun, srun, torchrun --no-python), read from
// the launcher's environment, and what that changes in main(): only rank 0 writes the console
// table and --benchmark_out files, and under a launcher only the nccl/* rows run, on every rank,
// because every rank must issue the same collectives in the same order.
// No NCCL or CUDA here: a CPU-only build reads the same variables.
#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench/registry.hpp"

namespace rb::bench {

struct Launch {
  int rank = 0;        // this process among `size`
  int size = 1;        // processes in the job (1: not launched by a launcher)
  int local_rank = 0;  // among the processes of this node: picks the GPUs
  std::string by;      // "OpenMPI", "MPICH/PMI", "Slurm", "torchrun/RANK"; empty when size is 1
};

using Getenv = std::function<const char*(const char*)>;

// From, first found: OMPI_COMM_WORLD_RANK/_SIZE/_LOCAL_RANK; PMI_RANK/PMI_SIZE/MPI_LOCALRANKID;
// SLURM_PROCID/SLURM_STEP_NUM_TASKS (else SLURM_NTASKS)/SLURM_LOCALID; RANK/WORLD_SIZE/LOCAL_RANK.
// A rank outside [0, size) or a value that is no number throws std::invalid_argument.
Launch read_launch(const Getenv& env);
// This process's, read once from the environment.
const Launch& launch();

// Drops --benchmark_out=... and --benchmark_out_format=... from the arguments of a rank other
// than 0: one JSON file per job, from rank 0.
void drop_output_flags(const Launch& l, std::vector<char*>& args);
// A console reporter that prints nothing, for ranks other than 0.
std::unique_ptr<benchmark::BenchmarkReporter> silent_reporter();
// Under a launcher, every row that is not a collective one (nccl/...) becomes unavailable, on
// every rank: single-GPU rows would run on rank 0 only and leave the others waiting in NCCL.
void keep_collective_rows(const Launch& l, std::vector<BackendEntry>& entries);

}  // namespace rb::bench
