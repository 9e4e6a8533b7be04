// Paired A/B throughput at n = 2^28 on the thread pool, for the ratios the CPU family is
// accepted on, robust to this machine's drifting memory bandwidth.
//
// Why: on the 2-core CI guest the bandwidth two threads get from DRAM switches, for seconds at a
// time, between ~33 GB/s and ~55 GB/s (the host's doing; single-thread figures do not move), so
// medians of two backends measured a minute apart by reduce_bench can come from different
// modes. Here every sample of B sits between two samples of A taken back to back (A B A); pairs
// whose two A samples differ by more than 10% (a switch mid-pair) are dropped, and the ratio
// B / mean(A) is reported per mode.
//
// Build and run (from the repository root, after building /tmp/build-cpu):
//   g++ -std=c++20 -O3 -I. results/ci-2core/paired_probe.cpp
//       /tmp/build-cpu/kernels/cpu/librb_kernels_cpu.a -lpthread -o /tmp/paired_probe
//   /tmp/paired_probe 90 > results/ci-2core/paired_probe.txt
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/read.hpp"
#include "kernels/cpu/threads.hpp"

namespace {

using namespace rb::cpu;
constexpr std::int64_t kN = std::int64_t{1} << 28;
constexpr double kFastMode = 45.0;  // GB/s of A above which a pair counts as the fast mode

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class Sum>
double gbs(Sum& sum, const float* x) {
  const auto t0 = std::chrono::steady_clock::now();
  volatile double s = sum(x, kN);
  (void)s;
  return 4.0 * kN / std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 1e9;
}

template <class A, class B>
void compare(const char* what, A& a, B& b, const float* x, int seconds) {
  std::vector<double> slow, fast;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < end) {
    const double a0 = gbs(a, x), bb = gbs(b, x), a1 = gbs(a, x);
    if (std::max(a0, a1) > 1.1 * std::min(a0, a1)) continue;
    const double base = (a0 + a1) / 2;
    (base > kFastMode ? fast : slow).push_back(bb / base);
  }
  std::printf("%-52s slow mode %.3f (%zu pairs)  fast mode %.3f (%zu pairs)\n", what, median(slow),
              slow.size(), median(fast), fast.size());
}

}  // namespace

int main(int argc, char** argv) {
  const int seconds = argc > 1 ? std::atoi(argv[1]) : 60;
  auto* x = static_cast<float*>(mmap(nullptr, kN * 4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (x == MAP_FAILED) return 1;
  madvise(x, kN * 4, MADV_HUGEPAGE);
  for (std::int64_t i = 0; i < kN; ++i) x[i] = static_cast<float>(i % 1000) * 0.001f - 0.5f;
  if (!has_avx2()) {
    std::puts("CPU lacks AVX2");
    return 0;
  }
  Threads<avx2_f32> naive;
  Threads<avx2_kahan> kahan;
  Threads<read_f32> read;
  std::printf("n = 2^28, %d threads, ratio B / A (median over pairs)\n", naive.threads());
  compare("B = cpu/avx2_kahan/threads, A = cpu/avx2_f32/threads", naive, kahan, x, seconds / 2);
  compare("B = cpu/avx2_f32/threads,   A = ref/cpu_read", read, naive, x, seconds / 2);
}
