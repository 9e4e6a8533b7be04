#pragma once
// Mutation evidence: backends with a planted bug, run through the real harness, must come out as
// failed, by the check that should catch them; their correct twins must pass. Each test prints
// its rows of the mutation table (bug, n, the state of every check).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bench/detail/session.hpp"
#include "tests/support/run_cases.hpp"

namespace rb::test {

// The check meant to catch a mutant (bench/detail/verify.hpp, bench/detail/ceiling.hpp).
enum class Catcher { exact, accuracy, calls, ceiling };

struct Mutant {
  std::string backend;  // the registered name
  std::string bug;      // what was planted
  Catcher caught_by;    // this check must fail it (others may too)
};

inline const char* check_name(bench::Outcome::Check c) {
  switch (c) {
    case bench::Outcome::Check::none: return "not run";
    case bench::Outcome::Check::passed: return "passed";
    case bench::Outcome::Check::failed: return "FAILED";
    case bench::Outcome::Check::skipped: return "skipped";
    case bench::Outcome::Check::no_bound: return "no bound";
  }
  return "?";
}

inline bench::Outcome::Check check_of(const bench::Outcome& o, Catcher c) {
  switch (c) {
    case Catcher::exact: return o.exact;
    case Catcher::accuracy: return o.accuracy;
    case Catcher::calls: return o.calls;
    case Catcher::ceiling: return o.ceiling;
  }
  return bench::Outcome::Check::none;
}

// One row of the mutation table: | backend | bug | n | exact | per call | accuracy | ceiling |.
inline void print_row(const std::string& backend, const std::string& bug, std::int64_t n, const bench::Outcome& o) {
  std::printf("| %s | %s | %lld | %s | %s | %s | %s | %lld |\n", backend.c_str(), bug.c_str(),
              static_cast<long long>(n), check_name(o.exact), check_name(o.calls), check_name(o.accuracy),
              check_name(o.ceiling), static_cast<long long>(o.checked_calls));
}

// Runs a mutant `runs` times, each in a fresh session (`one_run` returns its outcome), prints the
// first run's row and the tally, and expects it caught in every run.
inline void expect_caught_every_run(int runs, const std::string& backend, const std::string& bug, std::int64_t n,
                                    const std::function<bench::Outcome()>& one_run) {
  int caught = 0;
  std::int64_t fewest_calls = -1;
  for (int run = 0; run < runs; ++run) {
    const bench::Outcome o = one_run();
    caught += o.kind == bench::Outcome::Kind::verification_failed;
    fewest_calls = fewest_calls < 0 ? o.checked_calls : std::min(fewest_calls, o.checked_calls);
    if (run == 0) print_row(backend, bug, n, o);
  }
  std::printf("| %s | %s | %lld | caught in %d of %d runs (>= %lld calls checked each) |\n", backend.c_str(),
              bug.c_str(), static_cast<long long>(n), caught, runs, static_cast<long long>(fewest_calls));
  EXPECT_EQ(caught, runs) << backend << " at n = " << n;
}

// Runs of a mutant at each n: `usual` (a count the test suite can afford there), or RB_MUTANT_RUNS
// from the environment when set (the acceptance counts, on the GPU machine).
inline int mutant_runs(int usual) {
  const char* v = std::getenv("RB_MUTANT_RUNS");
  return v && *v ? std::atoi(v) : usual;
}

// One run of a mutant whose fault fires on random calls: its outcome, and how often it fired in
// calls whose every sum is checked exactly (the timed calls and the exact check's).
struct FiredRun {
  bench::Outcome outcome;
  std::int64_t fired = 0;
};

// Runs such a mutant `runs` times, each in a fresh session, prints the tally (runs in which it
// fired, runs caught among them and otherwise, firings, the fewest calls checked), and expects
// every run in which it fired caught.
inline void expect_caught_when_fired(int runs, const std::string& backend, const std::string& bug, std::int64_t n,
                                     const std::function<FiredRun()>& one_run) {
  int fired = 0, caught = 0, caught_otherwise = 0;
  std::int64_t firings = 0, fewest_calls = -1;
  for (int run = 0; run < runs; ++run) {
    const FiredRun r = one_run();
    const bool failed = r.outcome.kind == bench::Outcome::Kind::verification_failed;
    fired += r.fired > 0;
    firings += r.fired;
    caught += failed && r.fired > 0;
    caught_otherwise += failed && r.fired == 0;
    fewest_calls = fewest_calls < 0 ? r.outcome.checked_calls : std::min(fewest_calls, r.outcome.checked_calls);
    if (r.fired > 0) {
      EXPECT_TRUE(failed) << backend << " at n = " << n << ", run " << run << ": fired " << r.fired
                          << " times in checked calls, not caught; " << r.outcome.message;
    }
  }
  std::printf("| %s | %s | %lld | fired in %d of %d runs (%lld firings), caught in %d of them; %d other runs "
              "caught (a firing on the input) | >= %lld calls checked each |\n",
              backend.c_str(), bug.c_str(), static_cast<long long>(n), fired, runs, static_cast<long long>(firings),
              caught, caught_otherwise, static_cast<long long>(fewest_calls));
}

// Checks every mutant and control at every size of the session (mode: "hot" or "cold").
inline void expect_caught(const bench::Session& session, const std::vector<Mutant>& mutants,
                          const std::vector<std::string>& controls, const char* mode) {
  using bench::Outcome;
  std::printf(
      "| backend | bug | n | exact | per call | accuracy | ceiling | checked calls "
      "|\n|---|---|---|---|---|---|---|---|\n");
  for (const auto n : session.options().sizes) {
    const std::string tail = "/" + std::to_string(n) + "/" + mode;
    for (const auto& m : mutants) {
      const auto o = outcome_of(session, m.backend + tail);
      print_row(m.backend, m.bug, n, o);
      EXPECT_EQ(o.kind, Outcome::Kind::verification_failed) << m.backend << tail << ": " << o.message;
      EXPECT_EQ(check_of(o, m.caught_by), Outcome::Check::failed) << m.backend << tail << ": " << o.message;
    }
    for (const auto& c : controls) {
      const auto o = outcome_of(session, c + tail);
      print_row(c, "(control)", n, o);
      EXPECT_EQ(o.kind, Outcome::Kind::ok) << c << tail << ": " << o.message;
      EXPECT_EQ(o.exact, Outcome::Check::passed) << c << tail;
      EXPECT_EQ(o.calls, Outcome::Check::passed) << c << tail;
      EXPECT_NE(o.ceiling, Outcome::Check::failed) << c << tail;
    }
  }
}

// A memoizing mutant's row (backend/n/mode): beyond the exact check, its sum comes faster than the
// hardware can read the input.
inline void expect_faster_than_physics(const bench::Session& session, const std::string& row) {
  const auto o = outcome_of(session, row);
  EXPECT_EQ(o.ceiling, bench::Outcome::Check::failed) << row << ": " << o.message;
  EXPECT_NE(o.message.find("faster than physics"), std::string::npos) << o.message;
}

}  // namespace rb::test
