// reduce_bench's main(): parse our flags, let Google Benchmark parse its own, register backends x
// sizes x modes, run, and turn verification failures into the exit status. The backends are
// whatever the executable registered (RB_REGISTER_BACKEND): reduce_bench links the built-in ones,
// a user's executable its own (reduce_bench::main in the installed package).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "bench/agreement.hpp"
#include "bench/ceiling.hpp"
#include "bench/console.hpp"
#include "bench/element.hpp"
#include "bench/gpu/context.hpp"
#include "bench/interrupt.hpp"
#include "bench/measure.hpp"
#include "bench/launch.hpp"
#include "bench/options.hpp"
#include "bench/output_file.hpp"
#include "bench/progress.hpp"
#include "bench/registration.hpp"
#include "bench/registry.hpp"
#include "bench/repetitions.hpp"
#include "bench/run_context.hpp"
#include "bench/session.hpp"
#include "bench/summation.hpp"

#ifndef RB_BUILD_TYPE
#define RB_BUILD_TYPE "unknown"
#endif
#ifndef RB_BENCHMARK_SOURCE
#define RB_BENCHMARK_SOURCE "unknown"
#endif
#ifndef RB_BUILD_CONFIG
#define RB_BUILD_CONFIG "unknown"
#endif

namespace rb::bench {
namespace {

// Without a usable GPU, the cause in one line first; each GPU backend then says kNoGpu for it.
constexpr std::string_view kNoGpu = "no usable GPU (above)";

// Whether `e` is unavailable because this machine has no usable GPU (`gpu_why_not`, its reason
// then begins with it).
bool for_want_of_gpu(const BackendEntry& e, const std::string& gpu_why_not) {
  return !gpu_why_not.empty() && e.unavailable.starts_with(gpu_why_not);
}

// Whether the missing GPU is worth a line: when some backend is unavailable for want of it, or when
// this build has no GPU layer at all (bench/gpu/none.cpp's reason), which is why none is registered.
// A bench whose backends all run on the CPU (a user's, examples/custom_backend) on a machine
// without a usable GPU has nothing to say about GPUs.
bool misses_gpu(const std::vector<BackendEntry>& entries, const std::string& gpu_why_not) {
  return gpu_why_not.starts_with(kGpuNotBuilt) ||
         std::any_of(entries.begin(), entries.end(),
                     [&](const BackendEntry& e) { return for_want_of_gpu(e, gpu_why_not); });
}

// The backends registered for the element types --dtype left out, counted per type: "f64 (12)".
std::string other_types(const Options& options) {
  std::string out;
  for (const Dtype d : parse_dtypes("all")) {
    if (std::find(options.dtypes.begin(), options.dtypes.end(), d) != options.dtypes.end()) continue;
    const std::size_t n = with_element_type(d, []<class T>() { return registered_defs<T>().size(); });
    if (n > 0) out += (out.empty() ? "" : ", ") + std::string(dtype_name(d)) + " (" + std::to_string(n) + ")";
  }
  return out;
}

// One line a backend under a header: its name, its determinism promise (bench/determinism.hpp),
// availability. Only --dtype's types are listed (f32 by default); a closing line names the others.
void list_backends(const std::vector<BackendEntry>& entries, const std::string& gpu_why_not, const Options& options) {
  if (misses_gpu(entries, gpu_why_not)) std::printf("GPU backends: unavailable: %s\n", gpu_why_not.c_str());
  std::printf("%-32s %-15s %s\n", "backend", "determinism", "availability here");
  for (const auto& e : entries) {
    std::string why = e.unavailable;
    if (for_want_of_gpu(e, gpu_why_not)) why = std::string(kNoGpu) + why.substr(gpu_why_not.size());
    std::printf("%-32s %-15s %s\n", e.name.c_str(), std::string(determinism_name(e.determinism)).c_str(),
                why.empty() ? "available" : ("unavailable: " + why).c_str());
  }
  if (const std::string others = other_types(options); !others.empty()) {
    std::printf("other element types: backends registered for %s; --dtype=all lists every type, "
                "--dtype=<type> one\n", others.c_str());
  }
}

// Whether the missing GPU is worth a line before a run: as misses_gpu says, and then only when the
// filter selects a row that it keeps from running (or the build has no GPU layer).
bool gpu_rows_selected(const std::vector<BackendEntry>& entries, const Options& options, const std::string& filter,
                       const std::string& gpu_why_not) {
  if (gpu_why_not.starts_with(kGpuNotBuilt)) return true;
  std::vector<BackendEntry> wanting;
  for (const auto& e : entries) {
    if (!for_want_of_gpu(e, gpu_why_not)) continue;
    wanting.push_back(e);
    wanting.back().unavailable.clear();  // as if it could run: would the filter pick it?
  }
  return !wanting.empty() && !select_cases(wanting, options, filter).empty();
}

// The available backends in sweep order ("backends") and the others with their reasons
// ("backends_unavailable"), so scripts read the names from the run instead of hard-coding them;
// every backend's determinism promise ("determinism": name=promise,...).
void add_backend_context(const std::vector<BackendEntry>& entries) {
  std::string available, unavailable, determinism;
  for (const auto& e : entries) {
    determinism += (determinism.empty() ? "" : ",") + e.name + "=" + std::string(determinism_name(e.determinism));
    if (e.unavailable.empty()) available += (available.empty() ? "" : ",") + e.name;
    else unavailable += (unavailable.empty() ? "" : "; ") + e.name + ": " + e.unavailable;
  }
  set_context("backends", available);
  set_context("backends_unavailable", unavailable);
  set_context("determinism", determinism);
}

// The console's one line on what is missing here; the JSON and --list_backends say why.
// `gpu_said`: the missing GPU's line was printed above the table.
void note_unavailable(const std::vector<BackendEntry>& entries, const std::string& gpu_why_not, bool gpu_said) {
  int no_gpu = 0;
  std::string others;
  int other_count = 0;
  for (const auto& e : entries) {
    if (e.unavailable.empty()) continue;
    if (for_want_of_gpu(e, gpu_why_not)) {
      ++no_gpu;
    } else {
      others += (others.empty() ? "" : ", ") + e.name;
      ++other_count;
    }
  }
  if (no_gpu == 0 && other_count == 0) return;
  std::string line = "unavailable here:";
  if (no_gpu > 0)
    line += " " + std::to_string(no_gpu) + " GPU backends (no usable GPU" + (gpu_said ? ": above)" : ")") +
            (other_count ? ";" : "");
  if (other_count > 0) line += " " + std::to_string(other_count) + " (" + others + ")";
  add_console_note(fit(line, kConsoleWidth - 26) + "; --list_backends says why");
}

void add_context(const Session& session, const std::vector<BackendEntry>& entries, const std::string& gpu_why_not,
                 bool gpu_said) {
  set_context("reduce_bench_version", RB_VERSION);
  set_context("build_type", RB_BUILD_TYPE);
  set_context("benchmark_source", RB_BENCHMARK_SOURCE);
  set_context("input", session.input_description());
  std::string dtypes;
  for (const Dtype d : session.options().dtypes) dtypes += (dtypes.empty() ? "" : ",") + std::string(dtype_name(d));
  set_context("dtypes", dtypes + ": each type sums the input stored in it (f16/bf16 rounded to nearest even, f64 "
                                 "widened, i32 x * 2^20 rounded); rows of types other than f32 end in @<type>");
  const bool timed_exact = session.options().time_on == TimedData::exact;
  set_context("timed_data",
              timed_exact ? "exact data set 0 (nonzero integers in [-8, 8], seed " +
                                std::to_string(session.exact_seed(0)) +
                                "; sparse integers for rows adding in 16 bits): every timed call's sum compared "
                                "bit for bit with its integer sum (--time_on=exact)"
                          : "the input (" + session.input_description() +
                                "): every timed call's sum within the row's stated bound, and bit for bit the "
                                "first call's where the backend promises run_to_run or gpu_to_gpu (--time_on=input)");
  set_context("verification",
              std::string("every call: ") +
                  (timed_exact ? "each timed call exactly (timed_data); " : "each timed call as timed_data says; ") +
                  "accuracy: 2-8 untimed calls on the input within the stated bound, "
                  "|sum - ref| <= gamma(chain + tree) sum|x| (+ u32 |ref| for float results) with the "
                  "structure each backend states, ref = compensated fp64 (rel_tol absent: no bound at or "
                  "below 1% of sum|x| exists), and bit for bit each other where the backend promises "
                  "run_to_run or gpu_to_gpu (counters checked_calls, wrong_calls, repeatable); exact: per "
                  "backend and n, the same backend over its own buffer refilled with nonzero integers in "
                  "[-8, 8] of alternating parity, 2^20 poison past n, two data sets (seeds " +
                  std::to_string(session.exact_seed(0)) + ", " + std::to_string(session.exact_seed(1)) +
                  "), zero tolerance, the second one's call captured into a CUDA graph on GPU rows (the stream "
                  "rule: counter stream_check); ceilings: the median's bandwidth at most the row's ceiling "
                  "(gpu_ceilings, cpu_ceiling)");
  set_context("cpu_ceiling", describe_cpu_ceiling());
  set_context("cpu_timing", "steady_clock wall time per call, hot");
  const StopRule& r = session.options().rule;
  std::string sampling = session.options().user_min_time
                             ? "Google Benchmark's --benchmark_min_time rule, one sample per iteration"
                             : describe_rule(r);
  if (session.options().compare_min_time > 0) {
    sampling +=
        "; rows named .../min_time:T/manual_time: Google Benchmark's rule with min time T, one sample per iteration";
  }
  set_context("sampling", sampling);
  add_console_note("sampling: " + (session.options().user_min_time
                                       ? std::string("Google Benchmark's --benchmark_min_time rule")
                                       : summarize_rule(r)));
  add_console_note(
      "verified: every call within its stated bound, and an exact check per backend and n (docs/methodology.md)");
  add_backend_context(entries);
  note_unavailable(entries, gpu_why_not, gpu_said);
  add_gpu_context();
}

constexpr std::size_t kListed = 20;

// The benchmarks the stopping rule left short of its target, with the precision they reached.
void print_short_of(const Session& session, int sampled, const std::vector<const Outcome*>& short_of) {
  std::fprintf(stderr,
               "reduce_bench: %d of %d benchmarks reached +-%g%% (95%% CI of the median) and their minimum samples%s\n",
               sampled - static_cast<int>(short_of.size()), sampled, 100 * session.options().rule.target,
               short_of.empty() ? "" : "; not reached:");
  for (std::size_t i = 0; i < short_of.size() && i < kListed; ++i) {
    const Outcome& o = *short_of[i];
    const char* why = o.drift && o.correlated ? " (correlated, drift)"
                       : o.drift                ? " (drift)"
                       : o.correlated           ? " (correlated)"
                                                : "";
    std::fprintf(stderr, "  %s: +-%.2f%% after %lld samples%s\n", o.name.c_str(), 100 * o.precision,
                 static_cast<long long>(o.samples), why);
  }
  if (short_of.size() > kListed) {
    std::fprintf(stderr, "  and %zu more (target_met = 0 in the JSON)\n", short_of.size() - kListed);
  }
  const auto count = [&](bool Outcome::*flag) {
    return std::count_if(short_of.begin(), short_of.end(), [&](const Outcome* o) { return o->*flag; });
  };
  if (const auto c = count(&Outcome::correlated), d = count(&Outcome::drift); c + d > 0) {
    std::fprintf(stderr, "  of them %ld correlated and %ld drifting, counted short whatever their precision "
                         "(JSON: correlated, drift)\n", static_cast<long>(c), static_cast<long>(d));
  }
}

// Names whose repetitions' intervals do not overlap: each run's precision claim cannot hold for
// all of them (Outcome::repetitions_disagree).
void print_disagreeing(const std::vector<Outcome>& all) {
  std::vector<const Outcome*> off;
  for (const auto& o : all) {
    if (o.by_rule && o.repetitions_disagree()) off.push_back(&o);
  }
  if (off.empty()) return;
  std::fprintf(stderr, "reduce_bench: %zu benchmarks whose repetitions disagree beyond their precision:", off.size());
  for (std::size_t i = 0; i < off.size() && i < kListed; ++i) {
    std::fprintf(stderr, "\n  %s: one run's interval ends at %.4g us, another's starts at %.4g us",
                 off[i]->name.c_str(), off[i]->lowest_high * 1e6, off[i]->highest_low * 1e6);
  }
  std::fprintf(stderr, "%s\n", off.size() > kListed ? "\n  ..." : "");
}

// What the input holds and what each type made of it, at the largest n that had any of it
// (bench/stored_input.hpp); types with the same words share a line.
void print_input_notes(const Session& session) {
  std::vector<std::pair<std::string, std::string>> lines;  // (types, what), in type order
  for (const auto& [d, note] : session.input_notes()) {
    const std::string what = "at n = " + std::to_string(note.first) + ": " + describe(note.second);
    const auto same = std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.second == what; });
    if (same != lines.end()) same->first += ", " + std::string(dtype_name(d));
    else lines.emplace_back(std::string(dtype_name(d)), what);
  }
  if (lines.empty()) return;
  std::fprintf(stderr,
               "reduce_bench: the input as the rows' types store it (each row is checked against those values):\n");
  for (const auto& [types, what] : lines) std::fprintf(stderr, "  %s %s\n", types.c_str(), what.c_str());
}

// The closing summary's sampling lines: the precision target (rows sampled by the stopping rule;
// Google Benchmark's rule has probe runs that are no measurement) and any benchmark whose SM clock
// fell while it sampled (under either rule).
void summarize_sampling(const Session& session, const std::vector<Outcome>& all) {
  std::vector<const Outcome*> short_of, throttled;
  int sampled = 0;
  for (const auto& o : all) {
    if (o.throttled) throttled.push_back(&o);
    if (o.samples == 0 || !o.by_rule) continue;
    ++sampled;
    if (!o.target_met) short_of.push_back(&o);
  }
  if (sampled > 0) print_short_of(session, sampled, short_of);
  print_disagreeing(all);
  if (const auto s = contention_summary(all); !s.empty()) std::fprintf(stderr, "%s\n", s.c_str());
  if (throttled.empty()) return;
  std::fprintf(stderr,
               "reduce_bench: %zu benchmarks ran with the SM clock below %.0f%% of its maximum (sm_mhz in the JSON):",
               throttled.size(), 100 * kThrottleFraction);
  for (std::size_t i = 0; i < throttled.size() && i < kListed; ++i)
    std::fprintf(stderr, " %s", throttled[i]->name.c_str());
  std::fprintf(stderr, "%s\n", throttled.size() > kListed ? " ..." : "");
}

int summarize(const Session& session) {
  using Check = Outcome::Check;
  int measured = 0, timing_only = 0, skipped = 0, failed = 0;
  int exact = 0, within = 0, no_bound = 0;
  std::int64_t checked_calls = 0;
  std::string first_skip;
  const auto all = session.benchmarks();
  for (const auto& o : all) {
    switch (o.kind) {
      case Outcome::Kind::ok:
        if (o.exact == Check::none) ++timing_only;
        else ++measured;
        break;
      case Outcome::Kind::skipped:
        ++skipped;
        if (first_skip.empty()) first_skip = o.name + ": " + o.message;
        break;
      case Outcome::Kind::verification_failed:
      case Outcome::Kind::error:
        ++failed;
        std::fprintf(stderr, "reduce_bench: FAILED %s: %s\n", o.name.c_str(), o.message.c_str());
        break;
    }
    exact += o.exact == Check::passed;
    within += o.accuracy == Check::passed;
    no_bound += o.accuracy == Check::no_bound;
    checked_calls += o.checked_calls;
  }
  // The rows a signal kept from running are skipped rows too, in the JSON as here (bench/interrupt.hpp).
  const auto not_run = static_cast<int>(not_run_count());
  const std::string not_run_note = not_run > 0 ? " (" + std::to_string(not_run) + " not run: interrupted)" : "";
  std::fprintf(
      stderr,
      "reduce_bench: %d measured: %d exact, %d within stated bound, %d without a bound; %d timing only, %d skipped%s, "
      "%d failed\n",
      measured + failed, exact, within, no_bound, timing_only, skipped + not_run, not_run_note.c_str(), failed);
  std::fprintf(
      stderr,
      "reduce_bench: %lld calls checked (every timed call %s, calls on the input against the bound, exact-check "
      "calls); exact checks took %.1f s\n",
      static_cast<long long>(checked_calls),
      session.options().time_on == TimedData::exact ? "exactly" : "against the bound", session.exact_seconds());
  print_input_notes(session);
  summarize_sampling(session, all);
  if (failed > 0) return kExitFailed;
  if (measured == 0 && timing_only == 0) {
    std::fprintf(stderr, "reduce_bench: nothing was measured: every selected benchmark was skipped (%s)\n",
                 first_skip.c_str());
    return kExitNothingRan;
  }
  return kExitOk;
}

// Whether the console table reached stdout: a full disk or a closed descriptor there fails every
// write silently, as it did the --benchmark_out file's.
bool console_written() {
  errno = 0;
  if (std::cout.flush() && std::fflush(stdout) == 0) return true;
  std::fprintf(stderr, "reduce_bench: cannot write the console table to stdout%s%s\n", errno ? ": " : "",
               errno ? std::strerror(errno) : "");
  return false;
}

int run(int argc, char** argv) {
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "reduce_bench: %s (see --help)\n", e.what());
    return kExitUsage;
  }
  if (options.help) {
    std::cout << usage() << "\nGoogle Benchmark flags:\n";
    benchmark::PrintDefaultHelp();
    return kExitOk;
  }
  if (options.version) {
    std::printf("%s\n", program_and_version(argv[0] ? argv[0] : "", RB_VERSION).c_str());
    return kExitOk;
  }
  std::vector<char*> args(argv, argv + argc);
  drop_output_flags(init_launch(options.rendezvous), args);  // under a launcher, rank 0 alone writes --benchmark_out
  // Under a launcher every rank's arguments alike, or every rank stops here, before any GPU call.
  const Build build{RB_VERSION, std::string(RB_BUILD_TYPE) + "; " + RB_BENCHMARK_SOURCE + "; " + RB_BUILD_CONFIG};
  const int agreed = agree_between_ranks(launch(), options, {args.begin() + 1, args.end()}, build);
  if (agreed != kExitOk) return agreed;
  if (const std::string why = unwritable_output(args); !why.empty()) {
    std::fprintf(stderr, "reduce_bench: %s (see --help)\n", why.c_str());
    return kExitUsage;
  }
  OutputFile output;  // rank 0's --benchmark_out goes to a temporary, moved onto the file when whole
  if (const std::string why = launch().rank == 0 ? output.redirect(args) : ""; !why.empty()) {
    std::fprintf(stderr, "reduce_bench: %s (see --help)\n", why.c_str());
    return kExitUsage;
  }
  std::string min_time = kOneIterationFlag;
  if (!options.user_min_time) args.push_back(min_time.data());
  args.push_back(nullptr);
  argc = static_cast<int>(args.size()) - 1;
  argv = args.data();
  benchmark::Initialize(&argc, argv);
  if (argc > 1) {
    std::fprintf(stderr, "reduce_bench: unknown argument '%s' (see --help)\n", argv[1]);
    return kExitUsage;
  }

  Session session(options);  // InputError for a bad --input: caught in main
  std::string gpu_why_not;
  auto entries = registered_backends(session, gpu_why_not);
  keep_collective_rows(launch(), options.gpus_given, entries);
  if (options.list_backends) {
    list_backends(entries, gpu_why_not, options);
    return kExitOk;
  }

  const std::string filter = benchmark::GetBenchmarkFilter();
  const bool gpu_said = gpu_rows_selected(entries, options, filter, gpu_why_not);
  if (gpu_said) {
    std::fprintf(stderr, "reduce_bench: GPU benchmarks skipped: %s\n", gpu_why_not.c_str());
  }
  const auto cases = select_cases(entries, options, filter);
  if (cases.empty()) {
    std::fprintf(stderr, "reduce_bench: no available benchmark matches --benchmark_filter='%s' "
                         "(--list_backends shows the backends, --benchmark_list_tests the names)\n", filter.c_str());
    return kExitNoMatch;
  }
  std::set<std::int64_t> sizes;
  for (const auto& c : cases) sizes.insert(c.n);
  session.select_sizes({sizes.begin(), sizes.end()});
  register_cases(cases, entries, options.compare_min_time);

  if (!options.list_tests) add_context(session, entries, gpu_why_not, gpu_said);
  const std::int64_t twins = options.compare_min_time > 0 ? 2 : 1;
  Progress::get().start(twins * static_cast<std::int64_t>(cases.size()), options.repetitions,
                        !options.user_min_time && twins == 1);
  const auto console = launch().rank != 0 ? silent_reporter()
                                          : make_console_reporter(options.user_console_flags || options.list_tests);
  install_interrupt_handlers();
  output.remove_on_second_signal();
  // Repetition rows widened by their benchmark's scatter between repetitions (bench/repetitions.hpp),
  // on the console table and in a JSON --benchmark_out; Google Benchmark's own reporters otherwise.
  const double target = options.rule.target;
  const OnWiden widen = [&](const std::string& name, double between) { session.widen(name, between); };
  const auto display = console ? widening_reporter(console.get(), target, widen) : nullptr;
  benchmark::JSONReporter json;
  const auto widened_json = !output.target().empty() && output.format() == "json"
                                ? widening_reporter(&json, target, display ? OnWiden{} : widen)
                                : nullptr;
  const auto file = widened_json ? output.saving_rows(widened_json.get()) : nullptr;
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks(display.get(), file.get());
  Progress::get().finish();
  benchmark::Shutdown();
  release_gpu();
  // A listing, or no benchmark, writes no rows: the file stays as it was (the destructor discards).
  if (ran == 0) {
    std::fprintf(stderr, "reduce_bench: no benchmark ran for --benchmark_filter='%s'\n", filter.c_str());
    return kExitNoMatch;
  }
  if (options.list_tests) return kExitOk;
  // Interrupted before any benchmark recorded an outcome: no summary, only the closing line.
  const int status = interrupted() && session.outcomes().empty() ? kExitOk : summarize(session);
  // After the summary, so that a file that could not be written is said last, not above it.
  const bool written = output.commit() && console_written();
  const int closing = finish_interrupted(status);
  return closing == kExitOk && !written ? kExitFailed : closing;
}

}  // namespace
}  // namespace rb::bench

int main(int argc, char** argv) {
  try {
    return rb::bench::run(argc, argv);
  } catch (const rb::bench::InputError& e) {
    std::fprintf(stderr, "reduce_bench: %s\n", e.what());
    return rb::bench::kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "reduce_bench: fatal: %s\n", e.what());
    return rb::bench::kExitFailed;
  }
}
