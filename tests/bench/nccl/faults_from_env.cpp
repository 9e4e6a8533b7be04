// The two-rank test's executable: reduce_bench's main and backends, plus the faults of
// bench/nccl/faults.hpp read from the environment before main() runs:
//   RB_NCCL_TEST_NOISE_US=R:US   rank R sleeps and adds a random 0..US microseconds to each sample
//   RB_NCCL_UNSAFE_NO_AGREEMENT=1 the ranks' stopping rules decide alone (the control)
#include <cstdio>
#include <cstdlib>

#include "bench/nccl/faults.hpp"

namespace {

const bool kFaultsRead = [] {
  auto& f = rb::bench::nccl::faults();
  if (const char* spec = std::getenv("RB_NCCL_TEST_NOISE_US")) {
    double us = 0;
    if (std::sscanf(spec, "%d:%lf", &f.noisy_rank, &us) != 2 || us < 0) {
      std::fprintf(stderr, "RB_NCCL_TEST_NOISE_US='%s': expected RANK:MICROSECONDS\n", spec);
      std::exit(2);
    }
    f.noise_max_s = us * 1e-6;
  }
  f.no_agreement = std::getenv("RB_NCCL_UNSAFE_NO_AGREEMENT") != nullptr;
  return true;
}();

}  // namespace
