// The CPU rows of every element type (--dtype), one table per type built by one template: the
// serial kernels of kernels/cpu/, then the runtimes over them (cpu_runtime.hpp), then the type's
// read ceiling. A row is named <kernel>[_acc<type>][/<runtime>], the element type being the @<type>
// at the end of the name for types other than f32 (cpu/avx2/threads@bf16); _acc<type> names an
// accumulator wider than the input's own (cpu/avx2_accf64: float input added in double, where
// cpu/avx2@f64 sums double input). The f32 sweep starts with these rows (cpu/accumulate sorts
// first; bench/detail/registry.hpp).
//
// Each kernel states its structure (bench/api/summation.hpp): `lanes(acc, L, T)` is L independent
// accumulators, each over every L-th element plus at most T more steps, then a tree over the lanes.
//   every type  accumulate (1 lane, each element widened exactly: f16/bf16 -> float, i32 -> int64),
//               avx2 (4 vectors of lanes: f16 through F16C, bf16 by a shift), avx512 (the same,
//               512-bit; AVX-512F only), the SIMD kernels sharing one loop (kernels/cpu/simd_sum.hpp)
//   f32         the accumulators in double (_accf64), unrolled8 (8 scalar lanes), Kahan (avx2_kahan
//               6 x 8 compensated lanes, avx512_kahan 4 x 16, horizontal step in double, the tail one
//               more step per lane), std::reduce over floats (TBB picks the leaves: stated as one chain)
//   bf16        avx512_bf16dp: vdpbf16ps against ones, 8 x 16 float lanes taking two elements per
//               instruction (AVX512_BF16, chosen at run time; bf16 denormals read as 0)
// A runtime cuts n into chunks on 64-byte boundaries, so its chains are the kernel's over one chunk,
// and adds the chunk partials in double (int64 for i32: exact for any n below 2^32, in any order).
// A float chain of 2^23 or more has no rounding bound below sum|x|: those rows (f32 accumulate from
// 2^23, unrolled8 from 2^26, the serial SIMD kernels from 2^28 and 2^29) are reported as unchecked for
// accuracy, and the exact check alone judges them.
// Determinism (bench/api/determinism.hpp): every row adds in an order fixed by n and the thread count
// (run_to_run), except OpenMP's over float partials and std::reduce's, marked below.
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/backends/cpu_isa.hpp"
#include "bench/backends/cpu_runtime.hpp"
#include "bench/api/cpu_backend.hpp"
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

using A = Accumulator;

// The runtimes a serial kernel's rows add: <kernel>/std_par, <kernel>/openmp, <kernel>/threads.
enum Runtimes : unsigned { kSerialOnly = 0, kStdPar = 1, kOpenMP = 2, kThreads = 4 };

// One serial kernel's row and the rows of the runtimes over it.
template <class T>
struct KernelRows {
  BackendDef<T> serial;
  std::optional<BackendDef<T>> std_par, openmp, threads;
};

// The kernel's row and, per runtime in Wrapped, that runtime's row over it: unavailable where the
// kernel's ISA or the runtime (OpenMP, TBB) is missing.
template <auto Kernel, unsigned Wrapped = kSerialOnly>
KernelRows<KernelElement<Kernel>> kernel_rows(const std::string& name, const Summation& s,
                                              const std::string& why = {}) {
  using namespace rb::cpu;
  KernelRows<KernelElement<Kernel>> k{cpu_function<Kernel>(name, s, why), {}, {}, {}};
  if constexpr ((Wrapped & kStdPar) != 0)
    k.std_par = cpu_runtime<StdPar<Kernel>>(name + "/std_par", s, unless(why, pstl_unavailable()));
  if constexpr ((Wrapped & kOpenMP) != 0) {
    // OpenMP's reduction clause adds float partials in whatever order the threads finish; int64
    // partials give the same exact sum in any order.
    const Determinism d =
        std::is_integral_v<PartialType<Kernel>> ? Determinism::run_to_run : Determinism::not_guaranteed;
    k.openmp = promising(d, cpu_runtime<OpenMP<Kernel>>(name + "/openmp", s, unless(why, openmp_unavailable())));
  }
  if constexpr ((Wrapped & kThreads) != 0) k.threads = cpu_runtime<Threads<Kernel>>(name + "/threads", s, why);
  return k;
}

// The SIMD kernels' structure (kernels/cpu/avx2.hpp, avx512.hpp): `doubles` lanes in double, twice
// as many in float (an int64 sum is stated alike: it is exact whatever its lanes).
Summation simd(A acc, int doubles) { return lanes(acc, acc == A::f64 ? doubles : 2 * doubles, 3); }

// What one element type adds to the kernels every type has: kernels after accumulate, avx2 and
// avx512 (in sweep order), and runtimes over the whole array of their own.
template <class T>
struct Extra {
  std::vector<KernelRows<T>> after_accumulate, after_avx2, after_avx512;
  std::vector<BackendDef<T>> whole_array;
};

// The rows in sweep order: the serial kernels, the runtimes over the whole array, then each
// runtime over the kernels it wraps (std_par, openmp, threads), and last the read ceiling.
template <class T>
std::vector<BackendDef<T>> table(std::vector<KernelRows<T>> kernels, std::vector<BackendDef<T>> whole_array,
                                 BackendDef<T> ceiling) {
  std::vector<BackendDef<T>> out;
  for (auto& k : kernels) out.push_back(std::move(k.serial));
  for (auto& def : whole_array) out.push_back(std::move(def));
  for (auto runtime : {&KernelRows<T>::std_par, &KernelRows<T>::openmp, &KernelRows<T>::threads})
    for (auto& k : kernels)
      if (k.*runtime) out.push_back(std::move(*(k.*runtime)));
  out.push_back(std::move(ceiling));
  return out;
}

// The rows of one element type: accumulate, avx2 (with Avx2Runtimes over it), avx512 (with its
// pool), the type's extras, and ref/cpu_read, the plain 64-lane loop over its elements (read.hpp)
// on the same pool, so that its GB/s compares with every type's. f16: avx2 needs F16C too.
template <auto Scalar, auto Avx2, auto Avx512, auto Read, unsigned Avx2Runtimes = kOpenMP | kThreads>
std::vector<BackendDef<KernelElement<Scalar>>> rows(A acc, Extra<KernelElement<Scalar>> extra = {}, bool f16 = false) {
  using T = KernelElement<Scalar>;
  std::vector<KernelRows<T>> kernels;
  const auto add = [&kernels](std::vector<KernelRows<T>>& more) {
    for (auto& k : more) kernels.push_back(std::move(k));
  };
  kernels.push_back(kernel_rows<Scalar>("cpu/accumulate", lanes(acc, 1)));
  add(extra.after_accumulate);
  kernels.push_back(kernel_rows<Avx2, Avx2Runtimes>("cpu/avx2", simd(acc, 16), no_avx2(f16)));
  add(extra.after_avx2);
  kernels.push_back(kernel_rows<Avx512, kThreads>("cpu/avx512", simd(acc, 32), no_avx512()));
  add(extra.after_avx512);
  return table(std::move(kernels), std::move(extra.whole_array),
               cpu_runtime<rb::cpu::Threads<Read>>("ref/cpu_read", lanes(acc, 64, 64)));
}

// f32's: the accumulators in double, unrolled8 and Kahan beside the shared kernels, the standard
// library's parallel reduce, and std::execution over avx2.
std::vector<BackendDef<float>> f32_rows() {
  using namespace rb::cpu;
  const std::string avx2 = no_avx2(), avx512 = no_avx512(), no_tbb = pstl_unavailable();
  Extra<float> x;
  x.after_accumulate = {kernel_rows<&accumulate_f64>("cpu/accumulate_accf64", lanes(A::f64, 1)),
                        kernel_rows<&unrolled8_f32>("cpu/unrolled8", lanes(A::f32, 8, 1)),
                        kernel_rows<&unrolled8_f64>("cpu/unrolled8_accf64", lanes(A::f64, 8, 1))};
  x.after_avx2 = {kernel_rows<&avx2_kahan, kThreads>("cpu/avx2_kahan", lanes(A::f32_compensated, 48, 48), avx2),
                  kernel_rows<&avx2_f64, kOpenMP | kThreads>("cpu/avx2_accf64", simd(A::f64, 16), avx2)};
  x.after_avx512 = {kernel_rows<&avx512_kahan, kThreads>("cpu/avx512_kahan", lanes(A::f32_compensated, 64, 64), avx512),
                    kernel_rows<&avx512_f64, kThreads>("cpu/avx512_accf64", simd(A::f64, 32), avx512)};
  // std::reduce over raw floats (pstl.hpp): TBB's work stealing decides where the ranges split and
  // in which order they join, so no two calls need agree.
  const Summation chain = lanes(A::f32, 1);
  const Determinism nd = Determinism::not_guaranteed;
  x.whole_array = {promising(nd, cpu_runtime<StdReducePar>("cpu/std_reduce_par", chain, no_tbb)),
                   promising(nd, cpu_runtime<StdReduceParUnseq>("cpu/std_reduce_par_unseq", chain, no_tbb))};
  return rows<&accumulate_f32, &avx2_f32, &avx512_f32, &read_f32, kStdPar | kOpenMP | kThreads>(A::f32, std::move(x));
}

// bf16's: the vdpbf16ps kernel after avx512, with its pool.
std::vector<BackendDef<rb::bf16>> bf16_rows() {
  using namespace rb::cpu;
  Extra<rb::bf16> x;
  const Summation dp = lanes(A::f32, 128, 14);
  x.after_avx512 = {kernel_rows<&avx512_bf16dp, kThreads>("cpu/avx512_bf16dp", dp, no_avx512_bf16())};
  return rows<&accumulate_bf16, &avx2_bf16, &avx512_bf16, &read_bf16>(A::f32, std::move(x));
}

}  // namespace

RB_REGISTER_BACKEND(f32_rows());
RB_REGISTER_BACKEND(rows<&cpu::accumulate_f64in, &cpu::avx2_f64in, &cpu::avx512_f64in, &cpu::read_f64in>(A::f64));
RB_REGISTER_BACKEND(rows<&cpu::accumulate_f16, &cpu::avx2_f16, &cpu::avx512_f16, &cpu::read_f16>(A::f32, {}, true));
RB_REGISTER_BACKEND(bf16_rows());
RB_REGISTER_BACKEND(rows<&cpu::accumulate_i32, &cpu::avx2_i32, &cpu::avx512_i32, &cpu::read_i32>(A::i64));

}  // namespace rb::bench
