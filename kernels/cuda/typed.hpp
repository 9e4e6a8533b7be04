#pragma once
// cuda/onepass for element types other than float, as the host sees them (no device code: include
// it from .cpp files). The same kernel and the same calls as sum.hpp's onepass, whose
// TypedVariant<float> they are other instances of (scratch_bytes, prepare, sum, geometry; see
// there), reading T and accumulating in SumType<T> (sum.hpp):
//   f16, bf16        float     each element converted exactly, then float additions
//   double           double
//   std::int32_t     long long exact while |sum| < 2^63: always for n <= 2^32
// Device pointers of f16 and bf16 are passed as common/dtype.hpp's storage types (the layout of
// __half and __nv_bfloat16), so host code needs no CUDA half-precision header. `in` may start at
// any element boundary; the vectors are 16 bytes (8, 8, 2 and 4 elements) and the head and tail
// around them are added by single threads, as onepass does with floats.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/dtype.hpp"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/tuning_entry.hpp"

namespace rb::cuda {

// The tuning entry of the current device, resolved per call as onepass does (onepass_in_*.cu).
extern const TypedVariant<f16> onepass_in_f16;
extern const TypedVariant<bf16> onepass_in_bf16;
extern const TypedVariant<double> onepass_in_f64;
extern const TypedVariant<std::int32_t> onepass_in_i32;

// Any of them, float's too, with a tuning entry forced (tests, diagnostics), as onepass_with:
// defined in onepass.cuh, instantiated once per type in its onepass file.
template <class T>
TypedVariant<T> typed_onepass_with(TuningEntry entry);
extern template TypedVariant<float> typed_onepass_with<float>(TuningEntry entry);
extern template TypedVariant<f16> typed_onepass_with<f16>(TuningEntry entry);
extern template TypedVariant<bf16> typed_onepass_with<bf16>(TuningEntry entry);
extern template TypedVariant<double> typed_onepass_with<double>(TuningEntry entry);
extern template TypedVariant<std::int32_t> typed_onepass_with<std::int32_t>(TuningEntry entry);

namespace ref {

// ref/read for each element type (ref_read.cu): the typed onepass's read phase alone, its
// Large shape and grid rule, as ref.hpp's read for floats. Every block reads its chunk, converts
// and adds it in SumType<T>, and writes partials[block]; the caller adds the partials after
// timing (so the read is checked). read_blocks(dtype, n) says how many (an untimed first call
// queries occupancy); Dtype::f32 gives ref.hpp's read_blocks(n).
int read_blocks(Dtype dtype, std::int64_t n);
void read(const f16* in, std::int64_t n, float* partials, cudaStream_t stream);
void read(const bf16* in, std::int64_t n, float* partials, cudaStream_t stream);
void read(const double* in, std::int64_t n, double* partials, cudaStream_t stream);
void read(const std::int32_t* in, std::int64_t n, long long* partials, cudaStream_t stream);

}  // namespace ref
}  // namespace rb::cuda
