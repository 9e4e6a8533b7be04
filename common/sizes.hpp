#pragma once
// Problem sizes on the command line: `--sizes=1e6,2^20,4Mi,1K..1M`.
//   1000, 1e6, 1.5e3        plain or scientific integers
//   2^20                     powers
//   4K 4M 4G 4T              decimal suffixes (10^3 ...), 4Ki 4Mi 4Gi binary ones (2^10 ...)
//   A..B                     A, 2A, 4A, ... up to B (both ends in any of the forms above)
// Sizes are element counts (float32), 64-bit, 0 allowed.
#include <cstdint>
#include <string_view>
#include <vector>

namespace rb {

// Largest n accepted: 2^48 floats (1 PiB) keeps 4 * n * iterations inside int64.
inline constexpr std::int64_t kMaxSize = std::int64_t{1} << 48;

// Throws std::invalid_argument naming the offending text.
std::int64_t parse_size(std::string_view text);
// A comma-separated list; the result is sorted and free of duplicates.
std::vector<std::int64_t> parse_size_list(std::string_view text);
// The default sizes that end in a tail: 10^6 + 3 (CPU and GPU rows) and 2^24 + 3 (GPU rows).
inline constexpr std::int64_t kTailSizes[] = {1'000'003, (std::int64_t{1} << 24) + 3};
// 2^10 ... 2^31 in powers of two, the decimal sizes 1e4 1e5 1e6 1e7 1e8 5e8 1e9 and kTailSizes.
std::vector<std::int64_t> default_sizes();

}  // namespace rb
