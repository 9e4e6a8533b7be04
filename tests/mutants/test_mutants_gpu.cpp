// Planted bugs in cuda/onepass, caught by the harness at n = 2^20 + 1 and 2^31 + 7 on signed
// uniform input: the last element skipped, one element counted twice (the exact check), and
// cuda/onepass_f64 accumulating in float: the float kernel's sum reported under the double
// kernel's stated structure (the accuracy bound).
#include <gtest/gtest.h>

#include "bench/backends/cuda_kernel.hpp"
#include "bench/gpu/context.hpp"
#include "bench/gpu/runner.hpp"
#include "tests/mutants/mutation.hpp"
#include "tests/support/gpu.hpp"

namespace {

using namespace rb::bench;
using namespace rb::bench::gpu;

enum class Bug { skip_last, count_twice, f64_in_float };

template <Bug kBug>
class OnepassMutant final : public GpuBackend {
 public:
  explicit OnepassMutant(const GpuProblem& p)
      : p_(p), inner_(cuda_kernel("cuda/onepass", rb::cuda::onepass).make(with_n(p, kBug == Bug::skip_last ? p.n - 1 : p.n))) {}
  void enqueue(cudaStream_t s) override { inner_->enqueue(s); }
  double result() override {
    double sum = inner_->result();
    if (kBug == Bug::count_twice && p_.n > 0) {
      float twice = 0;
      RB_CUDA_CHECK(cudaMemcpy(&twice, p_.input + p_.n / 2, sizeof twice, cudaMemcpyDeviceToHost));
      sum = static_cast<float>(static_cast<float>(sum) + twice);
    }
    return sum;
  }
  Structure structure() const override {
    if (kBug == Bug::f64_in_float) return kernel_structure(rb::cuda::onepass_f64.geometry(p_.n), p_.n, Accumulator::f64, false);
    return inner_->structure();
  }

 private:
  static GpuProblem with_n(const GpuProblem& p, std::int64_t n) { return {p.input, n, p.stream, p.scratch, p.out, p.sm_count}; }
  GpuProblem p_;
  std::unique_ptr<GpuBackend> inner_;
};

TEST(Mutants, GpuBugsAreCaught) {
  RB_REQUIRE_GPU();
  Session session(rb::test::small_options({(std::int64_t{1} << 20) + 1, (std::int64_t{1} << 31) + 7}));
  std::string why_not;
  const auto entries = bind_gpu_backends(session, {
      cuda_kernel("control/onepass", rb::cuda::onepass),
      cuda_kernel("control/onepass_f64", rb::cuda::onepass_f64),
      gpu_backend<OnepassMutant<Bug::skip_last>>("mutant/onepass_skip_last"),
      gpu_backend<OnepassMutant<Bug::count_twice>>("mutant/onepass_count_twice"),
      gpu_backend<OnepassMutant<Bug::f64_in_float>>("mutant/onepass_f64_in_float"),
  }, why_not);
  ASSERT_TRUE(why_not.empty()) << why_not;
  ASSERT_GT(rb::test::run_in_process(session, entries, "/cold"), 0u);
  rb::test::expect_caught(session,
                          {{"mutant/onepass_skip_last", "skips the last element", true},
                           {"mutant/onepass_count_twice", "counts x[n/2] twice", true},
                           {"mutant/onepass_f64_in_float", "onepass_f64 accumulating in float", false}},
                          {"control/onepass", "control/onepass_f64"}, "cold");
  release_gpu();
}

}  // namespace
