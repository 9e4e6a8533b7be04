#pragma once
// The closing summary on stderr: what ran, what was skipped or failed and why, the rows short of
// the stopping rule's target, repetitions that disagree, what storing did to the input.
#include "bench/detail/session.hpp"

namespace rb::bench {

// Prints the summary and returns the exit status it implies (bench/detail/session.hpp: kExit*).
int summarize(const Session& session);

}  // namespace rb::bench
