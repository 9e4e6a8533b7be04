#pragma once
// The hand-written CUDA sums as the host sees them (no device code: include it from .cpp files).
// Every variant has the same shape, in the order a caller uses it:
//
//   bytes = v.scratch_bytes(n);          untimed: sizes the grid for n on the current device,
//                                        querying SM count and occupancy once and caching them
//   v.prepare(scratch, bytes, stream);   untimed, once per scratch buffer, asynchronous
//                                        (onepass zeroes its slots; others: nothing)
//   v.sum(in, n, scratch, out, stream);  launches only: no synchronization, allocation or copy
//
// `in` (device) may start at any float boundary; n may be 0 (the sum is 0) or beyond 2^31.
// `out` (device) receives the sum. A scratch buffer serves one launch sequence at a time: two
// streams sharing one would share onepass's slots.
#include <cuda_runtime.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "common/dtype.hpp"
#include "kernels/cuda/tuning_entry.hpp"

namespace rb::cuda {

// What a variant launches for n; tests aim their sizes at its boundaries. (typed.hpp's variants:
// row and tile in elements of their type.)
struct Geometry {
  int grid = 0;           // blocks of the main pass
  int threads = 0;        // per block
  std::int64_t row = 0;   // floats a block reads with one load per thread
  std::int64_t tile = 0;  // floats a block reads per step of its loop (row x loads in flight)
  // A completion that rounds each partial to one fixed-point grid (FinishFixed): that error, as
  // the number of the accumulator's additions (its unit roundoff x sum|x| each: 2^-24 in float,
  // 2^-53 in double) that bound it; 0 for the others.
  std::int64_t window_roundings = 0;
};

// What a variant over elements of T adds in and writes: float for f32, f16 and bf16 (each element
// converted exactly), double for f64, long long for int32 (exact while |sum| < 2^63).
template <class T>
concept SummedElement = std::same_as<T, float> || std::same_as<T, f16> || std::same_as<T, bf16> ||
                        std::same_as<T, double> || std::same_as<T, std::int32_t>;
template <SummedElement T>
using SumType = std::conditional_t<std::same_as<T, double>, double,
                                   std::conditional_t<std::same_as<T, std::int32_t>, long long, float>>;

// One variant over elements of T (float here; typed.hpp's other types) writing an Out; geometry's
// row and tile count elements of T: a row is threads x 16 / sizeof(T) elements.
template <class T, class Out = SumType<T>>
struct TypedVariant {
  std::size_t (*scratch_bytes)(std::int64_t n);
  void (*prepare)(void* scratch, std::size_t bytes, cudaStream_t stream);
  void (*sum)(const T* in, std::int64_t n, void* scratch, Out* out, cudaStream_t stream);
  Geometry (*geometry)(std::int64_t n);
};
// The float instance (onepass_accf64 writes a double).
template <class Out>
using Variant = TypedVariant<float, Out>;

// In the order of the progression; each file's header says what changed and why. The same onepass
// over f16, bf16, double and int32 input: typed.hpp.
extern const Variant<float> shfl;          // shfl.cu
extern const Variant<float> vec4;          // vec4.cu
extern const Variant<float> vec4_ilp4;     // vec4_ilp4.cu
extern const Variant<float> vec4_auto;     // vec4_auto.cu (cuda/auto)
extern const Variant<float> onepass;       // onepass.cu
extern const Variant<double> onepass_accf64;  // onepass_accf64.cu

// onepass and onepass_accf64 with a tuning entry forced (tests, diagnostics): the sm_90 or the
// generic shapes on whatever device is current. TuningEntry::automatic gives onepass itself,
// which picks the entry of the current device at every call (tuning.cuh).
Variant<float> onepass_with(TuningEntry entry);          // onepass.cu
Variant<double> onepass_accf64_with(TuningEntry entry);  // onepass_accf64.cu

// The entry onepass and onepass_accf64 use on a device (a CUDA device ordinal), and its name for
// reports: "sm_90 (H200-measured)" or "generic (no entry for sm_86)". Queried once per device;
// the pointer stays valid for the life of the program. Throws rb::cuda::Error on a CUDA error.
TuningEntry onepass_tuning(int device);                // onepass.cu
const char* onepass_tuning_name(int device);           // onepass.cu

// The same variants as one table, in the same order (variants.cpp): the benchmark registers
// cuda/<name> for each entry and the kernel tests run every entry.
struct NamedVariant {
  std::string_view name;           // "onepass": the backend cuda/onepass
  const Variant<float>* f32;       // exactly one of f32 and f64 is set
  const Variant<double>* f64;
  std::string_view what;           // what it adds to the one before, in a line
};
std::span<const NamedVariant> variants();

}  // namespace rb::cuda
