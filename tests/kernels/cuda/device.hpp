#pragma once
// What the CUDA kernel tests share: device arrays, and running a variant once on device data
// with its own scratch and a NaN-poisoned result (so a launch that writes nothing fails).
// The kernels are called directly, without the benchmark harness.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "tests/support/data.hpp"
#include "common/cuda_check.hpp"
#include "kernels/cuda/sum.hpp"

namespace rb::test {

template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t count) : count_(count) {
    if (count > 0) RB_CUDA_CHECK(cudaMalloc(&ptr_, count * sizeof(T)));
  }
  ~DeviceArray() {
    if (ptr_) (void)cudaFree(ptr_);
  }
  DeviceArray(DeviceArray&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* get() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return count_; }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// x copied to a new device array.
template <class T>
DeviceArray<T> upload(std::span<const T> x) {
  DeviceArray<T> d(x.size());
  if (!x.empty()) RB_CUDA_CHECK(cudaMemcpy(d.get(), x.data(), x.size_bytes(), cudaMemcpyHostToDevice));
  return d;
}

inline DeviceArray<float> upload(std::span<const float> x) {
  DeviceArray<float> d(x.size());
  if (!x.empty()) RB_CUDA_CHECK(cudaMemcpy(d.get(), x.data(), x.size_bytes(), cudaMemcpyHostToDevice));
  return d;
}

template <class T>
T read_back(const T* device_value) {
  T v{};
  RB_CUDA_CHECK(cudaMemcpy(&v, device_value, sizeof(T), cudaMemcpyDeviceToHost));
  RB_CUDA_CHECK(cudaGetLastError());
  return v;
}

// One launch of v.sum into a NaN-poisoned out, on the legacy default stream; scratch must have
// been prepared (v.prepare) for its first use.
template <class Out>
Out sum_into(const cuda::Variant<Out>& v, const float* in, std::int64_t n, void* scratch, Out* out) {
  RB_CUDA_CHECK(cudaMemset(out, 0xFF, sizeof(Out)));  // all ones: NaN in float and double
  v.sum(in, n, scratch, out, nullptr);
  return read_back(out);
}

// One call the way a user makes it: scratch sized for n, prepared, one launch.
template <class Out>
Out sum_once(const cuda::Variant<Out>& v, const float* in, std::int64_t n) {
  const std::size_t bytes = std::max<std::size_t>(v.scratch_bytes(n), 1);
  DeviceArray<unsigned char> scratch(bytes);
  DeviceArray<Out> out(1);
  v.prepare(scratch.get(), bytes, nullptr);
  return sum_into(v, in, n, scratch.get(), out.get());
}

// An entry of the variant table (kernels/cuda/sum.hpp: variants()), float or double, for tests
// that run them all.
struct AnyVariant {
  cuda::NamedVariant v;

  std::string_view name() const { return v.name; }
  double sum(const float* in, std::int64_t n) const {
    return v.f32 ? sum_once(*v.f32, in, n) : sum_once(*v.f64, in, n);
  }
  cuda::Geometry geometry(std::int64_t n) const { return v.f32 ? v.f32->geometry(n) : v.f64->geometry(n); }
  test::Acc accumulation() const { return v.f32 ? test::Acc::f32_tree : test::Acc::f64; }
};

inline void PrintTo(const AnyVariant& v, std::ostream* os) { *os << v.name(); }  // gtest's messages

// Every hand-written variant, in the table's order.
inline std::vector<AnyVariant> every_variant() {
  std::vector<AnyVariant> out;
  for (const auto& v : cuda::variants()) out.push_back({v});
  return out;
}

// Bytes of a device scratch buffer that are not zero: every onepass launch must leave none.
inline std::ptrdiff_t nonzero_bytes(const unsigned char* scratch, std::size_t bytes) {
  std::vector<unsigned char> host(bytes);
  RB_CUDA_CHECK(cudaMemcpy(host.data(), scratch, bytes, cudaMemcpyDeviceToHost));
  return std::count_if(host.begin(), host.end(), [](unsigned char b) { return b != 0; });
}

}  // namespace rb::test
