// The built-in CPU backends (kernels/cpu/), one registration: the rows keep the order listed here,
// and the CPU sweep starts with them (cpu/accumulate_f32 sorts first; bench/registry.hpp).
//
// Each line states the serial kernel's structure (bench/summation.hpp): `lanes(acc, L)` is L
// independent accumulators, each over every L-th element, then a tree over the lanes. A runtime
// (cpu_runtime.hpp) cuts n into chunks, so its chains are the kernel's over one chunk, and adds
// the chunk partials in double. A float chain of 2^23 or more has no rounding bound below sum|x|:
// those rows (accumulate_f32 from 2^23, unrolled8_f32 from 2^26, the serial SIMD kernels from
// 2^28 and 2^29) are reported as unchecked for accuracy, and the exact check alone judges them.
//   f32:   accumulate_f32 (1 lane), unrolled8_f32 (8), avx2_f32 (4 x 8), avx512_f32 (4 x 16),
//          read_f32 (64), std::reduce over floats (TBB picks the leaves: stated as one chain).
//   Kahan: avx2_kahan (6 x 8 compensated lanes), avx512_kahan (4 x 16), horizontal step in double.
//   f64:   accumulate_f64 (1), unrolled8_f64 (8), avx2_f64 (4 x 4), avx512_f64 (4 x 8).
// The loop the SIMD kernels share adds at most 3 steps to a chain (kernels/cpu/simd_sum.hpp), as
// for the other element types (cpu_typed.cpp); Kahan's tail is stated as one more per lane.
// Determinism (bench/determinism.hpp): every row adds in an order fixed by n and the thread count
// (run_to_run), except the two marked below.
#include <string>
#include <vector>

#include "bench/backends/cpu_isa.hpp"
#include "bench/backends/cpu_runtime.hpp"
#include "bench/cpu/backend.hpp"
#include "kernels/cpu/accumulate.hpp"
#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/avx512.hpp"
#include "kernels/cpu/openmp.hpp"
#include "kernels/cpu/pstl.hpp"
#include "kernels/cpu/read.hpp"
#include "kernels/cpu/threads.hpp"
#include "kernels/cpu/unrolled.hpp"

namespace rb::bench {
namespace {

std::vector<BackendDef<float>> cpu_kernels() {
  using namespace rb::cpu;
  using A = Accumulator;
  const std::string avx2 = no_avx2(), avx512 = no_avx512();
  const std::string no_omp = openmp_unavailable();
  const std::string no_tbb = pstl_unavailable();
  const Summation chain32 = lanes(A::f32, 1), chain64 = lanes(A::f64, 1);
  const Summation avx2_32 = lanes(A::f32, 32, 3), avx2_k = lanes(A::f32_compensated, 48, 48),
                  avx2_64 = lanes(A::f64, 16, 3);
  const Summation avx512_32 = lanes(A::f32, 64, 3), avx512_k = lanes(A::f32_compensated, 64, 64),
                  avx512_64 = lanes(A::f64, 32, 3);

  return {
    // Serial kernels, in the order each one improves on the last.
    cpu_function<&accumulate_f32>("cpu/accumulate_f32", chain32),
    cpu_function<&accumulate_f64>("cpu/accumulate_f64", chain64),
    cpu_function<&unrolled8_f32>("cpu/unrolled8_f32", lanes(A::f32, 8, 1)),
    cpu_function<&unrolled8_f64>("cpu/unrolled8_f64", lanes(A::f64, 8, 1)),
    cpu_function<&avx2_f32>("cpu/avx2_f32", avx2_32, avx2),
    cpu_function<&avx2_kahan>("cpu/avx2_kahan", avx2_k, avx2),
    cpu_function<&avx2_f64>("cpu/avx2_f64", avx2_64, avx2),
    cpu_function<&avx512_f32>("cpu/avx512_f32", avx512_32, avx512),
    cpu_function<&avx512_kahan>("cpu/avx512_kahan", avx512_k, avx512),
    cpu_function<&avx512_f64>("cpu/avx512_f64", avx512_64, avx512),
    // The standard library's own parallel reduce over raw floats (pstl.hpp). TBB's work stealing
    // decides where the ranges split and in which order they join: no two calls need agree.
    promising(Determinism::not_guaranteed, cpu_runtime<StdReducePar>("cpu/std_reduce_par", chain32, no_tbb)),
    promising(Determinism::not_guaranteed,
              cpu_runtime<StdReduceParUnseq>("cpu/std_reduce_par_unseq", chain32, no_tbb)),
    // Parallel runtimes over the serial kernels: <kernel>/<runtime>.
    cpu_runtime<StdPar<avx2_f32>>("cpu/avx2_f32/std_par", avx2_32, unless(avx2, no_tbb)),
    // An OpenMP reduction clause combines the threads' partials in whatever order they finish.
    promising(Determinism::not_guaranteed,
              cpu_runtime<OpenMP<avx2_f32>>("cpu/avx2_f32/openmp", avx2_32, unless(avx2, no_omp))),
    promising(Determinism::not_guaranteed,
              cpu_runtime<OpenMP<avx2_f64>>("cpu/avx2_f64/openmp", avx2_64, unless(avx2, no_omp))),
    cpu_runtime<Threads<avx2_f32>>("cpu/avx2_f32/threads", avx2_32, avx2),
    cpu_runtime<Threads<avx2_kahan>>("cpu/avx2_kahan/threads", avx2_k, avx2),
    cpu_runtime<Threads<avx2_f64>>("cpu/avx2_f64/threads", avx2_64, avx2),
    cpu_runtime<Threads<avx512_f32>>("cpu/avx512_f32/threads", avx512_32, avx512),
    cpu_runtime<Threads<avx512_kahan>>("cpu/avx512_kahan/threads", avx512_k, avx512),
    cpu_runtime<Threads<avx512_f64>>("cpu/avx512_f64/threads", avx512_64, avx512),
    // The ceiling: the plainest vectorized read on the same pool (read.hpp).
    cpu_runtime<Threads<read_f32>>("ref/cpu_read", lanes(A::f32, 64, 64)),
  };
}

}  // namespace

RB_REGISTER_BACKEND(cpu_kernels());

}  // namespace rb::bench
