// The two-rank test's executable: reduce_bench's main and backends, plus faults installed through
// bench/nccl/faults.hpp's interface from the environment before main() runs:
//   RB_NCCL_TEST_NOISE_US=R:US   rank R sleeps and adds a random 0..US microseconds to each sample
//   RB_NCCL_UNSAFE_NO_AGREEMENT=1 the ranks' stopping rules decide alone (the control)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <thread>

#include "bench/nccl/faults.hpp"

namespace {

class FromEnv final : public rb::bench::nccl::Faults {
 public:
  FromEnv(int noisy_rank, double noise_max_s, bool agree)
      : noisy_rank_(noisy_rank), noise_max_s_(noise_max_s), agree_(agree) {}
  double after_sample(int rank) override {
    if (rank != noisy_rank_ || noise_max_s_ <= 0) return 0;
    const double s = std::uniform_real_distribution<double>(0, noise_max_s_)(rng_);
    std::this_thread::sleep_for(std::chrono::duration<double>(s));
    return s;
  }
  bool ranks_agree() const override { return agree_; }

 private:
  int noisy_rank_;
  double noise_max_s_;
  bool agree_;
  std::mt19937_64 rng_{12345};
};

const bool kFaultsInstalled = [] {
  int rank = -1;
  double us = 0;
  if (const char* spec = std::getenv("RB_NCCL_TEST_NOISE_US")) {
    if (std::sscanf(spec, "%d:%lf", &rank, &us) != 2 || us < 0) {
      std::fprintf(stderr, "RB_NCCL_TEST_NOISE_US='%s': expected RANK:MICROSECONDS\n", spec);
      std::exit(2);
    }
  }
  const bool agree = std::getenv("RB_NCCL_UNSAFE_NO_AGREEMENT") == nullptr;
  rb::bench::nccl::install_faults(std::make_unique<FromEnv>(rank, us * 1e-6, agree));
  return true;
}();

}  // namespace
