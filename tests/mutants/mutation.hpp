#pragma once
// Mutation evidence: backends with a planted bug, run through the real harness, must come out as
// failed, by the check that should catch them; their correct twins must pass. Each test prints
// its rows of the mutation table (bug, n, which check caught it).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "bench/session.hpp"
#include "tests/support/run_cases.hpp"

namespace rb::test {

struct Mutant {
  std::string backend;  // the registered name
  std::string bug;      // what was planted
  bool exact_catches;   // true: the exact check must fail it; false: the accuracy bound must
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

// Checks every mutant and control at every size of the session (mode: "hot" or "cold").
inline void expect_caught(const bench::Session& session, const std::vector<Mutant>& mutants,
                          const std::vector<std::string>& controls, const char* mode) {
  using bench::Outcome;
  for (const auto n : session.options().sizes) {
    const std::string tail = "/" + std::to_string(n) + "/" + mode;
    for (const auto& m : mutants) {
      const auto o = outcome_of(session, m.backend + tail);
      std::printf("| %s | %s | %lld | exact: %s | accuracy: %s |\n", m.backend.c_str(), m.bug.c_str(),
                  static_cast<long long>(n), check_name(o.exact), check_name(o.accuracy));
      EXPECT_EQ(o.kind, Outcome::Kind::verification_failed) << m.backend << tail << ": " << o.message;
      if (m.exact_catches) EXPECT_EQ(o.exact, Outcome::Check::failed) << m.backend << tail << ": " << o.message;
      else EXPECT_EQ(o.accuracy, Outcome::Check::failed) << m.backend << tail << ": " << o.message;
    }
    for (const auto& c : controls) {
      const auto o = outcome_of(session, c + tail);
      EXPECT_EQ(o.kind, Outcome::Kind::ok) << c << tail << ": " << o.message;
      EXPECT_EQ(o.exact, Outcome::Check::passed) << c << tail;
    }
  }
}

}  // namespace rb::test
