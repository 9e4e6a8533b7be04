#pragma once
// Run-wide state shared by every benchmark: the options, the input, the references and the host
// copy of the data. Everything expensive is built lazily, once, for the sizes the selected
// benchmarks use, and outlives Google Benchmark's per-run SetUp/TearDown.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "bench/exact_data.hpp"
#include "bench/input.hpp"
#include "bench/options.hpp"
#include "bench/reference.hpp"
#include "bench/stored_input.hpp"

namespace rb::bench {

enum class Mode { cold, hot };

// One benchmark: <backend>/<n>/<mode>, the backend's name ending in @<dtype> for types other
// than f32 (bench/element.hpp).
struct Case {
  std::string backend;
  std::int64_t n = 0;
  Mode mode = Mode::hot;
  Dtype dtype = Dtype::f32;
  // > 0: timed by Google Benchmark's rule with this min time, as the twin --compare_min_time
  // registers beside the stopping rule's case; the name then ends in /min_time:<seconds>.
  double min_time = 0;
  std::string name() const;
  // The bytes one call reads: n elements of the case's type.
  std::int64_t bytes() const noexcept { return n * dtype_bytes(dtype); }
};

// This case cannot run here (too large for memory, longer than the input file, ...). Not an
// error: the benchmark is skipped with the message and the run's exit status stays 0.
struct Skip : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A check that a backend broke while the exact check ran it (bench/gpu/stream_check.hpp): the row
// fails with the message, as a verification failure.
struct CheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What one benchmark run established. A benchmark is run several times (Google Benchmark's
// iteration probes, repetitions); the summary keeps the worst outcome per name.
struct Outcome {
  enum class Kind { ok, skipped, verification_failed, error };
  // How each of the two checks (bench/verify.hpp) ended; `none` for a run that never got there.
  enum class Check { none, passed, failed, skipped, no_bound };
  std::string name;
  Kind kind = Kind::ok;
  std::string message;
  Check exact = Check::none;
  Check accuracy = Check::none;
  // The determinism check (bench/verify.hpp): passed or failed where the row promised run_to_run
  // or more and had two calls to compare; skipped where it promised nothing.
  Check repeat = Check::none;
  // The per-call check (bench/verify.hpp: check_calls) and the ceiling of the row's regime
  // (bench/ceiling.hpp); calls counts the calls whose sums were checked (timed, warm-up, exact).
  Check calls = Check::none;
  Check ceiling = Check::none;
  std::int64_t checked_calls = 0;
  // The stopping rule's result (bench/sampling.hpp); samples 0 for a run that never got there.
  // by_rule false: Google Benchmark's rule decided the samples (its probes are runs too).
  bool by_rule = true;
  std::int64_t samples = 0;
  double precision = 0;
  bool target_met = false;
  bool throttled = false;
  // Why a run within the target may still be short of it (bench/sampling.hpp: SampleStats).
  bool correlated = false, drift = false;
  // Other processes' load, or other processes on the GPU, during the samples (bench/contention.hpp).
  bool contended = false;
  // The run's median and precision, for the repetitions' agreement: the summary lists a name whose
  // runs' intervals [median (1 - precision), median (1 + precision)] do not all overlap.
  double median = 0;
  double lowest_high = 0, highest_low = 0;  // over the runs merged into this outcome
  bool repetitions_disagree() const noexcept { return highest_low > lowest_high; }
};

// The exact check of one (backend, n): run once, whatever the mode and however often Google
// Benchmark calls the benchmark.
struct ExactResult {
  Outcome::Check check = Outcome::Check::none;
  std::string message;  // why it failed or was skipped
};

class Session {
 public:
  explicit Session(Options options);  // inspects --input at once (throws InputError)

  const Options& options() const noexcept { return options_; }
  std::string input_description() const;
  bool synthetic() const noexcept { return !file_; }

  // The sizes the selected benchmarks use (sorted, unique). Set once, before any run.
  void select_sizes(std::vector<std::int64_t> sizes) { selected_ = std::move(sizes); }
  const std::vector<std::int64_t>& selected_sizes() const noexcept { return selected_; }

  // Whether the input holds n values (a synthetic one always does).
  bool holds(std::int64_t n) const noexcept { return !file_ || n <= file_->count; }
  // Throws Skip when it does not.
  void require_input(std::int64_t n) const;
  // The reference at n, over the values as `d` stores them. The scan behind it only moves
  // forward: asking for n computes every selected size up to n that is not known yet, so a sweep
  // reads its data once per type in all.
  const Reference& reference(std::int64_t n, Dtype d = Dtype::f32);
  // What the input holds and what storing it as `d` did to it at n (bench/stored_input.hpp); the
  // largest n of each type with something to say is kept for the closing summary.
  StoredInput stored_input(std::int64_t n, Dtype d);
  // Per type: the largest n at which stored_input() found something, and what.
  const std::map<Dtype, std::pair<std::int64_t, StoredInput>>& input_notes() const noexcept { return input_notes_; }
  // x[0, n) in host memory, starting options().offset floats after a 64-byte boundary. The first
  // call materializes the largest selected n that fits in available memory; throws Skip for an n
  // above that.
  const float* host_data(std::int64_t n);
  // The same values stored as T (bench/element.hpp), K elements past alignment for --offset=K.
  template <class T>
  const T* host_data_as(std::int64_t n) {
    return static_cast<const T*>(typed_host(dtype_of<T>, n));
  }

  // The exact check (bench/verify.hpp): kExactSets data sets of integers (--dist=integers) with
  // seeds of their own, written over the timed input in place.
  static constexpr int kExactSets = 2;
  std::uint64_t exact_seed(int set) const noexcept;
  const Reference& exact_reference(std::int64_t n, int set, Dtype d = Dtype::f32,
                                   ExactData data = ExactData::dense);
  // Writes set `set`'s integers over host_data(n)'s x[0, n) and kPoison over the kPadFloats after
  // it, and the same stored as `d` over host_data_as's; the next host_data() or restore_host()
  // puts the input back.
  void fill_exact_host(std::int64_t n, int set, Dtype d = Dtype::f32, ExactData data = ExactData::dense);
  void restore_host();

  // Runs `sum_exact(set)` for every set once per (backend, n), set 0 last, and compares each
  // result with exact_reference(n, set); later calls return the first verdict. A Skip from it is a
  // check that could not run, a CheckFailed one that failed: either fails the benchmark (a run that
  // exits 0 has passed every check). Its wall time is counted.
  const ExactResult& exact_check(const Case& c, ExactData data, const std::function<double(int set)>& sum_exact);
  double exact_seconds() const noexcept { return exact_seconds_; }

  void record(Outcome outcome) { outcomes_.push_back(std::move(outcome)); }
  const std::vector<Outcome>& outcomes() const noexcept { return outcomes_; }
  // Widens the precision of every recorded run of `name` by the scatter between its repetitions
  // (bench/repetitions.hpp, where it is defined); target_met holds only within the target.
  void widen(const std::string& name, double between);
  // One outcome per benchmark name, the worst of its runs, in first-run order.
  std::vector<Outcome> benchmarks() const;
  int failures() const;

 private:
  // A host copy of some prefix of the input: sized once, for the largest selected n that fits.
  struct HostCopy {
    HostBuffer buffer;   // options_.offset floats, count values, then kPadFloats zeros
    std::int64_t count = 0;
    std::string limit;   // why sizes above count cannot be materialized
    std::int64_t dirty = 0;  // x[0, dirty) holds the exact check's data, not the input
    ExactFill filled;        // which, while dirty: filling it again is a no-op
  };
  void fill_input(float* dst, std::int64_t begin, std::int64_t end) const;  // x[begin, end) of the input
  const Reference& scan_to(ReferenceScan& scan, std::map<std::int64_t, Reference>& known, std::int64_t n,
                           const ChunkSource& source);
  const float* read_chunk(std::int64_t begin, std::int64_t end, float* scratch) const;
  ChunkSource chunk_source() const;  // read_chunk, as the reference scan takes it
  ChunkSource exact_source(int set) const;
  // A reference scan with its results, over the values as one type stores them.
  struct Scanned {
    ChunkSource source;
    ReferenceScan scan;
    std::map<std::int64_t, Reference> known;
  };
  // The scan of the input (set -1) or an exact data set as `d` stores them; f32 and f64 store the
  // float values themselves, so they share the float scans.
  Scanned& typed_scan(Dtype d, int set);
  const void* typed_host(Dtype d, std::int64_t n);
  // The host copies stored as each type other than f32: offset + count + kPadFloats elements.
  struct TypedCopy {
    HostBuffer buffer;       // sized in floats: page-aligned, zero-filled
    std::int64_t count = 0;  // elements stored, as host_.count
    std::int64_t dirty = 0;  // elements [0, dirty) hold the exact check's data
  };
  std::map<Dtype, TypedCopy> typed_;
  std::map<Dtype, std::pair<std::int64_t, StoredInput>> input_notes_;
  std::map<std::pair<Dtype, int>, Scanned> typed_scans_;

  Options options_;
  std::optional<InputFile> file_;
  std::vector<std::int64_t> selected_;
  ReferenceScan scan_;
  std::map<std::int64_t, Reference> references_;
  HostCopy host_;
  // Copies of the exact check's data sets and of the input, each host_.count values, kept beside
  // the input where memory allows: writing and restoring in place is then a copy, not a
  // generation (2^28 integers take ~0.7 s to generate on 2 cores, ~0.1 s to copy). Empty: not
  // tried yet, or no room (then generated in place).
  void keep_copies();
  std::vector<HostBuffer> exact_copies_;
  HostBuffer input_copy_;
  bool copies_tried_ = false;
  std::vector<ReferenceScan> exact_scans_;
  std::vector<std::map<std::int64_t, Reference>> exact_references_;
  std::map<std::tuple<std::int64_t, int, Dtype>, Reference> sparse_references_;
  std::map<std::pair<std::string, std::int64_t>, ExactResult> exact_;
  double exact_seconds_ = 0;
  std::vector<Outcome> outcomes_;
};

// Exit codes of reduce_bench.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;     // a verification failure or an error in some benchmark
inline constexpr int kExitUsage = 2;      // bad flag, bad value, bad input file
inline constexpr int kExitNoMatch = 3;    // the filter selected nothing
inline constexpr int kExitNothingRan = 4; // every selected benchmark was skipped: nothing measured
inline constexpr int kExitInterrupted = 5; // SIGINT/SIGTERM: the rest skipped (bench/interrupt.hpp)

std::string format_bytes(double bytes);

// The closing summary's lines on contention: how many of the benchmarks (Session::benchmarks())
// were measured under contention, then up to `listed` of their names, one a line (no final
// newline); empty when none was.
std::string contention_summary(const std::vector<Outcome>& benchmarks, std::size_t listed = 20);

}  // namespace rb::bench
