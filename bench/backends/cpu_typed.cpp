// The CPU rows of the element types other than f32 (--dtype; kernels/cpu/typed.hpp), named like
// the f32 rows' kernels without the type, which the row's @<dtype> carries:
//   cpu/accumulate   one accumulator, each element widened exactly (f16/bf16 -> float, f64 in
//                    double, i32 -> int64): std::accumulate as a user writes it
//   cpu/avx2         4 vectors of lanes (f16 through F16C, bf16 by a shift), tail T = 3
//   cpu/avx512       the same with 512-bit vectors (AVX-512F only)
// i32 rows add in int64: exact for any n below 2^32, whatever the order.
#include <string>
#include <vector>

#include "bench/cpu/backend.hpp"
#include "kernels/cpu/isa.hpp"
#include "kernels/cpu/typed.hpp"

namespace rb::bench {
namespace {

using A = Accumulator;

std::string no_avx2(bool f16) {
  if (!rb::cpu::has_avx2()) return "CPU lacks AVX2";
  return f16 && !rb::cpu::has_f16c() ? "CPU lacks F16C" : "";
}
std::string no_avx512() { return rb::cpu::has_avx512f() ? "" : "CPU lacks AVX-512F"; }

// The three rows of one type: the kernels' accumulator and their lanes (kernels/cpu/typed.hpp).
template <auto Scalar, auto Avx2, auto Avx512>
std::vector<BackendDef<KernelElement<Scalar>>> rows(A acc, bool f16 = false) {
  return {cpu_function<Scalar>("cpu/accumulate", lanes(acc, 1)),
          cpu_function<Avx2>("cpu/avx2", lanes(acc, 16 * (acc == A::f64 ? 1 : 2), 3), no_avx2(f16)),
          cpu_function<Avx512>("cpu/avx512", lanes(acc, 32 * (acc == A::f64 ? 1 : 2), 3), no_avx512())};
}

}  // namespace

RB_REGISTER_BACKEND(rows<&cpu::accumulate_f64in, &cpu::avx2_f64in, &cpu::avx512_f64in>(A::f64));
RB_REGISTER_BACKEND(rows<&cpu::accumulate_f16, &cpu::avx2_f16, &cpu::avx512_f16>(A::f32, true));
RB_REGISTER_BACKEND(rows<&cpu::accumulate_bf16, &cpu::avx2_bf16, &cpu::avx512_bf16>(A::f32));
RB_REGISTER_BACKEND(rows<&cpu::accumulate_i32, &cpu::avx2_i32, &cpu::avx512_i32>(A::i64));

}  // namespace rb::bench
