#pragma once
// What storing the input as a type did to the values a row sums (bench/detail/element.hpp): f16 turns
// |x| >= 65520 into infinity and |x| <= 2^-25 into zero; i32 (x * 2^20, rounded) turns |x| <= 2^-21
// into zero, saturates |x| > 16 and infinities at +-(2^24 - 1) and stores NaN as 0. A row sums the
// values as stored and is checked against them, so none of this fails it; the run reports it
// (the row's JSON counters and the closing summary) instead of leaving it silent.
#include <cstdint>
#include <string>

#include "bench/detail/element.hpp"
#include "bench/detail/reference.hpp"

namespace rb::bench {

struct StoredInput {
  // In the float32 input's first n values.
  std::int64_t nan = 0, inf = 0;
  // What the type made of them.
  std::int64_t overflowed = 0;  // finite values stored as +-Inf (f16, bf16)
  std::int64_t flushed = 0;     // nonzero finite values stored as 0
  std::int64_t saturated = 0;   // values stored at i32's limit +-(2^24 - 1), +-Inf among them
  std::int64_t nan_zeroed = 0;  // NaN stored as 0 (i32)

  bool altered() const noexcept { return overflowed + flushed + saturated + nan_zeroed > 0; }
  bool any() const noexcept { return nan + inf > 0 || altered(); }
};

// Each count's JSON counter (absent when 0), its word in the console row ("input 1 NaN; stored 3
// Inf") and its phrase in the closing summary, in that order everywhere.
struct StoredCount {
  using Field = std::int64_t StoredInput::*;
  Field field;
  const char* key;
  bool of_input;       // counts the input itself, not what the type stored
  const char* word;
  const char* phrase;
};
inline constexpr StoredCount kStoredCounts[] = {
    {&StoredInput::nan, "input_nan", true, "NaN", "NaN in the input"},
    {&StoredInput::inf, "input_inf", true, "Inf", "Inf in the input"},
    {&StoredInput::overflowed, "stored_inf", false, "Inf", "overflowed to Inf"},
    {&StoredInput::flushed, "stored_zero", false, "zero", "rounded to 0"},
    {&StoredInput::saturated, "stored_saturated", false, "saturated", "saturated at +-(2^24 - 1)"},
    {&StoredInput::nan_zeroed, "stored_nan_as_zero", false, "NaN as 0", "NaN stored as 0"},
};

// From the references of one prefix over the float values (`input`) and over the values as `d`
// stores them (`stored`): both count their NaN, infinities, zeros and largest magnitudes.
StoredInput stored_input(Dtype d, const Reference& input, const Reference& stored);

// Whether `stored` (a reference over the values as `d` stores them) can show a change at all; when
// it cannot, the float values' reference is not needed (it costs a scan of its own).
bool may_be_altered(Dtype d, const Reference& stored);

// "1 NaN in the input, 5 overflowed to Inf, 2 rounded to 0"; "" when nothing applies.
std::string describe(const StoredInput& s);

}  // namespace rb::bench
