#include "kernels/cpu/read.hpp"

#include "kernels/cpu/isa.hpp"

namespace rb::cpu {
namespace {

// The loop every version shares, inlined into each (a default-target body may be inlined into a
// wider-target caller, and is then vectorized for the caller's ISA).
[[gnu::always_inline]] inline float plain_sum(const float* data, std::int64_t n) noexcept {
  constexpr int kLanes = 64;
  float acc[kLanes] = {};
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int j = 0; j < kLanes; ++j) acc[j] += data[i + j];
  }
  for (int j = 0; i < n; ++i, ++j) acc[j] += data[i];
  for (int width = kLanes / 2; width > 0; width /= 2) {
    for (int j = 0; j < width; ++j) acc[j] += acc[j + width];
  }
  return acc[0];
}

RB_TARGET_AVX2 float read_avx2(const float* data, std::int64_t n) noexcept { return plain_sum(data, n); }
float read_baseline(const float* data, std::int64_t n) noexcept { return plain_sum(data, n); }

using ReadFn = float (*)(const float*, std::int64_t) noexcept;

// AVX2 even where AVX-512F exists: 256-bit loads already ask far more of a core than DRAM gives
// it, and 512-bit ones streamed slower on the CI guest (Zen 4, n = 2^28, back-to-back pairs:
// avx512_f32 / avx2_f32 = 0.93 on one thread, 0.975 on two); from L3 (2^20) they tie.
ReadFn pick() noexcept { return has_avx2() ? read_avx2 : read_baseline; }

}  // namespace

// Chosen on the first call, not with target_clones: GCC's ifunc resolvers run during dynamic
// relocation, before a sanitizer runtime is initialised, and crash -fsanitize=thread builds.
float read_f32(const float* data, std::int64_t n) noexcept {
  static const ReadFn impl = pick();
  return impl(data, n);
}

}  // namespace rb::cpu
