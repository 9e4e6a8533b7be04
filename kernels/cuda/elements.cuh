#pragma once
// What a kernel does with one element type T (layout.cuh: SplitOf<T>): the zero vector, one
// element converted to the accumulator, and one 16-byte vector's elements summed in it. Every
// conversion is exact (half, bfloat16 -> float; float -> double; int32 -> int64), so the only
// roundings are the additions', in the order these functions and chunk_sum.cuh fix.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/dtype.hpp"
#include "kernels/cuda/layout.cuh"

namespace rb::cuda {

// The four floats of v, added pairwise in Acc (each converted first when Acc is double).
template <class Acc>
__device__ __forceinline__ Acc lane_sum(float4 v) {
  return (Acc(v.x) + Acc(v.y)) + (Acc(v.z) + Acc(v.w));
}

template <class T>
struct Element;

template <>
struct Element<float> {
  __device__ __forceinline__ static float4 zero() { return make_float4(0.0f, 0.0f, 0.0f, 0.0f); }
  template <class Acc>
  __device__ __forceinline__ static Acc widen(float v) {
    return Acc(v);
  }
  template <class Acc>
  __device__ __forceinline__ static Acc vector_sum(float4 v) {
    return lane_sum<Acc>(v);
  }
};

template <>
struct Element<double> {
  __device__ __forceinline__ static double2 zero() { return make_double2(0.0, 0.0); }
  template <class Acc>
  __device__ __forceinline__ static Acc widen(double v) {
    return Acc(v);
  }
  template <class Acc>
  __device__ __forceinline__ static Acc vector_sum(double2 v) {
    return Acc(v.x) + Acc(v.y);
  }
};

// Acc is a 64-bit integer: every int32 is sign-extended before its first addition.
template <>
struct Element<std::int32_t> {
  __device__ __forceinline__ static int4 zero() { return make_int4(0, 0, 0, 0); }
  template <class Acc>
  __device__ __forceinline__ static Acc widen(std::int32_t v) {
    return Acc(v);
  }
  template <class Acc>
  __device__ __forceinline__ static Acc vector_sum(int4 v) {
    return (Acc(v.x) + Acc(v.y)) + (Acc(v.z) + Acc(v.w));
  }
};

namespace detail {

// Eight 16-bit floats (the bits of H, __half or __nv_bfloat16, as loaded in a uint4) converted to
// float in pairs (Pair2: __half2 or __nv_bfloat162) and added pairwise in Acc:
// (((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7))).
template <class Acc, class Pair2, class ToFloat2>
__device__ __forceinline__ Acc sum_of_eight(uint4 v, ToFloat2 to_float2) {
  const unsigned words[4] = {v.x, v.y, v.z, v.w};
  Acc pair[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    Pair2 h;
    std::memcpy(&h, &words[k], sizeof(h));  // a register reinterpreted, no memory access
    const float2 f = to_float2(h);
    pair[k] = Acc(f.x) + Acc(f.y);
  }
  return (pair[0] + pair[1]) + (pair[2] + pair[3]);
}

// Either 16-bit float type H, converted by the overloads below (Pair2: __half2 or __nv_bfloat162).
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ float2 to_float2(__half2 h) { return __half22float2(h); }
__device__ __forceinline__ float2 to_float2(__nv_bfloat162 h) { return __bfloat1622float2(h); }

template <class H, class Pair2>
struct Element16 {
  __device__ __forceinline__ static uint4 zero() { return make_uint4(0u, 0u, 0u, 0u); }  // +0.0 x 8
  template <class Acc>
  __device__ __forceinline__ static Acc widen(H v) {
    return Acc(to_float(v));
  }
  template <class Acc>
  __device__ __forceinline__ static Acc vector_sum(uint4 v) {
    return detail::sum_of_eight<Acc, Pair2>(v, [](Pair2 h) { return to_float2(h); });
  }
};

}  // namespace detail

template <>
struct Element<__half> : detail::Element16<__half, __half2> {};
template <>
struct Element<__nv_bfloat16> : detail::Element16<__nv_bfloat16, __nv_bfloat162> {};

namespace detail {

// The type a kernel reads for a storage type T of the host API (common/dtype.hpp: the same bits).
template <class T>
using DeviceElementOf =
    std::conditional_t<std::is_same_v<T, f16>, __half, std::conditional_t<std::is_same_v<T, bf16>, __nv_bfloat16, T>>;

template <class T>
const DeviceElementOf<T>* device_elements(const T* in) {
  return reinterpret_cast<const DeviceElementOf<T>*>(in);
}

}  // namespace detail

// The CUDA type of a host storage type: __half for f16, __nv_bfloat16 for bf16, T otherwise.
template <class T>
using DeviceType = detail::DeviceElementOf<T>;

}  // namespace rb::cuda
