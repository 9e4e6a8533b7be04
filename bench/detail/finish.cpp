#include "bench/detail/finish.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "bench/detail/measure.hpp"
#include "bench/detail/verify.hpp"

namespace rb::bench {
namespace {

// The contention counters, each only where measured; returns whether the row was contended.
bool report_contention(benchmark::State& state, const Contention& load, int gpu_others) {
  const auto cents = [](double x) { return std::round(100 * x) / 100; };  // the jiffies allow no more
  if (load.measured()) {
    state.counters["load_other"] = cents(load.load_other);
    state.counters["load_steal"] = cents(load.steal);
  }
  if (gpu_others >= 0) state.counters["gpu_others"] = gpu_others;
  const bool contended = load.contended || gpu_others > 0;
  if (load.measured() || gpu_others >= 0) state.counters["contended"] = contended ? 1.0 : 0.0;
  return contended;
}

// The sampling's part of the outcome, and the counters every row has.
Outcome sampled(benchmark::State& state, const Session& session, const Case& c, const Measurement& m) {
  state.counters["n"] = static_cast<double>(c.n);
  if (c.shape) {  // which bytes bytes_per_second counts: the input read and the outputs written
    state.counters["rows"] = static_cast<double>(c.shape->rows);
    state.counters["cols"] = static_cast<double>(c.shape->cols);
    state.counters["outputs"] = static_cast<double>(c.shape->outputs());
    state.counters["bytes_written"] = static_cast<double>(c.written_bytes());
  }
  report_stats(state, m.stats);
  Outcome o{c.name(), Outcome::Kind::ok, {}};
  o.by_rule = !session.options().user_min_time && c.min_time == 0;
  o.samples = m.stats.count;
  o.precision = m.stats.precision;
  o.target_met = m.stats.target_met;
  o.throttled = m.throttled;
  o.correlated = m.stats.correlated;
  o.drift = m.stats.drift;
  o.contended = report_contention(state, m.contention, m.gpu_others);
  o.median = m.stats.median;
  return o;
}

void note(Outcome& o, const std::string& why) { o.message += (o.message.empty() ? "" : "; ") + why; }

// Bytes, pct_peak, and the ceiling check: a median faster than the regime allows read nothing.
bool within_ceiling(benchmark::State& state, const Case& c, const Measurement& m, Outcome& o) {
  const std::int64_t bytes = static_cast<std::int64_t>(state.iterations()) * c.bytes();
  state.SetBytesProcessed(bytes);
  if (m.peak_bytes_per_s > 0 && m.seconds > 0) {
    state.counters["pct_peak"] = 100.0 * static_cast<double>(bytes) / m.seconds / m.peak_bytes_per_s;
  }
  if (m.ceiling.bytes_per_s <= 0 || m.stats.median <= 0) return true;
  const double rate = static_cast<double>(c.bytes()) / m.stats.median;
  o.ceiling = rate > m.ceiling.bytes_per_s ? Outcome::Check::failed : Outcome::Check::passed;
  if (o.ceiling == Outcome::Check::passed) return true;
  char buf[96];
  std::snprintf(buf, sizeof buf, "faster than physics: %.0f GB/s (median %.3g us) is above the ", rate / 1e9,
                m.stats.median * 1e6);
  note(o, buf + m.ceiling.what + ": the row cannot have read its input");
  return false;
}

// Accuracy and repeatability on the input; the timed calls on the exact data, or with them.
bool calls_pass(benchmark::State& state, Session& session, const Case& c, const Measurement& m, Outcome& o) {
  std::vector<double> on_input = m.input_calls;
  if (m.timed_on == TimedData::input) on_input.insert(on_input.end(), m.calls.begin(), m.calls.end());
  const bool timed_exact = m.timed_on == TimedData::exact;
  const CallsVerdict accuracy = m.outputs ? m.outputs->on_input
                                          : check_calls(m.first_result, on_input, m.reference, m.structure, m.promised);
  const CallsVerdict timed =
      m.outputs ? m.outputs->timed
      : timed_exact
          ? check_calls_exact(m.calls, session.references().exact(c.n, 0, c.dtype, exact_data_for(m.structure)))
          : accuracy;
  state.counters["rel_err"] = accuracy.worst.rel_err;
  if (accuracy.worst.rel_tol) state.counters["rel_tol"] = *accuracy.worst.rel_tol;
  state.counters["wrong_calls"] = static_cast<double>(accuracy.wrong + (timed_exact ? timed.wrong : 0));
  state.counters["repeatable"] = accuracy.repeatable ? 1.0 : 0.0;
  state.counters["timed_exact"] = timed_exact ? 1.0 : 0.0;
  o.accuracy = !accuracy.worst.ok        ? Outcome::Check::failed
               : accuracy.worst.rel_tol ? Outcome::Check::passed
                                        : Outcome::Check::no_bound;
  o.repeat = m.promised == Determinism::not_guaranteed ? Outcome::Check::skipped
             : accuracy.repeatable                      ? Outcome::Check::passed
                                                        : Outcome::Check::failed;
  o.calls = timed.ok && accuracy.ok ? Outcome::Check::passed : Outcome::Check::failed;
  if (!timed.ok) note(o, timed.message);
  if (timed_exact && !accuracy.ok) note(o, accuracy.message);
  // Timed on the exact data, a wrong timed call fails the exact check as well as the per-call one.
  o.exact = m.exact.check == Outcome::Check::passed && timed_exact && !timed.ok ? Outcome::Check::failed
                                                                                : m.exact.check;
  return timed.ok && !(timed_exact && !accuracy.ok);
}

}  // namespace

void finish_case(benchmark::State& state, Session& session, const Case& c, const Measurement& m) {
  Outcome o = sampled(state, session, c, m);
  if (m.structure.acc == Accumulator::none) {  // a timing floor that sums nothing
    if (c.shape) within_ceiling(state, c, m, o);  // a shape's floor reads and writes: its bytes/s
    o.message = "timing only: computes no sum";
    session.log().record(std::move(o));
    return;
  }
  state.SetLabel(describe(m.structure));  // the accumulator and structure behind rel_tol, in the JSON
  bool ok = within_ceiling(state, c, m, o);
  if (!c.shape) {
    const StoredInput in = session.references().stored_input(c.n, c.dtype);
    for (const StoredCount& count : kStoredCounts) {
      if (const std::int64_t v = in.*count.field; v > 0) state.counters[count.key] = static_cast<double>(v);
    }
  }
  ok = calls_pass(state, session, c, m, o) && ok;
  state.counters["exact"] = o.exact == Outcome::Check::passed ? 1.0 : 0.0;
  if (m.exact.check != Outcome::Check::passed) {
    note(o, m.exact.message);
    ok = false;  // a check that could not run fails the row too: exit 0 means every check passed
  }
  // The calls this row's verdict rests on: on the input, timed, and the exact check's (shared by
  // the cold and hot rows of a backend and n).
  o.checked_calls = m.outputs
                        ? 1 + m.outputs->on_input.checked + m.outputs->timed.checked + InputStore::kExactSets
                        : 1 + static_cast<std::int64_t>(m.input_calls.size() + m.calls.size()) + InputStore::kExactSets;
  state.counters["checked_calls"] = static_cast<double>(o.checked_calls);
  if (!ok) {
    o.kind = Outcome::Kind::verification_failed;
    state.SkipWithError(o.message.c_str());
  }
  session.log().record(std::move(o));
}

std::vector<double> accuracy_calls(const std::function<double()>& call) {
  std::vector<double> sums{call()};  // the first loads modules: the budget starts after it
  const auto t0 = std::chrono::steady_clock::now();
  while (static_cast<int>(sums.size()) < kAccuracyCalls) {
    sums.push_back(call());
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (static_cast<int>(sums.size()) >= kMinAccuracyCalls && spent >= kAccuracySeconds) break;
  }
  return sums;
}

void fail_case(benchmark::State& state, Session& session, const Case& c, const std::exception& e) {
  const bool skip = dynamic_cast<const Skip*>(&e) != nullptr;
  const std::string message = (skip ? "skipped: " : "error: ") + std::string(e.what());
  if (skip) state.SkipWithMessage(message);  // a skip is no error: the JSON says skipped, not error_occurred
  else state.SkipWithError(message);
  session.log().record({c.name(), skip ? Outcome::Kind::skipped : Outcome::Kind::error, message});
}

}  // namespace rb::bench
