#pragma once
// Run-wide state shared by every benchmark: the options, the input, the references and the host
// copy of the data. Everything expensive is built lazily, once, for the sizes the selected
// benchmarks use, and outlives Google Benchmark's per-run SetUp/TearDown.
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/input.hpp"
#include "bench/options.hpp"
#include "bench/reference.hpp"

namespace rb::bench {

enum class Mode { cold, hot };

// One benchmark: <backend>/<n>/<mode>.
struct Case {
  std::string backend;
  std::int64_t n = 0;
  Mode mode = Mode::hot;
  std::string name() const;
};

// This case cannot run here (too large for memory, longer than the input file, ...). Not an
// error: the benchmark is skipped with the message and the run's exit status stays 0.
struct Skip : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Outcome {
  enum class Kind { ok, skipped, verification_failed, error };
  std::string name;
  Kind kind = Kind::ok;
  std::string message;
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
  // The reference at n. The scan behind it only moves forward: asking for n computes every
  // selected size up to n that is not known yet, so a sweep reads its data once in all.
  const Reference& reference(std::int64_t n);
  // x[0, n) in host memory, starting options().offset floats after a 64-byte boundary. The first
  // call materializes the largest selected n that fits in available memory; throws Skip for an n
  // above that.
  const float* host_data(std::int64_t n);

  void record(Outcome outcome) { outcomes_.push_back(std::move(outcome)); }
  const std::vector<Outcome>& outcomes() const noexcept { return outcomes_; }
  int failures() const;

 private:
  void materialize(std::int64_t n);
  const float* read_chunk(std::int64_t begin, std::int64_t end, float* scratch) const;
  ChunkSource chunk_source() const;  // read_chunk, as the reference scan takes it

  Options options_;
  std::optional<InputFile> file_;
  std::vector<std::int64_t> selected_;
  ReferenceScan scan_;
  std::map<std::int64_t, Reference> references_;
  HostBuffer host_;             // options_.offset floats of padding, then host_count_ values
  std::int64_t host_count_ = 0;
  std::string host_limit_;  // why sizes above host_.size() cannot be materialized
  std::vector<Outcome> outcomes_;
};

// Exit codes of reduce_bench.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;     // a verification failure or an error in some benchmark
inline constexpr int kExitUsage = 2;      // bad flag, bad value, bad input file
inline constexpr int kExitNoMatch = 3;    // the filter selected nothing

std::string format_bytes(double bytes);

}  // namespace rb::bench
