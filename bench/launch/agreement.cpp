#include "bench/launch/agreement.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "bench/detail/element.hpp"
#include "bench/detail/session.hpp"

namespace rb::bench {
namespace {

// Google Benchmark's flags that change what runs or how it is sampled: a field each.
constexpr std::string_view kRunFlags[] = {"--benchmark_min_time",     "--benchmark_min_warmup_time",
                                          "--benchmark_repetitions",  "--benchmark_enable_random_interleaving",
                                          "--benchmark_dry_run",      "--benchmark_list_tests",
                                          "--benchmark_perf_counters"};
constexpr std::string_view kFilterFlag = "--benchmark_filter";
// Those that change only what is written: rank 0 alone writes (bench/launch/launch.hpp), so they may differ.
constexpr std::string_view kOutputFlags[] = {"--benchmark_out",
                                             "--benchmark_out_format",
                                             "--benchmark_format",
                                             "--benchmark_color",
                                             "--benchmark_counters_tabular",
                                             "--benchmark_context",
                                             "--benchmark_time_unit",
                                             "--benchmark_report_aggregates_only",
                                             "--benchmark_display_aggregates_only",
                                             "--v"};

constexpr std::string_view kNotGiven = "(not given)";
constexpr std::string_view kAbsent = "(absent)";
constexpr std::string_view kMagic = "RBFP1";
constexpr std::string_view kGo = "RBAGREE go";
constexpr std::string_view kStop = "RBAGREE stop ";
constexpr std::size_t kShownValue = 240;  // characters of a value in the message
constexpr std::size_t kShownGroups = 4;   // differing values named in the message

std::string number(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back as v
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

std::string flag_name(std::string_view arg) {
  if (!arg.starts_with("--")) return {};
  return std::string(arg.substr(0, arg.find('=')));
}

bool listed(std::string_view name, const auto& names) {
  return std::ranges::find(names, name) != std::end(names);
}

// Google Benchmark's value of `flag`: the last argument that sets it (a flag without '=' is a
// boolean's true), else its environment variable (BENCHMARK_<NAME>), as Google Benchmark reads it.
std::string benchmark_flag(std::string_view flag, const std::vector<std::string>& args) {
  std::string value;
  bool given = false;
  for (const auto& a : args) {
    if (flag_name(a) != flag) continue;
    given = true;
    value = a.size() > flag.size() ? a.substr(flag.size() + 1) : "true";
  }
  if (given) return value;
  std::string env(flag.substr(2));
  std::transform(env.begin(), env.end(), env.begin(), [](unsigned char c) { return std::toupper(c); });
  if (const char* v = std::getenv(env.c_str())) return v;
  return std::string(kNotGiven);
}

// Every other argument that is not output-only: unknown flags and stray words, in order.
std::string other_arguments(const std::vector<std::string>& args) {
  std::string out;
  for (const auto& a : args) {
    const std::string name = flag_name(a);
    if (name == kFilterFlag || listed(name, kRunFlags) || listed(name, kOutputFlags)) continue;
    out += (out.empty() ? "" : " ") + a;
  }
  return out.empty() ? "(none)" : out;
}

std::string or_default(double v) { return v < 0 ? "(default)" : number(v); }

std::string hex(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

struct Reader {
  const std::string& bytes;
  std::size_t at = 0;
  std::uint64_t u64() {
    if (bytes.size() - at < 8) throw std::runtime_error("fingerprint: truncated");
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t{static_cast<unsigned char>(bytes[at + i])} << (8 * i);
    at += 8;
    return v;
  }
  std::string text() {
    const std::uint64_t n = u64();
    if (n > bytes.size() - at) throw std::runtime_error("fingerprint: a length past its end");
    std::string s = bytes.substr(at, n);
    at += n;
    return s;
  }
};

// A value as the message shows it: control characters escaped, long ones cut.
std::string shown(std::string_view v) {
  std::string out = "\"";
  for (const char c : v.substr(0, kShownValue)) {
    if (std::iscntrl(static_cast<unsigned char>(c))) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + (v.size() > kShownValue ? "...\"" : "\"");
}

// "rank 3" or "ranks 1-3,5".
std::string ranks_text(const std::vector<int>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(ranks[i]);
    if (j > i) out += (j == i + 1 ? "," : "-") + std::to_string(ranks[j]);
    i = j + 1;
  }
  return (ranks.size() == 1 ? "rank " : "ranks ") + out;
}

const Field* find(const Fingerprint& f, const std::string& name) {
  for (const auto& x : f) {
    if (x.name == name) return &x;
  }
  return nullptr;
}

// The message when some rank differs from rank 0 on `name`; nullopt when none does.
std::optional<Disagreement> differ_on(const std::string& name, const std::vector<Fingerprint>& by_rank) {
  const Field* mine = find(by_rank[0], name);
  const std::string v0 = mine ? mine->value : std::string(kAbsent);
  std::vector<std::pair<std::string, std::vector<int>>> groups;  // value, its ranks, by first rank
  int differing = 0;
  for (std::size_t r = 1; r < by_rank.size(); ++r) {
    const Field* theirs = find(by_rank[r], name);
    const bool same = mine && theirs && theirs->hash == mine->hash && theirs->value == mine->value;
    if (same || (!mine && !theirs)) continue;
    const std::string v = theirs ? theirs->value : std::string(kAbsent);
    auto it = std::find_if(groups.begin(), groups.end(), [&v](const auto& g) { return g.first == v; });
    if (it == groups.end()) it = groups.insert(groups.end(), {v, {}});
    it->second.push_back(static_cast<int>(r));
    ++differing;
  }
  if (groups.empty()) return std::nullopt;
  std::string message = "ranks disagree on " + name + ": rank 0 has " + shown(v0);
  int named = 0;
  for (std::size_t g = 0; g < groups.size() && g < kShownGroups; ++g) {
    const auto& [v, ranks] = groups[g];
    message += ", " + ranks_text(ranks) + (ranks.size() == 1 ? " has " : " have ") + shown(v);
    named += static_cast<int>(ranks.size());
  }
  if (named < differing) message += ", and " + std::to_string(differing - named) + " more ranks differ";
  return Disagreement{name, message};
}

}  // namespace

std::uint64_t hash_text(std::string_view text) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

Field make_field(std::string name, std::string value) {
  const std::uint64_t h = hash_text(value);
  return Field{std::move(name), std::move(value), h};
}

std::string describe_sizes(const std::vector<std::int64_t>& sizes) {
  std::vector<int> powers;  // exponents of 2^10 and up
  std::vector<std::int64_t> others;
  for (const std::int64_t n : sizes) {
    if (n >= 1024 && std::has_single_bit(static_cast<std::uint64_t>(n))) {
      powers.push_back(std::countr_zero(static_cast<std::uint64_t>(n)));
    } else {
      others.push_back(n);
    }
  }
  std::sort(powers.begin(), powers.end());
  std::string out;
  const auto add = [&out](const std::string& s) { out += (out.empty() ? "" : ",") + s; };
  for (std::size_t i = 0; i < powers.size();) {
    std::size_t j = i;
    while (j + 1 < powers.size() && powers[j + 1] == powers[j] + 1) ++j;
    if (j >= i + 2) {
      add("2^" + std::to_string(powers[i]) + "..2^" + std::to_string(powers[j]));
    } else {
      for (std::size_t k = i; k <= j; ++k) add("2^" + std::to_string(powers[k]));
    }
    i = j + 1;
  }
  for (const std::int64_t n : others) add(std::to_string(n));
  return out.empty() ? "(none)" : out;
}

Fingerprint fingerprint(const Options& o, const Launch& l, const std::vector<std::string>& args, const Build& b) {
  // The configuration with the compiler that built this file (and so the harness): a build of
  // the same version with other optional parts, or by another compiler, is another binary.
  std::string config = b.configuration + "; " + __VERSION__ + "; C++ " + std::to_string(__cplusplus);
  const std::string dtypes = dtype_list(o.dtypes);
  Fingerprint f = {
      make_field("version", b.version + " (configuration " + hex(hash_text(config)) + ")"),
      make_field("ranks", std::to_string(l.size)),
      make_field("--sizes", describe_sizes(o.sizes) + (o.sizes_given ? "" : " (default)")),
      make_field("--dtype", dtypes),
      make_field(std::string(kFilterFlag), benchmark_flag(kFilterFlag, args)),
      make_field("--dist", dist_name(o.dist)),
      make_field("--seed", std::to_string(o.seed)),
      make_field("--input", o.input_path.empty() ? "(none)" : o.input_path),
      make_field("--offset", std::to_string(o.offset)),
      make_field("--gpus", o.gpus == 0 ? "all" : std::to_string(o.gpus)),
      make_field("--precision", number(o.rule.target)),
      make_field("--min_samples", std::to_string(o.rule.min_samples)),
      make_field("--max_samples", std::to_string(o.rule.max_samples)),
      make_field("--max_time", number(o.rule.max_seconds)),
      make_field("--timeout", number(o.rule.timeout_seconds)),
      make_field("--warmup", number(o.rule.warmup_seconds)),
      make_field("--compare_min_time", number(o.compare_min_time)),
      make_field("--spin_us", or_default(o.spin_us)),
      make_field("--flush_passes", or_default(o.flush_passes)),
      make_field("--page_touch_mib", or_default(static_cast<double>(o.page_touch_mib))),
      make_field("--list_backends", o.list_backends ? "true" : "false"),
  };
  for (const std::string_view flag : kRunFlags) f.push_back(make_field(std::string(flag), benchmark_flag(flag, args)));
  f.push_back(make_field("other arguments", other_arguments(args)));
  return f;
}

std::string encode(const Fingerprint& f) {
  std::string out(kMagic);
  put_u64(out, f.size());
  for (const auto& x : f) {
    put_u64(out, x.name.size());
    out += x.name;
    put_u64(out, x.value.size());
    out += x.value;
    put_u64(out, x.hash);
  }
  return out;
}

Fingerprint decode(const std::string& bytes) {
  if (!bytes.starts_with(kMagic)) throw std::runtime_error("fingerprint: not one (another program or version?)");
  Reader in{bytes, kMagic.size()};
  const std::uint64_t n = in.u64();
  if (n > bytes.size()) throw std::runtime_error("fingerprint: a count past its end");
  Fingerprint f;
  for (std::uint64_t i = 0; i < n; ++i) {
    Field x;
    x.name = in.text();
    x.value = in.text();
    x.hash = in.u64();
    f.push_back(std::move(x));
  }
  if (in.at != bytes.size()) throw std::runtime_error("fingerprint: bytes past its end");
  return f;
}

std::optional<Disagreement> compare(const std::vector<Fingerprint>& by_rank) {
  if (by_rank.size() < 2) return std::nullopt;
  for (const auto& x : by_rank[0]) {
    if (auto d = differ_on(x.name, by_rank)) return d;
  }
  // Fields rank 0 lacks (another build's), in the first rank's order that has them.
  for (std::size_t r = 1; r < by_rank.size(); ++r) {
    for (const auto& x : by_rank[r]) {
      if (auto d = differ_on(x.name, by_rank)) return d;
    }
  }
  return std::nullopt;
}

AgreementResult agree(RankChannel& channel, int rank, const Fingerprint& mine) {
  const std::vector<std::string> all = channel.gather(encode(mine));
  if (rank == 0) {
    std::vector<Fingerprint> by_rank;
    for (const auto& bytes : all) {
      try {
        by_rank.push_back(decode(bytes));
      } catch (const std::runtime_error& e) {
        by_rank.push_back({make_field("version", std::string("(unreadable: ") + e.what() + ")")});
      }
    }
    const auto d = compare(by_rank);
    channel.broadcast(d ? std::string(kStop) + d->field : std::string(kGo));
    if (d) return {kExitUsage, "reduce_bench: " + d->message};
    return {kExitOk, {}};
  }
  const std::string verdict = channel.broadcast({});
  if (verdict == kGo) return {kExitOk, {}};
  if (verdict.starts_with(kStop)) {
    return {kExitUsage, "reduce_bench: rank " + std::to_string(rank) +
                            ": rank 0 stopped the job: the ranks' arguments differ on " + verdict.substr(kStop.size()) +
                            " (rank 0's message names the values)"};
  }
  throw std::runtime_error("rank 0 answered the argument check with bytes that are no verdict");
}

std::string refused_under_launcher(const std::vector<std::string>& args) {
  const std::string v = benchmark_flag("--benchmark_enable_random_interleaving", args);
  if (v == "true" || v == "1" || v == "yes" || v == "on") {
    return "--benchmark_enable_random_interleaving shuffles the rows per process, so the ranks would run them in "
           "different orders: leave it off under a launcher";
  }
  return {};
}

int agree_between_ranks(const Launch& l, const Options& o, const std::vector<std::string>& args, const Build& b) {
  if (l.size <= 1) return kExitOk;
  const double wait_s = l.rank == 0 ? o.collective_timeout : 2 * o.collective_timeout;
  const auto channel = open_rank_channel(l, o.rendezvous, wait_s);
  if (!channel) return kExitOk;
  const AgreementResult r = agree(*channel, l.rank, fingerprint(o, l, args, b));
  if (!r.line.empty()) std::fprintf(stderr, "%s\n", r.line.c_str());
  if (r.status != kExitOk) return r.status;
  // The same arguments on every rank, so every rank refuses alike; rank 0 alone says why.
  if (const std::string why = refused_under_launcher(args); !why.empty()) {
    if (l.rank == 0) std::fprintf(stderr, "reduce_bench: %s\n", why.c_str());
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace rb::bench
