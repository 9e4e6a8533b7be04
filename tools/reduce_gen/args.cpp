#include "tools/reduce_gen/args.hpp"

#include <charconv>
#include <optional>
#include <string_view>

#include "common/sizes.hpp"

namespace rb::gen {
namespace {

// "-n 5", "-n=5", "--n=5", "--seed 7", "--seed=7": the value is the rest after '=' or the next
// argument, taken whatever it looks like, so "-n -5" reports "-5" as a bad size rather than as
// an unknown flag.
struct Flag {
  std::string_view name;
  std::string_view alias;
};

std::optional<std::string> take(const Flag& f, const std::vector<std::string>& args, std::size_t& i) {
  const std::string_view arg = args[i];
  for (const std::string_view name : {f.name, f.alias}) {
    if (name.empty()) continue;
    if (arg == name) {
      if (i + 1 >= args.size()) throw UsageError(std::string(name) + " needs a value");
      return args[++i];
    }
    if (arg.size() > name.size() && arg.starts_with(name) && arg[name.size()] == '=') {
      return std::string(arg.substr(name.size() + 1));
    }
  }
  return std::nullopt;
}

std::int64_t parse_count(const std::string& text) {
  if (text.empty()) throw UsageError("-n needs a value");
  std::int64_t n = 0;
  try {
    n = rb::parse_size(text);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("-n: ") + e.what());
  }
  // An empty file is useless: reduce_bench --input rejects it.
  if (n == 0) throw UsageError("-n: the file must hold at least one value");
  return n;
}

std::uint64_t parse_seed(const std::string& text) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end) {
    throw UsageError("invalid --seed '" + text + "': expected an unsigned 64-bit integer");
  }
  return v;
}

GenDist parse_dist(const std::string& text) {
  if (const auto d = dist_from_name(text)) return *d;
  throw UsageError("invalid --dist '" + text + "': expected uniform, normal or harmonic");
}

}  // namespace

GenOptions parse_args(const std::vector<std::string>& args) {
  GenOptions o;
  bool have_n = false;
  bool flags_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!flags_done && arg.size() > 1 && arg.front() == '-') {
      if (arg == "--") {
        flags_done = true;
      } else if (arg == "-h" || arg == "--help") {
        o.help = true;
      } else if (arg == "-q" || arg == "--quiet") {
        o.quiet = true;
      } else if (auto v = take({"-n", "--n"}, args, i)) {
        o.n = parse_count(*v);
        have_n = true;
      } else if (auto s = take({"--seed", ""}, args, i)) {
        o.seed = parse_seed(*s);
      } else if (auto d = take({"--dist", ""}, args, i)) {
        o.dist = parse_dist(*d);
      } else {
        throw UsageError("unknown flag '" + arg + "'");
      }
      continue;
    }
    if (!o.out.empty()) throw UsageError("unexpected argument '" + arg + "': only one output file");
    if (arg.empty()) throw UsageError("the output path is empty");
    o.out = arg;
  }
  if (o.help) return o;
  if (o.out.empty()) throw UsageError("missing the output file (reduce_gen OUT.bin -n N)");
  if (!have_n) throw UsageError("missing -n N, the number of float32 values to write");
  return o;
}

std::string usage() {
  return R"(usage: reduce_gen OUT.bin -n N [--seed S] [--dist uniform|normal|harmonic] [-q]

Writes N raw little-endian float32 values to OUT.bin, the format reduce_bench --input reads.
  -n N        number of values, in reduce_bench's --sizes forms: 1000, 1e9, 2^30, 1G, 4Gi
  --seed S    unsigned 64-bit seed (default 42, reduce_bench's default)
  --dist D    uniform   signed, [-1, 1) on a 2^-23 grid (default)
              normal    approximately N(0, 1): Irwin-Hall of four uniforms, |x| <= 2 sqrt(3)
              harmonic  x[i] = 1/(i+1); ignores --seed
  -q          no progress line
A file equals reduce_bench's own --dist=D --seed=S input bitwise, and the first k values of any
file do not depend on N.
Exit status: 0 written, 1 the file could not be written, 2 bad arguments.
)";
}

}  // namespace rb::gen
