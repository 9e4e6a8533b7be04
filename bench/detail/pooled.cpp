#include "bench/detail/pooled.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include "bench/detail/repetitions.hpp"
#include "bench/detail/sampling.hpp"

namespace rb::bench {
namespace {

std::string text_of(const Json& row, std::string_view key) {
  const Json* v = row.find(key);
  return v ? v->text : std::string();
}

double number_of(const Json& row, std::string_view key, double otherwise) {
  const Json* v = row.find(key);
  return v ? v->as_number() : otherwise;
}

// Measured, not skipped (Google Benchmark writes error_message for either kind of skip).
bool sampled(const Json& row) { return !row.find("error_message") && row.find("median_us") && row.find("precision"); }

// A run's own precision: before any widening (a process with repetitions widened it already).
double own_precision(const Json& row) {
  return row.find("precision_run") ? number_of(row, "precision_run", 0) : number_of(row, "precision", 0);
}

// A run of one process, where it belongs in the pool.
struct Entry {
  Json row;
  int process;
};

// The row's place in the sweep: its family and instance, as Google Benchmark registered them.
using Order = std::tuple<double, double, std::string>;

PooledRow widen(std::vector<Entry>& runs, double target) {
  PooledRow out;
  out.name = text_of(runs.front().row, "run_name");
  if (const std::size_t at = out.name.rfind("/manual_time"); at != std::string::npos) out.name.resize(at);
  std::vector<RunInterval> intervals;
  for (const Entry& e : runs) {
    if (!sampled(e.row)) continue;
    intervals.push_back({number_of(e.row, "median_us", 0), own_precision(e.row)});
  }
  out.between = between_repetitions(intervals);
  std::vector<double> medians;
  std::vector<int> seen;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    Json& r = runs[i].row;
    r.set("process", Json::number(runs[i].process));
    r.set("repetition_index", Json::number(static_cast<double>(i)));
    r.set("repetitions", Json::number(static_cast<double>(runs.size())));
    ++out.runs;
    if (std::find(seen.begin(), seen.end(), runs[i].process) == seen.end()) seen.push_back(runs[i].process);
    if (!sampled(r)) continue;
    const double own = own_precision(r), wide = widened(own, out.between);
    r.set("precision_run", Json::number(own));
    r.set("between", Json::number(out.between));
    r.set("precision", Json::number(wide));
    if (r.find("target_met") && wide > target) r.set("target_met", Json::number(0));
    if (number_of(r, "target_met", 0) > 0) ++out.target_met;
    medians.push_back(number_of(r, "median_us", 0));
  }
  out.processes = static_cast<int>(seen.size());
  if (!medians.empty()) out.median_us = quantile(medians, 0.5);
  return out;
}

}  // namespace

Json pool_processes(const std::vector<Json>& docs, double target, std::vector<PooledRow>* rows) {
  if (docs.empty()) throw std::invalid_argument("no process's results to pool");
  std::map<Order, std::vector<Entry>> by_row;
  for (std::size_t p = 0; p < docs.size(); ++p) {
    const Json* benchmarks = docs[p].find("benchmarks");
    if (!benchmarks || benchmarks->kind != Json::Kind::array) {
      throw std::invalid_argument("process " + std::to_string(p + 1) + "'s results have no \"benchmarks\" array");
    }
    for (const Json& row : benchmarks->items) {
      if (text_of(row, "run_type") == "aggregate") continue;
      const std::string name = row.find("run_name") ? text_of(row, "run_name") : text_of(row, "name");
      const Order at{number_of(row, "family_index", 0), number_of(row, "per_family_instance_index", 0), name};
      by_row[at].push_back({row, static_cast<int>(p)});
    }
  }
  Json out;
  out.kind = Json::Kind::object;
  Json context = docs.front().find("context") ? *docs.front().find("context") : Json{};
  if (context.kind != Json::Kind::object) context.kind = Json::Kind::object;
  context.set("processes", Json::string_of(std::to_string(docs.size())));  // context values are strings
  out.set("context", std::move(context));
  Json benchmarks;
  benchmarks.kind = Json::Kind::array;
  for (auto& [order, runs] : by_row) {
    const PooledRow row = widen(runs, target);
    if (rows) rows->push_back(row);
    for (Entry& e : runs) benchmarks.items.push_back(std::move(e.row));
  }
  out.set("benchmarks", std::move(benchmarks));
  return out;
}

}  // namespace rb::bench
