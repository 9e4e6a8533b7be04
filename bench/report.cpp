#include "bench/report.hpp"

namespace rb::bench {

void finish_case(benchmark::State& state, Session& session, const Case& c, const Reference& ref,
                 Accumulation acc, const Measurement& m) {
  state.counters["n"] = static_cast<double>(c.n);
  if (acc == Accumulation::none) {  // a timing floor that reads nothing and sums nothing
    session.record({c.name(), Outcome::Kind::ok, "timing only: computes no sum"});
    return;
  }
  const auto iterations = static_cast<std::int64_t>(state.iterations());
  const std::int64_t bytes = iterations * c.n * static_cast<std::int64_t>(sizeof(float));
  state.SetBytesProcessed(bytes);
  const Verdict v = verify(m.result, ref, acc);
  state.counters["rel_err"] = v.rel_err;
  state.counters["rel_tol"] = v.rel_tol;
  if (m.peak_bytes_per_s > 0 && m.seconds > 0) {
    state.counters["pct_peak"] = 100.0 * static_cast<double>(bytes) / m.seconds / m.peak_bytes_per_s;
  }
  if (v.ok) {
    session.record({c.name(), Outcome::Kind::ok, {}});
  } else {
    state.SkipWithError(v.message.c_str());
    session.record({c.name(), Outcome::Kind::verification_failed, v.message});
  }
}

void fail_case(benchmark::State& state, Session& session, const Case& c, const std::exception& e) {
  const bool skip = dynamic_cast<const Skip*>(&e) != nullptr;
  const std::string message = (skip ? "skipped: " : "error: ") + std::string(e.what());
  state.SkipWithError(message.c_str());
  session.record({c.name(), skip ? Outcome::Kind::skipped : Outcome::Kind::error, message});
}

}  // namespace rb::bench
