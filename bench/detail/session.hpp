#pragma once
// Run-wide state shared by every benchmark, one part per concern: the input on the host, the
// references, the exact checks and the outcomes. Everything expensive is built lazily, once, for
// the sizes the selected benchmarks use, and outlives Google Benchmark's per-run SetUp/TearDown.
#include <string>

#include "bench/detail/case.hpp"
#include "bench/detail/exact_check.hpp"
#include "bench/detail/input_store.hpp"
#include "bench/detail/options.hpp"
#include "bench/detail/outcome_log.hpp"
#include "bench/detail/reference_cache.hpp"

namespace rb::bench {

class Session {
 public:
  explicit Session(Options options)  // inspects --input at once (throws InputError)
      : options_(std::move(options)), input_(options_), references_(input_), exact_(input_, references_) {}
  Session(const Session&) = delete;  // the parts refer to each other
  Session& operator=(const Session&) = delete;

  const Options& options() const noexcept { return options_; }
  InputStore& input() noexcept { return input_; }
  const InputStore& input() const noexcept { return input_; }
  ReferenceCache& references() noexcept { return references_; }
  const ReferenceCache& references() const noexcept { return references_; }
  ExactChecks& exact() noexcept { return exact_; }
  const ExactChecks& exact() const noexcept { return exact_; }
  OutcomeLog& log() noexcept { return log_; }
  const OutcomeLog& log() const noexcept { return log_; }

 private:
  Options options_;
  InputStore input_;
  ReferenceCache references_;
  ExactChecks exact_;
  OutcomeLog log_;
};

// Exit codes of reduce_bench.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;     // a verification failure or an error in some benchmark
inline constexpr int kExitUsage = 2;      // bad flag, bad value, bad input file
inline constexpr int kExitNoMatch = 3;    // the filter selected nothing
inline constexpr int kExitNothingRan = 4; // every selected benchmark was skipped: nothing measured
inline constexpr int kExitInterrupted = 5; // SIGINT/SIGTERM: the rest skipped (bench/detail/interrupt.hpp)

}  // namespace rb::bench
