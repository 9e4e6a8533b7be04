#pragma once
// Faults a test executable injects into the rows over several GPUs (bench/nccl/runner.cpp):
// reduce_bench installs none, and then the sampling loop is the plain one (no check in it).
// The two-rank test's executable installs one (tests/bench/nccl/faults_from_env.cpp).
#include <memory>

namespace rb::bench::nccl {

class Faults {
 public:
  virtual ~Faults() = default;
  // Called after each sample of rank `rank`: seconds to add to that sample (it may sleep them
  // too), so that this rank's stopping rule alone would decide differently.
  virtual double after_sample(int rank) = 0;
  // Whether the ranks' stopping rules agree; the control of the two-rank test says no.
  virtual bool ranks_agree() const { return true; }
};

// Installs `faults` for the rest of the process (before main(), from a test executable).
void install_faults(std::unique_ptr<Faults> faults);
// The installed faults, or nullptr.
Faults* installed_faults();

}  // namespace rb::bench::nccl
