#pragma once
// What the CUDA kernel tests share: device arrays, and running a variant once on device data
// with its own scratch and a NaN-poisoned result (so a launch that writes nothing fails).
// The kernels are called directly, without the benchmark harness.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tests/support/data.hpp"
#include "common/cuda_check.hpp"
#include "common/dtype.hpp"
#include "kernels/cuda/sum.hpp"
#include "tests/support/typed_reference.hpp"

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

// The largest n expect_sums_and_cleans_up sums.
inline constexpr std::int64_t kCleanupMaxN = 5'000'011;

// v at each n of `sizes` (at most kCleanupMaxN) in turn, on one scratch buffer prepared once: every
// sum right over random signed floats, and the scratch left zeroed by every launch.
template <class Out>
void expect_sums_and_cleans_up(const cuda::Variant<Out>& v, std::initializer_list<std::int64_t> sizes,
                               const std::string& what) {
  const auto x = random_signed(kCleanupMaxN, 11);
  const auto d = upload(x);
  const std::size_t bytes = v.scratch_bytes(kCleanupMaxN);
  DeviceArray<unsigned char> scratch(bytes);
  DeviceArray<Out> out(1);
  v.prepare(scratch.get(), bytes, nullptr);
  const Acc acc = sizeof(Out) == 8 ? Acc::f64 : Acc::f32_tree;
  for (const std::int64_t n : sizes) {
    SCOPED_TRACE(testing::Message() << what << ", n " << n << ", grid " << v.geometry(n).grid);
    RB_EXPECT_SUM(sum_into(v, d.get(), n, scratch.get(), out.get()), std::span(x).first(n), acc);
    EXPECT_EQ(nonzero_bytes(scratch.get(), bytes), 0) << "scratch not put back to zero";
  }
}

// gtest's names for the cases of a typed test: the element type's --dtype name (f16, bf16, f64, i32).
struct DtypeNames {
  template <class T>
  static std::string GetName(int) {
    return std::string(dtype_name(dtype_of<T>));
  }
};

// A sum against its reference: NaN and infinities in kind, integer data exactly, other data within
// tol (sum|x| and the grid in the message).
inline void expect_matches(double have, const TypedReference& ref, bool integers, double tol, int grid) {
  const double want = ref.expected();
  if (!std::isfinite(want)) {
    if (std::isnan(want))
      EXPECT_TRUE(std::isnan(have)) << "expected NaN, got " << have;
    else
      EXPECT_EQ(have, want);
  } else if (integers) {
    EXPECT_EQ(have, want);
  } else {
    EXPECT_LE(std::fabs(have - want), tol)
        << "got " << have << ", want " << want << " (sum|x| " << ref.sum_abs << ", grid " << grid << ")";
  }
}

// Where a special value goes in n elements after an offset of 1: the head, block 0's body, the
// middle, the last block, the tail.
inline std::vector<std::int64_t> special_positions(std::int64_t n) { return {0, 9, n / 2, n - 40, n - 1}; }

// A special value case: its name, the element at a position and the one at n - 1 - position.
template <class T>
struct SpecialCase {
  const char* what;
  T first, second;
};
template <class T>
std::vector<SpecialCase<T>> special_cases(T inf, T minus_inf, T nan, T all_ones_nan, T clean) {
  return {{"+inf", inf, clean},
          {"-inf", minus_inf, clean},
          {"+inf and -inf", inf, minus_inf},
          {"NaN", nan, clean},
          {"all-ones NaN", all_ones_nan, clean}};
}

}  // namespace rb::test
