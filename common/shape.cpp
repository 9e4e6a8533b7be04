#include "common/shape.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/sizes.hpp"

namespace rb {
namespace {

[[noreturn]] void bad(std::string_view item, const std::string& why) {
  throw std::invalid_argument("invalid shape '" + std::string(item) + "': " + why);
}

std::int64_t dimension(std::string_view item, std::string_view text) {
  std::int64_t v = 0;
  try {
    v = parse_size(text);
  } catch (const std::invalid_argument& e) {
    bad(item, e.what());
  }
  if (v == 0) bad(item, "a dimension of 0 sums nothing");
  return v;
}

void add(std::vector<Shape2D>& out, const Shape2D& s) {
  if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
}

// T:N1..N2, rows then columns at each N.
void add_range(std::vector<Shape2D>& out, std::string_view item) {
  const auto colon = item.find(':');
  const auto dots = item.find("..", colon);
  if (dots == std::string_view::npos) bad(item, "a range is T:N1..N2");
  const std::int64_t total = dimension(item, item.substr(0, colon));
  const std::int64_t lo = dimension(item, item.substr(colon + 1, dots - colon - 1));
  const std::int64_t hi = dimension(item, item.substr(dots + 2));
  if (lo > hi || hi > total) bad(item, "needs N1 <= N2 <= T");
  for (std::int64_t n = lo; n <= hi; n *= 4) {
    if (total % n != 0) bad(item, std::to_string(n) + " does not divide " + std::to_string(total));
    add(out, {total / n, n, Axis::rows});
    add(out, {total / n, n, Axis::cols});
    if (n > hi / 4) break;
  }
}

}  // namespace

std::string shape_name(const Shape2D& s) {
  return std::to_string(s.rows) + "x" + std::to_string(s.cols) + (s.axis == Axis::cols ? "/cols" : "");
}

std::vector<Shape2D> default_shapes() {
  std::vector<Shape2D> out;
  add_range(out, "2^24:1..2^24");
  add_range(out, "2^28:1..2^28");
  return out;
}

std::vector<Shape2D> parse_shapes(std::string_view text) {
  std::vector<Shape2D> out;
  const std::string_view whole = text;
  for (bool more = !text.empty(); more;) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    more = comma != std::string_view::npos;
    text = more ? text.substr(comma + 1) : std::string_view();
    if (item.empty()) bad(item, "an empty item in '" + std::string(whole) + "'");
    if (item == "default") {
      for (const Shape2D& s : default_shapes()) add(out, s);
    } else if (item.find(':') != std::string_view::npos) {
      add_range(out, item);
    } else {
      std::string_view dims = item;
      Axis axis = Axis::rows;
      if (const auto slash = item.find('/'); slash != std::string_view::npos) {
        if (item.substr(slash) != "/cols") bad(item, "the only axis suffix is /cols");
        dims = item.substr(0, slash);
        axis = Axis::cols;
      }
      const auto x = dims.find('x');
      if (x == std::string_view::npos) bad(item, "a shape is BxN, BxN/cols, T:N1..N2 or default");
      const Shape2D s{dimension(item, dims.substr(0, x)), dimension(item, dims.substr(x + 1)), axis};
      if (s.rows > kMaxSize / s.cols) bad(item, "B x N is above 2^48 elements");
      add(out, s);
    }
  }
  if (out.empty()) bad(whole, "no shape");
  return out;
}

}  // namespace rb
