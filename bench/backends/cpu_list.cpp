// Every CPU backend, one line each. The order here is the order of the sweep.
//
// Accumulation (bench/verify.hpp), chosen per kernel by its real error bound:
//   f32_sequential  float chains: accumulate_f32 (one chain), unrolled8_f32 (8), avx2_f32 (32),
//                   avx512_f32 (64), std::reduce over floats, and ref/cpu_read (64). A chain
//                   runs over n/lanes elements, so the depth is linear in n, not logarithmic;
//                   the threaded versions only cut the chains shorter.
//   f32_tree        the Kahan kernels. Compensated float sums are accurate to ~2 u32 sum|x|
//                   whatever n is (plus an O(n u32^2) term): inside the f32_tree bound
//                   8 u32 log2(n) sum|x| at every n, but not to double accuracy. At n = 1000 the
//                   f64 bound is ~2^-40 sum|x|, 2^17 times below Kahan's worst case, and
//                   avx2_kahan fails it on 3994 of 4000 random_signed inputs (n = 100..4099).
//                   tests/kernels/cpu checks them against their own bound, 4 u32 sum|x|.
//   f64             double accumulators: accumulate_f64, unrolled8_f64, avx2_f64, avx512_f64.
// A parallel runtime keeps the kind of the kernel it wraps: its partials are added in double.
#include <string>

#include "bench/backends/backends.hpp"
#include "bench/backends/cpu_runtime.hpp"
#include "bench/cpu/runner.hpp"
#include "kernels/cpu/accumulate.hpp"
#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/avx512.hpp"
#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/openmp.hpp"
#include "kernels/cpu/pstl.hpp"
#include "kernels/cpu/read.hpp"
#include "kernels/cpu/threads.hpp"
#include "kernels/cpu/unrolled.hpp"

namespace rb::bench {
namespace {

// The first non-empty reason, or empty when every requirement is met.
std::string unless(const std::string& a, const std::string& b = {}) { return a.empty() ? b : a; }

}  // namespace

std::vector<BackendEntry> cpu_backend_entries(Session& session) {
  using namespace rb::cpu;
  constexpr auto seq = Accumulation::f32_sequential;
  constexpr auto kahan = Accumulation::f32_tree;
  constexpr auto f64 = Accumulation::f64;
  const std::string no_avx2 = has_avx2() ? "" : "CPU lacks AVX2";
  const std::string no_avx512 = has_avx512f() ? "" : "CPU lacks AVX-512F";
  const std::string no_omp = openmp_unavailable();
  const std::string no_tbb = pstl_unavailable();

  return bind_cpu_backends(
      session, {
                   // Serial kernels, in the order each one improves on the last.
                   cpu_function<&accumulate_f32>("cpu/accumulate_f32", seq),
                   cpu_function<&accumulate_f64>("cpu/accumulate_f64", f64),
                   cpu_function<&unrolled8_f32>("cpu/unrolled8_f32", seq),
                   cpu_function<&unrolled8_f64>("cpu/unrolled8_f64", f64),
                   cpu_function<&avx2_f32>("cpu/avx2_f32", seq, no_avx2),
                   cpu_function<&avx2_kahan>("cpu/avx2_kahan", kahan, no_avx2),
                   cpu_function<&avx2_f64>("cpu/avx2_f64", f64, no_avx2),
                   cpu_function<&avx512_f32>("cpu/avx512_f32", seq, no_avx512),
                   cpu_function<&avx512_kahan>("cpu/avx512_kahan", kahan, no_avx512),
                   cpu_function<&avx512_f64>("cpu/avx512_f64", f64, no_avx512),
                   // The standard library's own parallel reduce over raw floats (pstl.hpp).
                   cpu_runtime<StdReducePar>("cpu/std_reduce_par", seq, no_tbb),
                   cpu_runtime<StdReduceParUnseq>("cpu/std_reduce_par_unseq", seq, no_tbb),
                   // Parallel runtimes over the serial kernels: <kernel>/<runtime>.
                   cpu_runtime<StdPar<avx2_f32>>("cpu/avx2_f32/std_par", seq, unless(no_avx2, no_tbb)),
                   cpu_runtime<OpenMP<avx2_f32>>("cpu/avx2_f32/openmp", seq, unless(no_avx2, no_omp)),
                   cpu_runtime<OpenMP<avx2_f64>>("cpu/avx2_f64/openmp", f64, unless(no_avx2, no_omp)),
                   cpu_runtime<Threads<avx2_f32>>("cpu/avx2_f32/threads", seq, no_avx2),
                   cpu_runtime<Threads<avx2_kahan>>("cpu/avx2_kahan/threads", kahan, no_avx2),
                   cpu_runtime<Threads<avx2_f64>>("cpu/avx2_f64/threads", f64, no_avx2),
                   cpu_runtime<Threads<avx512_f32>>("cpu/avx512_f32/threads", seq, no_avx512),
                   cpu_runtime<Threads<avx512_kahan>>("cpu/avx512_kahan/threads", kahan, no_avx512),
                   cpu_runtime<Threads<avx512_f64>>("cpu/avx512_f64/threads", f64, no_avx512),
                   // The ceiling: the plainest vectorized read on the same pool (read.hpp).
                   cpu_runtime<Threads<read_f32>>("ref/cpu_read", seq),
               });
}

}  // namespace rb::bench
