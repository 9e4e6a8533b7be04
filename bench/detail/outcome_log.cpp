#include "bench/detail/outcome_log.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "bench/detail/repetitions.hpp"

namespace rb::bench {

void OutcomeLog::widen(const std::string& name, double between, double target) {
  for (Outcome& o : outcomes_) {
    if (o.name != name || o.samples == 0) continue;
    o.precision = widened(o.precision, between);
    o.target_met = o.target_met && o.precision <= target;
  }
}

std::vector<Outcome> OutcomeLog::benchmarks() const {
  // Worse kinds replace better ones; among equals the first run's checks stay.
  const auto rank = [](Outcome::Kind k) {
    switch (k) {
      case Outcome::Kind::ok: return 0;
      case Outcome::Kind::skipped: return 1;
      case Outcome::Kind::verification_failed: return 2;
      case Outcome::Kind::error: return 3;
    }
    return 3;
  };
  std::vector<Outcome> out;
  std::map<std::string, std::size_t> index;
  for (const auto& o : outcomes_) {
    const auto [it, fresh] = index.try_emplace(o.name, out.size());
    if (fresh) {
      out.push_back(o);
      out.back().lowest_high = o.samples > 0 ? o.median * (1 + o.precision) : std::numeric_limits<double>::infinity();
      out.back().highest_low = o.samples > 0 ? o.median * (1 - o.precision) : 0.0;
      continue;
    }
    Outcome& kept = out[it->second];
    // Repetitions: the sampling verdict is the worst of the runs that sampled.
    const bool both_sampled = kept.samples > 0 && o.samples > 0;
    const std::int64_t samples = kept.samples + o.samples;
    const double precision = std::max(kept.precision, o.precision);
    const bool target_met = both_sampled ? kept.target_met && o.target_met : kept.target_met || o.target_met;
    const bool throttled = kept.throttled || o.throttled;
    const bool correlated = kept.correlated || o.correlated, drift = kept.drift || o.drift;
    const bool contended = kept.contended || o.contended;
    const double lowest_high =
        o.samples > 0 ? std::min(kept.lowest_high, o.median * (1 + o.precision)) : kept.lowest_high;
    const double highest_low =
        o.samples > 0 ? std::max(kept.highest_low, o.median * (1 - o.precision)) : kept.highest_low;
    const std::int64_t checked_calls = kept.checked_calls + o.checked_calls;
    if (rank(o.kind) > rank(kept.kind)) kept = o;
    kept.lowest_high = lowest_high;
    kept.highest_low = highest_low;
    kept.checked_calls = checked_calls;
    kept.samples = samples;
    kept.precision = precision;
    kept.target_met = target_met;
    kept.throttled = throttled;
    kept.correlated = correlated;
    kept.drift = drift;
    kept.contended = contended;
  }
  return out;
}

std::string contention_summary(const std::vector<Outcome>& benchmarks, std::size_t listed) {
  std::vector<const Outcome*> hit;
  for (const auto& o : benchmarks) {
    if (o.contended) hit.push_back(&o);
  }
  if (hit.empty()) return {};
  // One name a line, as the rows short of the target: within the console's width.
  std::string text = "reduce_bench: " + std::to_string(hit.size()) +
                     " measured under contention (other processes' load; JSON: contended):";
  for (std::size_t i = 0; i < hit.size() && i < listed; ++i) text += "\n  " + hit[i]->name;
  if (hit.size() > listed) text += "\n  and " + std::to_string(hit.size() - listed) + " more";
  return text;
}

int OutcomeLog::failures() const {
  const auto all = benchmarks();
  return static_cast<int>(std::count_if(all.begin(), all.end(), [](const Outcome& o) {
    return o.kind == Outcome::Kind::verification_failed || o.kind == Outcome::Kind::error;
  }));
}

}  // namespace rb::bench
