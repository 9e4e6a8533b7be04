#pragma once
// Runs backends through the real harness in-process (registration, Google Benchmark's runner,
// the measurement loop, verification), silently, and leaves the outcomes in the session.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/api/registration.hpp"
#include "bench/detail/registry.hpp"
#include "bench/detail/session.hpp"

namespace rb::test {

// Options for a small run: the given sizes, signed uniform input.
bench::Options small_options(std::vector<std::int64_t> sizes);
// The same light rule for the rows that sum along a dimension, at these shapes only (--shapes).
bench::Options shape_options(std::vector<rb::Shape2D> shapes);
// Registers every case of `entries` at the session's option sizes whose name matches `filter`
// (Google Benchmark's syntax), runs them with a tiny min time and clears the registrations again.
// Returns how many ran.
std::size_t run_in_process(bench::Session& session, const std::vector<bench::BackendEntry>& entries,
                           const std::string& filter = "all");
// The same, with a reporter that records, under each benchmark's name without the /manual_time
// suffix, its reported time per iteration (µs), or with `counter` that counter where reported.
std::size_t run_in_process(bench::Session& session, const std::vector<bench::BackendEntry>& entries,
                           const std::string& filter, std::map<std::string, double>& values,
                           const std::string& counter = {});
// The registered definitions measured on the CPU, and those measured on one GPU, in sweep order.
// Removes the entries this build or machine cannot run; returns "name: why" lines for them.
std::string drop_unavailable(std::vector<bench::BackendEntry>& entries);

std::vector<bench::BackendDef<float>> registered_cpu_defs();
std::vector<bench::BackendDef<float>> registered_gpu_defs();
// The definition of that name among `registered`; throws when there is none.
template <class Def>
Def by_name(const std::vector<Def>& registered, const std::string& name) {
  for (const auto& def : registered) {
    if (def.name == name) return def;
  }
  throw std::logic_error("no backend '" + name + "' is registered");
}
// The outcome recorded for a benchmark name (<backend>/<n>/<mode>); fails the test when absent.
bench::Outcome outcome_of(const bench::Session& session, const std::string& name);

}  // namespace rb::test
