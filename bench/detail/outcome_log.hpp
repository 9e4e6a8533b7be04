#pragma once
// What each benchmark run established, kept for the closing summary and the exit status.
#include <cstdint>
#include <string>
#include <vector>

namespace rb::bench {

// A GPU benchmark is flagged `throttled` when the lowest SM clock read during its samples is below
// this fraction of the device's maximum (gpu/clock_watch.hpp).
inline constexpr double kThrottleFraction = 0.9;

// What one benchmark run established. A benchmark is run several times (Google Benchmark's
// iteration probes, repetitions); the summary keeps the worst outcome per name.
struct Outcome {
  enum class Kind { ok, skipped, verification_failed, error };
  // How each of the two checks (bench/detail/verify.hpp) ended; `none` for a run that never got there.
  enum class Check { none, passed, failed, skipped, no_bound };
  std::string name;
  Kind kind = Kind::ok;
  std::string message;
  Check exact = Check::none;
  Check accuracy = Check::none;
  // The determinism check (bench/detail/verify.hpp): passed or failed where the row promised run_to_run
  // or more and had two calls to compare; skipped where it promised nothing.
  Check repeat = Check::none;
  // The per-call check (bench/detail/verify.hpp: check_calls) and the ceiling of the row's regime
  // (bench/detail/ceiling.hpp); calls counts the calls whose sums were checked (timed, warm-up, exact).
  Check calls = Check::none;
  Check ceiling = Check::none;
  std::int64_t checked_calls = 0;
  // The stopping rule's result (bench/detail/sampling.hpp); samples 0 for a run that never got there.
  // by_rule false: Google Benchmark's rule decided the samples (its probes are runs too).
  bool by_rule = true;
  std::int64_t samples = 0;
  double precision = 0;
  bool target_met = false;
  bool throttled = false;
  // Why a run within the target may still be short of it (bench/detail/sampling.hpp: SampleStats).
  bool correlated = false, drift = false;
  // Other processes' load, or other processes on the GPU, during the samples (bench/detail/contention.hpp).
  bool contended = false;
  // The run's median and precision, for the repetitions' agreement: the summary lists a name whose
  // runs' intervals [median (1 - precision), median (1 + precision)] do not all overlap.
  double median = 0;
  double lowest_high = 0, highest_low = 0;  // over the runs merged into this outcome
  bool repetitions_disagree() const noexcept { return highest_low > lowest_high; }
};

class OutcomeLog {
 public:
  void record(Outcome outcome) { outcomes_.push_back(std::move(outcome)); }
  const std::vector<Outcome>& outcomes() const noexcept { return outcomes_; }
  // Widens the precision of every recorded run of `name` by the scatter between its repetitions
  // (bench/detail/repetitions.hpp); target_met holds only within `target`.
  void widen(const std::string& name, double between, double target);
  // One outcome per benchmark name, the worst of its runs, in first-run order.
  std::vector<Outcome> benchmarks() const;
  int failures() const;

 private:
  std::vector<Outcome> outcomes_;
};

// The closing summary's lines on contention: how many of the benchmarks (OutcomeLog::benchmarks())
// were measured under contention, then up to `listed` of their names, one a line (no final
// newline); empty when none was.
std::string contention_summary(const std::vector<Outcome>& benchmarks, std::size_t listed = 20);

}  // namespace rb::bench
