#include "bench/registry.hpp"

#include <algorithm>
#include <regex>

#include "bench/cpu/runner.hpp"
#include "bench/gpu/context.hpp"
#include "bench/interrupt.hpp"
#include "bench/progress.hpp"

namespace rb::bench {
namespace {

template <class F>
void for_each_case(const std::vector<BackendEntry>& entries, const Options& options, F&& f) {
  for (const auto& e : entries) {
    if (!e.unavailable.empty()) continue;
    for (const auto n : options.sizes) {
      if (!options.sizes_given && e.default_size && !e.default_size(n)) continue;
      for (const auto mode : e.modes) f(e, Case{e.name, n, mode, e.dtype});
    }
  }
}

// `probe_gpu`: probe the device (and say why it cannot run GPU rows) even when no GPU row is bound.
template <class T>
std::vector<BackendEntry> bind(Session& session, std::vector<BackendDef<T>> defs, std::string& gpu_why_not,
                               bool probe_gpu) {
  std::vector<BackendEntry> entries;
  std::vector<BackendDef<T>> on_gpus;
  for (auto& def : defs) {
    if (def.on_cpu()) entries.push_back(bind_on_cpu(session, std::move(def)));
    else on_gpus.push_back(std::move(def));
  }
  gpu_why_not.clear();
  if (probe_gpu || !on_gpus.empty()) {
    for (auto& e : bind_gpu_rows(session, std::move(on_gpus), gpu_why_not)) entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace

template <class T>
std::vector<BackendEntry> bind_backends(Session& session, std::type_identity_t<std::vector<BackendDef<T>>> defs,
                                        std::string& gpu_why_not) {
  return bind(session, std::move(defs), gpu_why_not, false);
}

template <class T>
std::vector<BackendEntry> bind_backends(Session& session, std::type_identity_t<std::vector<BackendDef<T>>> defs) {
  std::string gpu_why_not;
  return bind_backends<T>(session, std::move(defs), gpu_why_not);
}

#define RB_BIND_BACKENDS(T)                                                                                      \
  template std::vector<BackendEntry> bind_backends<T>(Session&, std::vector<BackendDef<T>>, std::string&); \
  template std::vector<BackendEntry> bind_backends<T>(Session&, std::vector<BackendDef<T>>);
RB_FOR_EACH_ELEMENT_TYPE(RB_BIND_BACKENDS)
#undef RB_BIND_BACKENDS

std::vector<BackendEntry> registered_backends(Session& session, std::string& gpu_why_not) {
  std::vector<BackendEntry> entries;
  for (const Dtype d : session.options().dtypes) {
    with_element_type(d, [&]<class T>() {
      for (auto& e : bind(session, registered_defs<T>(), gpu_why_not, true)) entries.push_back(std::move(e));
    });
  }
  return entries;
}

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
