#pragma once
// Faults a test can inject into the nccl/* loop (bench/nccl/runner.cpp). reduce_bench never sets
// them; the two-rank test builds its own executable that does (tests/bench/nccl/faults_from_env.cpp).
namespace rb::bench::nccl {

struct Faults {
  int noisy_rank = -1;        // this rank sleeps, and adds, a random 0..noise_max_s to each sample,
  double noise_max_s = 0;     // so that its stopping rule alone would decide differently
  bool no_agreement = false;  // each rank's stopping rule decides alone: the collectives lose pairs
};

Faults& faults();

}  // namespace rb::bench::nccl
