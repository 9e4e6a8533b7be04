// cuda/onepass and ref/read for the element types other than f32 (--dtype; kernels/cuda/typed.hpp):
// the same one-launch kernel and its read phase, reading 16-byte vectors of the type (8 f16 or
// bf16, 2 f64, 4 i32) and adding in float (f16, bf16), double (f64) or 64-bit integers (i32).
// The adapters are float's: cuda_kernel.hpp's cuda_kernel (float's cuda/onepass is a row of the
// progression table, cuda_kernels.cpp) and ref_read.hpp's RefRead (float's: cuda_ref.cpp).
#include <vector>

#include "bench/backends/cuda_kernel.hpp"
#include "bench/backends/ref_read.hpp"
#include "kernels/cuda/typed.hpp"

namespace rb::bench::gpu {
namespace {

template <class T>
std::vector<BackendDef<T>> rows(const rb::cuda::TypedVariant<T>& v) {
  return {cuda_kernel("cuda/onepass", v), gpu_backend<RefRead<T>, T>("ref/read")};
}

}  // namespace

RB_REGISTER_BACKEND(rows(rb::cuda::onepass_in_f64));
RB_REGISTER_BACKEND(rows(rb::cuda::onepass_in_f16));
RB_REGISTER_BACKEND(rows(rb::cuda::onepass_in_bf16));
RB_REGISTER_BACKEND(rows(rb::cuda::onepass_in_i32));

}  // namespace rb::bench::gpu
