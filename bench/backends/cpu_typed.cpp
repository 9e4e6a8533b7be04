// The CPU rows of the element types other than f32 (--dtype; kernels/cpu/avx2.hpp, avx512.hpp), named like
// the f32 rows' kernels without the type, which the row's @<dtype> carries at the end of the name
// (cpu/avx2/threads@bf16: <kernel>/<runtime>@<type>, the type split off at the '@'):
//   cpu/accumulate   one accumulator, each element widened exactly (f16/bf16 -> float, f64 in
//                    double, i32 -> int64): std::accumulate as a user writes it
//   cpu/avx2         4 vectors of lanes (f16 through F16C, bf16 by a shift), tail T = 3
//   cpu/avx512       the same with 512-bit vectors (AVX-512F only)
//   cpu/avx512_bf16dp  bf16 only: vdpbf16ps against ones, 8 x 16 float lanes taking two elements
//                    per instruction (AVX512_BF16, chosen at run time; bf16 denormals read as 0)
//   <kernel>/threads, cpu/avx2/openmp   the f32 rows' runtimes (cpu_runtime.hpp) over these
//                    kernels: chunks on 64-byte boundaries, float partials added in double, i32
//                    partials in int64 (exact)
//   ref/cpu_read     the read ceiling of the type: ref/cpu_read's plain 64-lane loop over its
//                    elements (read.hpp) on the same pool, so its GB/s compares with the f32 one
// i32 rows add in int64: exact for any n below 2^32, whatever the order.
#include <string>
#include <vector>

#include "bench/backends/cpu_isa.hpp"
#include "bench/backends/cpu_runtime.hpp"
#include "bench/cpu/backend.hpp"
#include "kernels/cpu/openmp.hpp"
#include "kernels/cpu/read.hpp"
#include "kernels/cpu/threads.hpp"
#include "kernels/cpu/accumulate.hpp"
#include "kernels/cpu/avx2.hpp"
#include "kernels/cpu/avx512.hpp"

namespace rb::bench {
namespace {

using A = Accumulator;
using rb::cpu::OpenMP;
using rb::cpu::Threads;

// The rows of one type: the kernels' accumulator and their lanes (kernels/cpu/avx2.hpp, avx512.hpp, read.hpp).
template <auto Scalar, auto Avx2, auto Avx512, auto Read>
std::vector<BackendDef<KernelElement<Scalar>>> rows(A acc, bool f16 = false) {
  const int wide = acc == A::f64 ? 1 : 2;  // lanes per vector relative to a double's
  const Summation avx2 = lanes(acc, 16 * wide, 3), avx512 = lanes(acc, 32 * wide, 3);
  // OpenMP's reduction clause adds float partials in whatever order the threads finish; int64
  // partials give the same exact sum in any order.
  const Determinism omp = acc == A::i64 ? Determinism::run_to_run : Determinism::not_guaranteed;
  return {cpu_function<Scalar>("cpu/accumulate", lanes(acc, 1)),
          cpu_function<Avx2>("cpu/avx2", avx2, no_avx2(f16)),
          cpu_function<Avx512>("cpu/avx512", avx512, no_avx512()),
          promising(omp, cpu_runtime<OpenMP<Avx2>>("cpu/avx2/openmp", avx2,
                                                   unless(no_avx2(f16), rb::cpu::openmp_unavailable()))),
          cpu_runtime<Threads<Avx2>>("cpu/avx2/threads", avx2, no_avx2(f16)),
          cpu_runtime<Threads<Avx512>>("cpu/avx512/threads", avx512, no_avx512()),
          // The ceiling: what ref/cpu_read states for f32, in the type's accumulator.
          cpu_runtime<Threads<Read>>("ref/cpu_read", lanes(acc, 64, 64))};
}

// bf16's rows, with the vdpbf16ps kernel after avx512 (and its pool after avx512/threads).
std::vector<BackendDef<rb::bf16>> bf16_rows() {
  using namespace rb::cpu;
  auto out = rows<&accumulate_bf16, &avx2_bf16, &avx512_bf16, &read_bf16>(A::f32);
  const Summation dp = lanes(A::f32, 128, 14);
  out.insert(out.begin() + 3, cpu_function<&avx512_bf16dp>("cpu/avx512_bf16dp", dp, no_avx512_bf16()));
  out.insert(out.end() - 1, cpu_runtime<Threads<&avx512_bf16dp>>("cpu/avx512_bf16dp/threads", dp, no_avx512_bf16()));
  return out;
}

}  // namespace

RB_REGISTER_BACKEND(rows<&cpu::accumulate_f64in, &cpu::avx2_f64in, &cpu::avx512_f64in, &cpu::read_f64in>(A::f64));
RB_REGISTER_BACKEND(rows<&cpu::accumulate_f16, &cpu::avx2_f16, &cpu::avx512_f16, &cpu::read_f16>(A::f32, true));
RB_REGISTER_BACKEND(bf16_rows());
RB_REGISTER_BACKEND(rows<&cpu::accumulate_i32, &cpu::avx2_i32, &cpu::avx512_i32, &cpu::read_i32>(A::i64));

}  // namespace rb::bench
