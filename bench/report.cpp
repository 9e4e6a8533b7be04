#include "bench/report.hpp"

#include "bench/measure.hpp"
#include "bench/verify.hpp"

namespace rb::bench {

void finish_case(benchmark::State& state, Session& session, const Case& c, const Reference& ref,
                 const Structure& structure, const Measurement& m,
                 const std::function<double()>& sum_exact_input) {
  state.counters["n"] = static_cast<double>(c.n);
  report_stats(state, m.stats);
  Outcome o{c.name(), Outcome::Kind::ok, {}};
  o.by_rule = !session.options().user_min_time && c.min_time == 0;
  o.samples = m.stats.count;
  o.precision = m.stats.precision;
  o.target_met = m.stats.target_met;
  o.throttled = m.throttled;
  if (structure.acc == Accumulator::none) {  // a timing floor that reads nothing and sums nothing
    o.message = "timing only: computes no sum";
    session.record(std::move(o));
    return;
  }
  const auto iterations = static_cast<std::int64_t>(state.iterations());
  const std::int64_t bytes = iterations * c.n * static_cast<std::int64_t>(sizeof(float));
  state.SetBytesProcessed(bytes);
  if (m.peak_bytes_per_s > 0 && m.seconds > 0) {
    state.counters["pct_peak"] = 100.0 * static_cast<double>(bytes) / m.seconds / m.peak_bytes_per_s;
  }

  const Verdict accuracy = check_accuracy(m.result, ref, structure);
  state.counters["rel_err"] = accuracy.rel_err;
  if (accuracy.rel_tol) state.counters["rel_tol"] = *accuracy.rel_tol;
  o.accuracy = !accuracy.ok ? Outcome::Check::failed
               : accuracy.rel_tol ? Outcome::Check::passed
                                  : Outcome::Check::no_bound;
  const ExactResult& exact = session.exact_check(c, sum_exact_input);
  o.exact = exact.check;
  state.counters["exact"] = exact.check == Outcome::Check::passed ? 1.0 : 0.0;

  Repeat repeat{true, true, {}};
  if (m.first_result) {
    repeat = check_repeatable(*m.first_result, m.result, m.promised);
    state.counters["repeatable"] = repeat.repeatable ? 1.0 : 0.0;
  }

  const auto note = [&o](const std::string& why) { o.message += (o.message.empty() ? "" : "; ") + why; };
  if (exact.check != Outcome::Check::passed) note(exact.message);
  if (!accuracy.ok) note(accuracy.message);
  if (!repeat.ok) note(repeat.message);
  if (exact.check == Outcome::Check::failed || !accuracy.ok || !repeat.ok) {
    o.kind = Outcome::Kind::verification_failed;
    state.SkipWithError(o.message.c_str());
  }
  session.record(std::move(o));
}

void fail_case(benchmark::State& state, Session& session, const Case& c, const std::exception& e) {
  const bool skip = dynamic_cast<const Skip*>(&e) != nullptr;
  const std::string message = (skip ? "skipped: " : "error: ") + std::string(e.what());
  state.SkipWithError(message.c_str());
  session.record({c.name(), skip ? Outcome::Kind::skipped : Outcome::Kind::error, message});
}

}  // namespace rb::bench
