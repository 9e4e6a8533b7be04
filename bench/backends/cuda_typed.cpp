// cuda/onepass and ref/read for the element types other than f32 (--dtype; kernels/cuda/typed.hpp):
// the same one-launch kernel and its read phase, reading 16-byte vectors of the type (8 f16 or
// bf16, 2 f64, 4 i32) and adding in float (f16, bf16), double (f64) or 64-bit integers (i32).
// onepass's adapter is cuda_kernel.hpp's typed_kernel (its structure from the variant's geometry
// at n, kernel_structure); ref/read is ref_read.hpp's.
#include <vector>

#include "bench/backends/cuda_kernel.hpp"
#include "bench/backends/ref_read.hpp"
#include "kernels/cuda/typed.hpp"

namespace rb::bench::gpu {
namespace {

template <class T>
std::vector<BackendDef<T>> rows(const rb::cuda::TypedVariant<T>& v) {
  return {typed_kernel<T>("cuda/onepass", v), gpu_backend<RefRead<T>, T>("ref/read")};
}

}  // namespace

RB_REGISTER_BACKEND(rows(rb::cuda::onepass_in_f64));
RB_REGISTER_BACKEND(rows(rb::cuda::onepass_in_f16));
RB_REGISTER_BACKEND(rows(rb::cuda::onepass_in_bf16));
RB_REGISTER_BACKEND(rows(rb::cuda::onepass_in_i32));

}  // namespace rb::bench::gpu
