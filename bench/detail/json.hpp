#pragma once
// A JSON document as Google Benchmark writes it, read and written back: what --processes merges
// (bench/detail/pooled.hpp). Numbers and literals keep their text, so a value passed through is
// written as it was read (NaN and Infinity included, which JSON itself has no word for).
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rb::bench {

struct Json {
  enum class Kind { null, literal, string, array, object };  // literal: a number, true or false
  Kind kind = Kind::null;
  std::string text;                                   // literal: as written; string: decoded
  std::vector<Json> items;                            // array
  std::vector<std::pair<std::string, Json>> members;  // object, in order

  static Json number(double v);
  static Json string_of(std::string s);

  // The member named `key` of an object, or nullptr.
  const Json* find(std::string_view key) const;
  Json* find(std::string_view key);
  // Sets (or appends) the member `key`.
  void set(std::string_view key, Json value);
  // A literal's value; NaN for anything that is not a finite or infinite number.
  double as_number() const;
};

// Parses one document (std::invalid_argument with the offset when it is not JSON).
Json parse_json(std::string_view text);
// Writes it in Google Benchmark's layout: two spaces a level, one member a line.
std::string dump_json(const Json& value);

}  // namespace rb::bench
