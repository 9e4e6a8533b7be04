#include "bench/detail/summary.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/detail/console.hpp"
#include "bench/detail/interrupt.hpp"
#include "bench/detail/sampling.hpp"

namespace rb::bench {
namespace {

constexpr std::size_t kListed = 20;

// The benchmarks the stopping rule left short of its target, with the precision they reached.
void print_short_of(const Session& session, int sampled, const std::vector<const Outcome*>& short_of) {
  std::fprintf(stderr,
               "reduce_bench: %d of %d benchmarks reached +-%g%% (95%% CI of the median) and their minimum samples%s\n",
               sampled - static_cast<int>(short_of.size()), sampled, 100 * session.options().rule.target,
               short_of.empty() ? "" : "; not reached:");
  for (std::size_t i = 0; i < short_of.size() && i < kListed; ++i) {
    const Outcome& o = *short_of[i];
    const char* why = o.drift && o.correlated ? " (correlated, drift)"
                       : o.drift                ? " (drift)"
                       : o.correlated           ? " (correlated)"
                                                : "";
    std::fprintf(stderr, "  %s: +-%.2f%% after %lld samples%s\n", o.name.c_str(), 100 * o.precision,
                 static_cast<long long>(o.samples), why);
  }
  if (short_of.size() > kListed) {
    std::fprintf(stderr, "  and %zu more (target_met = 0 in the JSON)\n", short_of.size() - kListed);
  }
  const auto count = [&](bool Outcome::*flag) {
    return std::count_if(short_of.begin(), short_of.end(), [&](const Outcome* o) { return o->*flag; });
  };
  if (const auto c = count(&Outcome::correlated), d = count(&Outcome::drift); c + d > 0) {
    std::fprintf(stderr, "  of them %ld correlated and %ld drifting, counted short whatever their precision "
                         "(JSON: correlated, drift)\n", static_cast<long>(c), static_cast<long>(d));
  }
}

// Names whose repetitions' intervals do not overlap: each run's precision claim cannot hold for
// all of them (Outcome::repetitions_disagree).
void print_disagreeing(const std::vector<Outcome>& all) {
  std::vector<const Outcome*> off;
  for (const auto& o : all) {
    if (o.by_rule && o.repetitions_disagree()) off.push_back(&o);
  }
  if (off.empty()) return;
  std::fprintf(stderr, "reduce_bench: %zu benchmarks whose repetitions disagree beyond their precision:", off.size());
  for (std::size_t i = 0; i < off.size() && i < kListed; ++i) {
    std::fprintf(stderr, "\n  %s: one run's interval ends at %.4g us, another's starts at %.4g us",
                 off[i]->name.c_str(), off[i]->lowest_high * 1e6, off[i]->highest_low * 1e6);
  }
  std::fprintf(stderr, "%s\n", off.size() > kListed ? "\n  ..." : "");
}

// What the input holds and what each type made of it, at the largest n that had any of it
// (bench/detail/stored_input.hpp); types with the same words share a line.
void print_input_notes(const Session& session) {
  std::vector<std::pair<std::string, std::string>> lines;  // (types, what), in type order
  for (const auto& [d, note] : session.references().input_notes()) {
    const std::string what = "at n = " + std::to_string(note.first) + ": " + describe(note.second);
    const auto same = std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.second == what; });
    if (same != lines.end()) same->first += ", " + std::string(dtype_name(d));
    else lines.emplace_back(std::string(dtype_name(d)), what);
  }
  if (lines.empty()) return;
  std::fprintf(stderr,
               "reduce_bench: the input as the rows' types store it (each row is checked against those values):\n");
  for (const auto& [types, what] : lines) std::fprintf(stderr, "  %s %s\n", types.c_str(), what.c_str());
}

// The closing summary's sampling lines: the precision target (rows sampled by the stopping rule;
// Google Benchmark's rule has probe runs that are no measurement) and any benchmark whose SM clock
// fell while it sampled (under either rule).
void summarize_sampling(const Session& session, const std::vector<Outcome>& all) {
  std::vector<const Outcome*> short_of, throttled;
  int sampled = 0;
  for (const auto& o : all) {
    if (o.throttled) throttled.push_back(&o);
    if (o.samples == 0 || !o.by_rule) continue;
    ++sampled;
    if (!o.target_met) short_of.push_back(&o);
  }
  if (sampled > 0) print_short_of(session, sampled, short_of);
  print_disagreeing(all);
  if (const auto s = contention_summary(all); !s.empty()) std::fprintf(stderr, "%s\n", s.c_str());
  if (throttled.empty()) return;
  std::fprintf(stderr,
               "reduce_bench: %zu benchmarks ran with the SM clock below %.0f%% of its maximum (sm_mhz in the JSON):",
               throttled.size(), 100 * kThrottleFraction);
  for (std::size_t i = 0; i < throttled.size() && i < kListed; ++i)
    std::fprintf(stderr, " %s", throttled[i]->name.c_str());
  std::fprintf(stderr, "%s\n", throttled.size() > kListed ? " ..." : "");
}

}  // namespace

int summarize(const Session& session) {
  using Check = Outcome::Check;
  int measured = 0, timing_only = 0, skipped = 0, failed = 0;
  int exact = 0, within = 0, no_bound = 0;
  std::int64_t checked_calls = 0;
  std::string first_skip;
  const auto all = session.log().benchmarks();
  for (const auto& o : all) {
    switch (o.kind) {
      case Outcome::Kind::ok:
        if (o.exact == Check::none) ++timing_only;
        else ++measured;
        break;
      case Outcome::Kind::skipped:
        ++skipped;
        if (first_skip.empty()) first_skip = o.name + ": " + o.message;
        break;
      case Outcome::Kind::verification_failed:
      case Outcome::Kind::error:
        ++failed;
        std::fprintf(stderr, "reduce_bench: FAILED %s: %s\n", o.name.c_str(), o.message.c_str());
        break;
    }
    exact += o.exact == Check::passed;
    within += o.accuracy == Check::passed;
    no_bound += o.accuracy == Check::no_bound;
    checked_calls += o.checked_calls;
  }
  // The rows a signal kept from running are skipped rows too, in the JSON as here (bench/detail/interrupt.hpp).
  const auto not_run = static_cast<int>(not_run_count());
  const std::string not_run_note = not_run > 0 ? " (" + std::to_string(not_run) + " not run: interrupted)" : "";
  std::fprintf(
      stderr,
      "reduce_bench: %d measured: %d exact, %d within stated bound, %d without a bound; %d timing only, %d skipped%s, "
      "%d failed\n",
      measured + failed, exact, within, no_bound, timing_only, skipped + not_run, not_run_note.c_str(), failed);
  std::fprintf(
      stderr,
      "reduce_bench: %lld calls checked (every timed call %s, calls on the input against the bound, exact-check "
      "calls); exact checks took %.1f s\n",
      static_cast<long long>(checked_calls),
      session.options().time_on == TimedData::exact ? "exactly" : "against the bound", session.exact().seconds());
  print_input_notes(session);
  summarize_sampling(session, all);
  if (failed > 0) return kExitFailed;
  if (measured == 0 && timing_only == 0) {
    std::fprintf(stderr, "reduce_bench: nothing was measured: every selected benchmark was skipped (%s)\n",
                 first_skip.c_str());
    return kExitNothingRan;
  }
  return kExitOk;
}

}  // namespace rb::bench
