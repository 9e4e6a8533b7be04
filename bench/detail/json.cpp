#include "bench/detail/json.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace rb::bench {

Json Json::number(double v) {
  Json j;
  j.kind = Kind::literal;
  if (std::isnan(v)) {
    j.text = "NaN";
  } else if (std::isinf(v)) {
    j.text = v < 0 ? "-Infinity" : "Infinity";
  } else {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    j.text = buf;
  }
  return j;
}

Json Json::string_of(std::string s) {
  Json j;
  j.kind = Kind::string;
  j.text = std::move(s);
  return j;
}

const Json* Json::find(std::string_view key) const {
  for (const auto& [k, v] : members) {
    if (k == key) return &v;
  }
  return nullptr;
}

Json* Json::find(std::string_view key) { return const_cast<Json*>(std::as_const(*this).find(key)); }

void Json::set(std::string_view key, Json value) {
  if (Json* v = find(key)) {
    *v = std::move(value);
  } else {
    members.emplace_back(std::string(key), std::move(value));
  }
}

double Json::as_number() const {
  if (kind != Kind::literal) return std::numeric_limits<double>::quiet_NaN();
  if (text == "Infinity" || text == "inf") return std::numeric_limits<double>::infinity();
  if (text == "-Infinity" || text == "-inf") return -std::numeric_limits<double>::infinity();
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && !text.empty() ? v : std::numeric_limits<double>::quiet_NaN();
}

namespace {

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}

  Json document() {
    Json v = value(0);
    skip_space();
    if (at_ < s_.size()) fail("text after the document");
    return v;
  }

 private:
  static constexpr int kMaxDepth = 64;

  [[noreturn]] void fail(const char* what) const {
    throw std::invalid_argument(std::string("not JSON at byte ") + std::to_string(at_) + ": " + what);
  }
  void skip_space() {
    while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_]))) ++at_;
  }
  bool take(char c) {
    skip_space();
    if (at_ < s_.size() && s_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c, const char* what) {
    if (!take(c)) fail(what);
  }

  Json value(int depth) {
    if (depth > kMaxDepth) fail("nested too deep");
    skip_space();
    if (at_ >= s_.size()) fail("a value expected");
    Json v;
    const char c = s_[at_];
    if (c == '{') {
      ++at_;
      v.kind = Json::Kind::object;
      if (take('}')) return v;
      do {
        skip_space();
        std::string key = string();
        expect(':', "':' expected");
        v.members.emplace_back(std::move(key), value(depth + 1));
      } while (take(','));
      expect('}', "'}' expected");
    } else if (c == '[') {
      ++at_;
      v.kind = Json::Kind::array;
      if (take(']')) return v;
      do v.items.push_back(value(depth + 1));
      while (take(','));
      expect(']', "']' expected");
    } else if (c == '"') {
      v.kind = Json::Kind::string;
      v.text = string();
    } else {
      const std::size_t start = at_;
      while (at_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[at_])) || s_[at_] == '-' ||
                                 s_[at_] == '+' || s_[at_] == '.')) {
        ++at_;
      }
      if (at_ == start) fail("a value expected");
      v.text = std::string(s_.substr(start, at_ - start));
      v.kind = v.text == "null" ? Json::Kind::null : Json::Kind::literal;
    }
    return v;
  }

  std::string string() {
    if (at_ >= s_.size() || s_[at_] != '"') fail("'\"' expected");
    ++at_;
    std::string out;
    while (true) {
      if (at_ >= s_.size()) fail("unterminated string");
      const char c = s_[at_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= s_.size()) fail("unterminated escape");
      const char e = s_[at_++];
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u':
          out += unicode();
          break;
        default:
          out += e;  // \" \\ \/
      }
    }
  }

  // \uXXXX as UTF-8 (a lone surrogate kept as its three bytes, as it was written).
  std::string unicode() {
    if (at_ + 4 > s_.size()) fail("short \\u escape");
    const unsigned long cp = std::strtoul(std::string(s_.substr(at_, 4)).c_str(), nullptr, 16);
    at_ += 4;
    std::string out;
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return out;
  }

  std::string_view s_;
  std::size_t at_ = 0;
};

void quote(const std::string& s, std::string& out) {
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void write(const Json& v, int depth, std::string& out) {
  const std::string pad(static_cast<std::size_t>(2 * (depth + 1)), ' ');
  const std::string close(static_cast<std::size_t>(2 * depth), ' ');
  switch (v.kind) {
    case Json::Kind::null:
      out += "null";
      return;
    case Json::Kind::literal:
      out += v.text;
      return;
    case Json::Kind::string:
      quote(v.text, out);
      return;
    case Json::Kind::array:
      out += "[";
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        out += (i ? ",\n" : "\n") + pad;
        write(v.items[i], depth + 1, out);
      }
      out += v.items.empty() ? "]" : "\n" + close + "]";
      return;
    case Json::Kind::object:
      out += "{";
      for (std::size_t i = 0; i < v.members.size(); ++i) {
        out += (i ? ",\n" : "\n") + pad;
        quote(v.members[i].first, out);
        out += ": ";
        write(v.members[i].second, depth + 1, out);
      }
      out += v.members.empty() ? "}" : "\n" + close + "}";
      return;
  }
}

}  // namespace

Json parse_json(std::string_view text) { return Reader(text).document(); }

std::string dump_json(const Json& value) {
  std::string out;
  write(value, 0, out);
  out += '\n';
  return out;
}

}  // namespace rb::bench
