#include "bench/detail/run_context.hpp"

#include <benchmark/benchmark.h>

#include <map>
#include <mutex>

namespace rb::bench {
namespace {

struct Book {
  std::mutex mutex;
  std::map<std::string, std::string> values;
  std::vector<std::string> notes;
};

Book& book() {
  static Book b;
  return b;
}

}  // namespace

void set_context(const std::string& key, const std::string& value) {
  Book& b = book();
  const std::lock_guard lock(b.mutex);
  if (!b.values.emplace(key, value).second) return;
  benchmark::AddCustomContext(key, value);
}

std::string context_value(const std::string& key) {
  Book& b = book();
  const std::lock_guard lock(b.mutex);
  const auto it = b.values.find(key);
  return it == b.values.end() ? std::string() : it->second;
}

void add_console_note(const std::string& line) {
  Book& b = book();
  const std::lock_guard lock(b.mutex);
  b.notes.push_back(line);
}

std::vector<std::string> console_notes() {
  Book& b = book();
  const std::lock_guard lock(b.mutex);
  return b.notes;
}

}  // namespace rb::bench
