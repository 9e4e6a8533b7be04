#include "bench/detail/registry.hpp"

#include <algorithm>
#include <regex>

#include "bench/detail/interrupt.hpp"
#include "bench/detail/progress.hpp"

namespace rb::bench {
namespace {

// The sizes entry by entry, then the shapes: shape by shape, every shaped entry at each (rows of
// one shape side by side, and its references computed once).
template <class F>
void for_each_case(const std::vector<BackendEntry>& entries, const Options& options, F&& f) {
  const bool sizes = options.shapes.empty() || options.sizes_given;
  for (const auto& e : entries) {
    if (!e.unavailable.empty() || e.shaped || !sizes) continue;
    for (const auto n : options.sizes) {
      if (!options.sizes_given && e.default_size && !e.default_size(n)) continue;
      for (const auto mode : e.modes) f(e, Case{e.name, n, mode, e.dtype});
    }
  }
  for (const Shape2D& shape : options.shapes) {
    for (const auto& e : entries) {
      if (!e.unavailable.empty() || !e.shaped) continue;
      for (const auto mode : e.modes) f(e, Case{e.name, shape.elements(), mode, e.dtype, shape});
    }
  }
}

}  // namespace

std::vector<Case> select_cases(const std::vector<BackendEntry>& entries, const Options& options,
                               const std::string& filter) {
  std::string pattern = filter;
  bool negate = false;
  if (pattern.empty() || pattern == "all") pattern = ".";
  if (pattern.front() == '-') {
    negate = true;
    pattern.erase(0, 1);
  }
  std::regex re;
  bool have_re = true;
  try {
    re = std::regex(pattern, std::regex::extended);
  } catch (const std::regex_error&) {
    have_re = false;  // Google Benchmark reports the bad pattern itself
  }
  std::vector<Case> out;
  for_each_case(entries, options, [&](const BackendEntry&, const Case& c) {
    const bool match = !have_re || std::regex_search(c.name() + "/manual_time", re);
    if (match != negate || !have_re) out.push_back(c);
  });
  return out;
}

void register_cases(const std::vector<Case>& cases, const std::vector<BackendEntry>& entries,
                    double compare_min_time) {
  for (const auto& base : cases) {
    const auto e =
        std::find_if(entries.begin(), entries.end(), [&](const BackendEntry& x) { return x.name == base.backend; });
    std::vector<Case> runs = {base};
    if (compare_min_time > 0) {
      runs.push_back(base);
      runs.back().min_time = compare_min_time;
    }
    for (const Case& c : runs) {
      auto* b = benchmark::RegisterBenchmark(base.name().c_str(), [run = e->run, c](benchmark::State& s) {
        if (interrupted()) return skip_interrupted(s, c.name());  // SIGINT/SIGTERM: the rest are not run
        Progress::get().begin(c.name());
        run(s, c);
        Progress::get().end();
      });
      // No per-benchmark MinTime/Iterations on the stopping rule's cases: Google Benchmark appends
      // them to the name. The twin's MinTime does, as Case::name does.
      b->UseManualTime();  // in --benchmark_time_unit (default ns): compare.py prints whole units
      if (c.min_time > 0) b->MinTime(c.min_time);
    }
  }
}

}  // namespace rb::bench
