#pragma once
// The element types a sweep sums (--dtype), as the harness sees them. Every type sums the same
// input: the float32 values of --dist or --input, stored in that type. Stored, each value is
// again a float exactly (f16, bf16: rounded to nearest even; f64: widened; i32: x * 2^20 rounded
// to nearest, saturated at +-(2^24 - 1), which only an --input value beyond +-16 reaches), so the
// references and the exact check's data of every type come from
// the float32 machinery applied to the values as stored (quantize).
#include <cstdint>
#include <string>
#include <vector>

#include "common/dtype.hpp"

namespace rb::bench {

using rb::Dtype;

// i32 stores x * kI32Scale: uniform [-1, 1) becomes integers in [-2^20, 2^20], and the exact
// check's integers [-8, 8] stay integers.
inline constexpr float kI32Scale = 1048576.0f;
inline constexpr double kI32Max = 16777215.0;

// x[0, count) replaced by the values as `d` stores them, as floats (exact: every stored value is one).
void quantize(Dtype d, float* x, std::int64_t count);
// src[0, count) stored as `d` into dst (count elements of dtype_bytes(d) bytes).
void store(Dtype d, const float* src, void* dst, std::int64_t count);

// The name's suffix for a type: "" for f32 (its names predate the axis), "@bf16" for the others:
// <backend>@<dtype>/<n>/<mode>.
std::string dtype_suffix(Dtype d);
// The types as --dtype takes them: "f32,bf16".
std::string dtype_list(const std::vector<Dtype>& types);
// X(T) for the storage type of every element type: the one list behind each explicit
// instantiation over the types.
#define RB_FOR_EACH_ELEMENT_TYPE(X) X(float) X(double) X(::rb::f16) X(::rb::bf16) X(std::int32_t)

// Calls f.template operator()<T>() with the storage type of `d` (float, double, f16, bf16, int32).
template <class F>
decltype(auto) with_element_type(Dtype d, F&& f) {
  switch (d) {
    case Dtype::f64: return f.template operator()<double>();
    case Dtype::f16: return f.template operator()<f16>();
    case Dtype::bf16: return f.template operator()<bf16>();
    case Dtype::i32: return f.template operator()<std::int32_t>();
    default: return f.template operator()<float>();
  }
}

// "f32,f64,f16,bf16,i32" or "all" (every type); throws std::invalid_argument naming a bad one.
std::vector<Dtype> parse_dtypes(const std::string& list);

}  // namespace rb::bench
