// reduce_gen: writes the raw float32 input files for `reduce_bench --input=FILE`.
//   reduce_gen OUT.bin -n 1e9 --seed 42 --dist uniform
#include <cstdio>
#include <string>
#include <vector>

#include "tools/reduce_gen/args.hpp"
#include "tools/reduce_gen/writer.hpp"

namespace rb::gen {
namespace {

// Files below this size are written in well under a second: no progress line, no summary.
constexpr std::int64_t kProgressBytes = std::int64_t{256} << 20;
// The progress line is redrawn at most this often (a 4 GB file takes a few seconds to a minute).
constexpr double kRedrawSeconds = 0.25;

class ProgressLine {
 public:
  explicit ProgressLine(bool enabled) : enabled_(enabled) {}

  void update(const Progress& p) {
    if (!enabled_ || (p.written < p.total && p.seconds - last_ < kRedrawSeconds)) return;
    last_ = p.seconds;
    const double done_gb = 4.0 * static_cast<double>(p.written) / 1e9;
    std::fprintf(stderr, "\rreduce_gen: %.2f / %.2f GB (%5.1f%%), %.2f GB/s   ", done_gb,
                 4.0 * static_cast<double>(p.total) / 1e9,
                 100.0 * static_cast<double>(p.written) / static_cast<double>(p.total),
                 p.seconds > 0 ? done_gb / p.seconds : 0.0);
    std::fflush(stderr);
    drawn_ = true;
    seconds_ = p.seconds;
  }
  // Ends the \r-updated line so that whatever follows starts on a fresh one.
  void end() {
    if (drawn_) std::fputc('\n', stderr);
    drawn_ = false;
  }
  bool enabled() const { return enabled_; }
  double seconds() const { return seconds_; }

 private:
  bool enabled_;
  bool drawn_ = false;
  double last_ = -1.0;
  double seconds_ = 0;
};

int run(int argc, char** argv) {
  GenOptions o;
  try {
    o = parse_args(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const UsageError& e) {
    std::fprintf(stderr, "reduce_gen: %s\n%s", e.what(), usage().c_str());
    return kExitUsage;
  }
  if (o.help) {
    std::fputs(usage().c_str(), stdout);
    return kExitOk;
  }
  ProgressLine line(!o.quiet && o.n * 4 >= kProgressBytes);
  try {
    write_values(o.out, o.dist, o.seed, o.n, [&](const Progress& p) { line.update(p); });
  } catch (const WriteError& e) {
    line.end();
    std::fprintf(stderr, "reduce_gen: %s\n", e.what());
    return kExitIo;
  }
  line.end();
  if (line.enabled()) {
    std::fprintf(stderr, "reduce_gen: wrote %lld %s values (seed %llu) to %s in %.1f s\n",
                 static_cast<long long>(o.n), dist_name(o.dist), static_cast<unsigned long long>(o.seed),
                 o.out.c_str(), line.seconds());
  }
  return kExitOk;
}

}  // namespace
}  // namespace rb::gen

int main(int argc, char** argv) {
  try {
    return rb::gen::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "reduce_gen: fatal: %s\n", e.what());
    return rb::gen::kExitIo;
  }
}
