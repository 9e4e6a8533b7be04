#include "common/sizes.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

namespace rb {
namespace {

[[noreturn]] void bad(std::string_view text, const std::string& why) {
  throw std::invalid_argument("invalid size '" + std::string(text) + "': " + why);
}

std::int64_t checked(std::string_view text, long double value) {
  if (!std::isfinite(value)) bad(text, "not a finite number");
  if (value < 0) bad(text, "sizes must be >= 0");
  if (value > static_cast<long double>(kMaxSize)) bad(text, "larger than 2^48");
  if (value != std::floor(value)) bad(text, "not a whole number of elements");
  return static_cast<std::int64_t>(value);
}

long double parse_number(std::string_view whole, std::string_view digits) {
  if (digits.empty()) bad(whole, "no number");
  // std::from_chars for floating point accepts "1e6", "1.5e3"; it rejects a leading '+'.
  double value = 0;
  const auto* end = digits.data() + digits.size();
  auto [ptr, ec] = std::from_chars(digits.data(), end, value);
  if (ec != std::errc() || ptr != end) bad(whole, "not a number");
  return value;
}

std::int64_t parse_one(std::string_view text) {
  if (text.empty()) bad(text, "empty");
  if (const auto caret = text.find('^'); caret != std::string_view::npos) {
    const long double base = parse_number(text, text.substr(0, caret));
    const long double exp = parse_number(text, text.substr(caret + 1));
    if (exp < 0 || exp > 64 || exp != std::floor(exp)) bad(text, "exponent must be 0..64");
    return checked(text, std::pow(base, exp));
  }
  struct Suffix {
    std::string_view name;
    long double scale;
  };
  static constexpr Suffix kSuffixes[] = {
      {"Ki", 1024.0L}, {"Mi", 1048576.0L}, {"Gi", 1073741824.0L}, {"Ti", 1099511627776.0L},
      {"K", 1e3L},     {"M", 1e6L},        {"G", 1e9L},           {"T", 1e12L}};
  for (const auto& s : kSuffixes) {
    if (text.size() > s.name.size() && text.ends_with(s.name)) {
      return checked(text, parse_number(text, text.substr(0, text.size() - s.name.size())) * s.scale);
    }
  }
  return checked(text, parse_number(text, text));
}

}  // namespace

std::int64_t parse_size(std::string_view text) {
  if (text.find("..") != std::string_view::npos) bad(text, "a range is not a single size");
  return parse_one(text);
}

std::vector<std::int64_t> parse_size_list(std::string_view text) {
  std::vector<std::int64_t> out;
  if (text.empty()) throw std::invalid_argument("--sizes needs at least one size");
  while (true) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    if (const auto dots = item.find(".."); dots != std::string_view::npos) {
      const std::int64_t lo = parse_one(item.substr(0, dots));
      const std::int64_t hi = parse_one(item.substr(dots + 2));
      if (lo < 1) bad(item, "a range starts at 1 or more");
      if (lo > hi) bad(item, "range start is above its end");
      for (std::int64_t n = lo; n <= hi; n *= 2) out.push_back(n);
    } else {
      out.push_back(parse_one(item));
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::int64_t> default_sizes() {
  std::vector<std::int64_t> out;
  for (int p = 10; p <= 31; ++p) out.push_back(std::int64_t{1} << p);
  for (std::int64_t n : {10'000LL, 100'000LL, 1'000'000LL, 10'000'000LL, 100'000'000LL,
                         500'000'000LL, 1'000'000'000LL}) {
    out.push_back(n);
  }
  // Odd sizes: every size above is a multiple of 16, so a vector loop's remainder (one short, or
  // never run) would pass the whole sweep. kTailSizes are odd: no vector width divides them.
  for (const std::int64_t n : kTailSizes) out.push_back(n);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace rb
