#include "bench/detail/element.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string_view>

namespace rb::bench {
namespace {

std::int32_t to_i32(float x) {
  const double v = std::nearbyint(static_cast<double>(x) * kI32Scale);
  if (std::isnan(v)) return 0;
  return static_cast<std::int32_t>(std::clamp(v, -kI32Max, kI32Max));
}

float stored(Dtype d, float x) {
  switch (d) {
    case Dtype::f16:
      return to_float(to_f16(x));
    case Dtype::bf16:
      return to_float(to_bf16(x));
    case Dtype::i32:
      return static_cast<float>(to_i32(x));
    default:
      return x;
  }
}

}  // namespace

void quantize(Dtype d, float* x, std::int64_t count) {
  if (d == Dtype::f32 || d == Dtype::f64) return;
  for (std::int64_t i = 0; i < count; ++i) x[i] = stored(d, x[i]);
}

void store(Dtype d, const float* src, void* dst, std::int64_t count) {
  switch (d) {
    case Dtype::f32:
      std::memcpy(dst, src, static_cast<std::size_t>(count) * sizeof(float));
      return;
    case Dtype::f64:
      std::copy(src, src + count, static_cast<double*>(dst));
      return;
    case Dtype::f16:
      std::transform(src, src + count, static_cast<f16*>(dst), [](float x) { return to_f16(x); });
      return;
    case Dtype::bf16:
      std::transform(src, src + count, static_cast<bf16*>(dst), [](float x) { return to_bf16(x); });
      return;
    case Dtype::i32:
      std::transform(src, src + count, static_cast<std::int32_t*>(dst), to_i32);
      return;
  }
}

std::string dtype_suffix(Dtype d) { return d == Dtype::f32 ? std::string() : "@" + std::string(dtype_name(d)); }

std::string dtype_list(const std::vector<Dtype>& types) {
  std::string list;
  for (const Dtype d : types) list += (list.empty() ? "" : ",") + std::string(dtype_name(d));
  return list;
}

std::vector<Dtype> parse_dtypes(const std::string& list) {
  if (list == "all") return {Dtype::f32, Dtype::f64, Dtype::f16, Dtype::bf16, Dtype::i32};
  std::vector<Dtype> out;
  std::string_view rest = list;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto d = parse_dtype(item);
    if (!d)
      throw std::invalid_argument("unknown type '" + std::string(item) + "': expected f32, f64, f16, bf16, i32 or all");
    if (std::find(out.begin(), out.end(), *d) == out.end()) out.push_back(*d);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace rb::bench
