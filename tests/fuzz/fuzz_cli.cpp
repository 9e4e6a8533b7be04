// libFuzzer target for reduce_bench's command line: the flag parser and the size grammar.
// The input is split on '\n' into arguments. Whatever the bytes, parsing must either succeed with
// sane values or throw UsageError / std::invalid_argument: no crash, hang, UB or other exception.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bench/detail/options.hpp"
#include "common/sizes.hpp"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

void check_sizes(const std::vector<std::int64_t>& sizes) {
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    check(sizes[i] >= 0 && sizes[i] <= rb::kMaxSize);
    if (i > 0) check(sizes[i - 1] < sizes[i]);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (text.size() > 4096) return 0;  // ranges like 1..2^48 are cheap, but keep inputs small

  try {
    check_sizes(rb::parse_size_list(text));
  } catch (const std::invalid_argument&) {
  }

  std::vector<std::string> args{"reduce_bench"};
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t nl = text.find('\n', start);
    args.emplace_back(text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  try {
    const auto o = rb::bench::parse_options(argc, argv.data());
    check(argc >= 1 && argc <= static_cast<int>(args.size()));
    check(!o.sizes.empty());
    check_sizes(o.sizes);
    check(o.offset >= 0 && o.offset <= rb::bench::kMaxOffset);
  } catch (const rb::bench::UsageError&) {
  }
  return 0;
}
