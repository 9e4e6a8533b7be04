#pragma once
// Sums along one dimension of x, B rows of N, row-major (the shape of kernels/cuda/segmented.hpp),
// on the persistent pool (thread_pool.hpp), over any serial kernel `R kernel(const T*, n)`
// (avx2_f32, avx512_bf16, accumulate_f32, ...):
//   rows  out[r] = the kernel's sum of row r; thread t takes the t-th band of whole rows.
//   cols  out[j] = x[0][j] + ... + x[B-1][j], added in R (float for f32, f16 and bf16, each element
//         converted exactly). The threads split x into rectangles, bands of rows by bands of
//         columns (columns first, while a band keeps at least 64 of them); each adds its rows in
//         order into its row band's sums (band 0's are out itself), and the other bands' sums are
//         then added into out in band order, the columns again split over the threads.
// The order of every addition depends on the shape and the thread count only: the same call gives
// the same bits. B or N may be 0 (a sum of nothing is 0).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/dtype.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/thread_pool.hpp"

namespace rb::cpu {

template <auto Kernel>
class SegmentedThreads {
 public:
  using element_type = KernelInput<Kernel>;
  using result_type = typename KernelSignature<decltype(Kernel)>::result;

  explicit SegmentedThreads(int threads = default_thread_count()) : pool_(threads) {}
  int threads() const noexcept { return pool_.size(); }

  void rows(const element_type* x, std::int64_t b, std::int64_t n, result_type* out) noexcept {
    const std::int64_t shares = pool_.size();
    auto task = [&](int t) noexcept {
      for (std::int64_t r = b * t / shares; r < b * (t + 1) / shares; ++r) out[r] = Kernel(x + r * n, n);
    };
    pool_.run(task);
  }

  void cols(const element_type* x, std::int64_t b, std::int64_t n, result_type* out) {
    const std::int64_t shares = pool_.size();
    const std::int64_t col_bands = std::clamp<std::int64_t>(n / 64, 1, shares);
    const std::int64_t row_bands = shares / col_bands;
    // Row band 0 adds into out itself, the others into their partials.
    partials_.resize(static_cast<std::size_t>((row_bands - 1) * n));
    auto add = [&](int t) noexcept {
      const std::int64_t band = t / col_bands, cb = t % col_bands;
      if (band >= row_bands) return;
      const std::int64_t c0 = n * cb / col_bands, c1 = n * (cb + 1) / col_bands;
      result_type* acc = band == 0 ? out : partials_.data() + (band - 1) * n;
      std::fill(acc + c0, acc + c1, result_type{0});
      for (std::int64_t r = b * band / row_bands; r < b * (band + 1) / row_bands; ++r) {
        const element_type* row = x + r * n;
        for (std::int64_t c = c0; c < c1; ++c) acc[c] += static_cast<result_type>(rb::widen(row[c]));  // exact
      }
    };
    pool_.run(add);
    if (row_bands == 1) return;
    auto combine = [&](int t) noexcept {
      for (std::int64_t c = n * t / shares; c < n * (t + 1) / shares; ++c) {
        for (std::int64_t band = 1; band < row_bands; ++band) {
          out[c] += partials_[static_cast<std::size_t>((band - 1) * n + c)];
        }
      }
    };
    pool_.run(combine);
  }

 private:
  ThreadPool pool_;
  std::vector<result_type> partials_;
};

}  // namespace rb::cpu
