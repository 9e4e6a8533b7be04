#pragma once
// The run's context: what the JSON's "context" object holds beside Google Benchmark's own keys
// (the GPU, the input, the rule, the backends). Every key goes to Google Benchmark once, and is kept
// here too, so the console can print a short preamble from it (bench/detail/console.hpp) instead of
// every value in full.
#include <string>
#include <vector>

namespace rb::bench {

// Sets `key` once per process: a second call with the same key is ignored (Google Benchmark
// would print "Failed to add custom context" for it).
void set_context(const std::string& key, const std::string& value);
// The value set for `key`, or empty.
std::string context_value(const std::string& key);

// Lines for the console's preamble that have no JSON key of their own (the count of unavailable
// backends, for one), in the order added.
void add_console_note(const std::string& line);
std::vector<std::string> console_notes();

}  // namespace rb::bench
