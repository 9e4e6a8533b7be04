#pragma once
// Ranks that cannot disagree: the ranks of a launch (bench/launch/launch.hpp) must run the same rows with
// the same stopping rule, or their collectives lose their partners and the job ends in a
// verification failure or a collective timeout far from the cause. So before any GPU call every
// rank sends rank 0 a fingerprint of what must agree (its arguments and its build), rank 0
// compares them field by field and answers "go" or "stop"; on "stop" rank 0 names the first
// field that differs and every rank exits with kExitUsage. Same arguments: no output.
// The bytes travel the way NCCL's id does later (the rendezvous's file:, tcp:, or MPI), through
// RankChannel; everything else here is plain code, testable without processes.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/launch/launch.hpp"
#include "bench/detail/options.hpp"

namespace rb::bench {

// One thing the ranks must agree on: a flag's name (or "version", "ranks", "other arguments"),
// this rank's value as text, and the text's 64-bit hash.
struct Field {
  std::string name;
  std::string value;
  std::uint64_t hash = 0;
};
using Fingerprint = std::vector<Field>;

// FNV-1a, 64 bits.
std::uint64_t hash_text(std::string_view text) noexcept;
Field make_field(std::string name, std::string value);

// What main() knows of the binary: the project version, and the build's configuration (build
// type, Google Benchmark, the optional parts) that the fingerprint hashes together with the
// compiler's version.
struct Build {
  std::string version;
  std::string configuration;
};

// The sizes as --sizes would take them, shortest first: powers of two from 2^10 as 2^k, three or
// more in a row as 2^a..2^b, then the others in decimal ("2^10..2^31,10000,1000000").
std::string describe_sizes(const std::vector<std::int64_t>& sizes);

// This rank's fingerprint. `args`: the arguments left once reduce_bench's own flags were taken
// (Google Benchmark's and any unknown ones), before Google Benchmark parses them; those that
// change only output (--benchmark_out, _format, _color, ...) are left out.
Fingerprint fingerprint(const Options& o, const Launch& l, const std::vector<std::string>& args, const Build& b);

// A fingerprint as bytes and back; decode throws std::runtime_error on bytes it cannot read.
std::string encode(const Fingerprint& f);
Fingerprint decode(const std::string& bytes);

// The first field, in rank 0's order, on which some rank differs from rank 0 (a field one side
// lacks differs too), and the message naming it, rank 0's value and every differing rank's:
//   ranks disagree on --sizes: rank 0 has "2^20,2^24", rank 1 has "2^20"
struct Disagreement {
  std::string field;
  std::string message;
};
std::optional<Disagreement> compare(const std::vector<Fingerprint>& by_rank);

// The bytes' way between the ranks at start, one gather and one broadcast. Implemented beside the
// rendezvous (bench/launch/rank_channel.hpp), for file:, tcp: and MPI.
class RankChannel {
 public:
  virtual ~RankChannel() = default;
  // Rank 0: every rank's message, index = rank, its own `mine` at 0, once all have arrived.
  // Ranks > 0: sends `mine` to rank 0 and returns nothing.
  virtual std::vector<std::string> gather(const std::string& mine) = 0;
  // Rank 0: sends `from_rank0` to every other rank and returns it. Ranks > 0: rank 0's.
  virtual std::string broadcast(const std::string& from_rank0) = 0;
};

// The channel of this launch: the rendezvous of --rendezvous (`rendezvous_flag`) or the
// environment, else MPI where the build has it; nullptr where there is neither (then NCCL's id
// cannot travel either, and its exchange says so). Waits at most `timeout_s` for the others.
std::unique_ptr<RankChannel> open_rank_channel(const Launch& l, const std::string& rendezvous_flag, double timeout_s);

// The agreement over `channel`: the exit status to go on with (kExitOk or kExitUsage) and the
// one line to print on stderr (empty when none): rank 0's names the field, a rank > 0's says
// that rank 0 stopped the job.
struct AgreementResult {
  int status = 0;
  std::string line;
};
AgreementResult agree(RankChannel& channel, int rank, const Fingerprint& mine);

// Why these arguments cannot run under a launcher even when every rank has them (Google
// Benchmark's random interleaving orders the rows per process), or empty.
std::string refused_under_launcher(const std::vector<std::string>& args);

// main()'s call, before any GPU call: nothing for one process; under a launcher the agreement,
// waiting --collective_timeout for the others (twice that on ranks > 0, which wait for rank 0's
// wait too), printing its line, then refused_under_launcher. Returns the exit status: kExitOk to
// go on, kExitUsage to stop.
int agree_between_ranks(const Launch& l, const Options& o, const std::vector<std::string>& args, const Build& b);

}  // namespace rb::bench
