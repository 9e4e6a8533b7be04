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

#include "bench/launch/agreement.hpp"
#include "bench/detail/ceiling.hpp"
#include "bench/detail/console.hpp"
#include "bench/detail/element.hpp"
#include "bench/gpu/context.hpp"
#include "bench/detail/interrupt.hpp"
#include "bench/detail/measure.hpp"
#include "bench/launch/launch.hpp"
#include "bench/launch/processes.hpp"
#include "bench/detail/options.hpp"
#include "bench/detail/output_file.hpp"
#include "bench/detail/progress.hpp"
#include "bench/api/registration.hpp"
#include "bench/detail/registry.hpp"
#include "bench/detail/repetitions.hpp"
#include "bench/detail/run_context.hpp"
#include "bench/detail/session.hpp"
#include "bench/api/summation.hpp"
#include "bench/detail/summary.hpp"

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

// One line a backend under a header: its name, its determinism promise (bench/api/determinism.hpp),
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
  set_context("input", session.input().description());
  set_context("dtypes", dtype_list(session.options().dtypes) +
                            ": each type sums the input stored in it (f16/bf16 rounded to nearest even, f64 widened, "
                            "i32 x * 2^20 rounded); rows of types other than f32 end in @<type>");
  const bool timed_exact = session.options().time_on == TimedData::exact;
  set_context("timed_data",
              timed_exact ? "exact data set 0 (nonzero integers in [-8, 8], seed " +
                                std::to_string(session.input().exact_seed(0)) +
                                "; sparse integers for rows adding in 16 bits): every timed call's sum compared "
                                "bit for bit with its integer sum (--time_on=exact)"
                          : "the input (" + session.input().description() +
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
                  std::to_string(session.input().exact_seed(0)) + ", " + std::to_string(session.input().exact_seed(1)) +
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

// Whether the console table reached stdout: a full disk or a closed descriptor there fails every
// write silently, as it did the --benchmark_out file's.
bool console_written() {
  errno = 0;
  if (std::cout.flush() && std::fflush(stdout) == 0) return true;
  std::fprintf(stderr, "reduce_bench: cannot write the console table to stdout%s%s\n", errno ? ": " : "",
               errno ? std::strerror(errno) : "");
  return false;
}

constexpr int kGoOn = -1;

// Our flags (taken out of argv), then --help or --version answered at once: an exit status, or kGoOn.
int parse_ours(int& argc, char** argv, Options& options) {
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
  return kGoOn;
}

// The ranks agreed, rank 0's --benchmark_out redirected to a temporary, Google Benchmark's flags
// parsed from `args` (ending in nullptr after): an exit status, or kGoOn.
int set_up_run(const Options& options, std::vector<char*>& args, OutputFile& output, std::string& min_time) {
  drop_output_flags(init_launch(options.rendezvous), args);  // under a launcher, rank 0 alone writes --benchmark_out
  // Under a launcher every rank's arguments alike, or every rank stops here, before any GPU call.
  const Build build{RB_VERSION, std::string(RB_BUILD_TYPE) + "; " + RB_BENCHMARK_SOURCE + "; " + RB_BUILD_CONFIG};
  const int agreed = agree_between_ranks(launch(), options, {args.begin() + 1, args.end()}, build);
  if (agreed != kExitOk) return agreed;
  std::string why = unwritable_output(args);
  if (why.empty() && launch().rank == 0) why = output.redirect(args);
  if (!why.empty()) {
    std::fprintf(stderr, "reduce_bench: %s (see --help)\n", why.c_str());
    return kExitUsage;
  }
  if (!options.user_min_time) args.push_back(min_time.data());
  args.push_back(nullptr);
  int argc = static_cast<int>(args.size()) - 1;
  benchmark::Initialize(&argc, args.data());
  if (argc > 1) {
    std::fprintf(stderr, "reduce_bench: unknown argument '%s' (see --help)\n", args[1]);
    return kExitUsage;
  }
  return kGoOn;
}

// The selected cases registered with Google Benchmark, or an exit status when none is.
int select_and_register(Session& session, const std::vector<BackendEntry>& entries, const std::string& gpu_why_not,
                        const std::string& filter) {
  const Options& options = session.options();
  const bool gpu_said = gpu_rows_selected(entries, options, filter, gpu_why_not);
  if (gpu_said) std::fprintf(stderr, "reduce_bench: GPU benchmarks skipped: %s\n", gpu_why_not.c_str());
  const auto cases = select_cases(entries, options, filter);
  const auto sums_along_a_dimension = [&](Dtype d) {
    return std::any_of(entries.begin(), entries.end(), [d](const BackendEntry& e) { return e.shaped && e.dtype == d; });
  };
  if (cases.empty() && !options.shapes.empty() && !options.sizes_given &&
      std::none_of(options.dtypes.begin(), options.dtypes.end(), sums_along_a_dimension)) {
    std::fprintf(stderr, "reduce_bench: --shapes: no row sums along a dimension in --dtype=%s\n",
                 dtype_list(options.dtypes).c_str());
    return kExitNoMatch;
  }
  if (cases.empty()) {
    std::fprintf(stderr, "reduce_bench: no available benchmark matches --benchmark_filter='%s' "
                         "(--list_backends shows the backends, --benchmark_list_tests the names)\n", filter.c_str());
    return kExitNoMatch;
  }
  std::set<std::int64_t> sizes;
  for (const auto& c : cases) sizes.insert(c.n);
  session.input().select_sizes({sizes.begin(), sizes.end()});
  register_cases(cases, entries, options.compare_min_time);
  if (!options.list_tests) add_context(session, entries, gpu_why_not, gpu_said);
  const std::int64_t twins = options.compare_min_time > 0 ? 2 : 1;
  Progress::get().start(twins * static_cast<std::int64_t>(cases.size()), options.repetitions,
                        !options.user_min_time && twins == 1);
  return kGoOn;
}

// Runs what is registered through the reporters; returns how many benchmarks ran.
std::size_t run_registered(Session& session, OutputFile& output) {
  const Options& options = session.options();
  const auto console = launch().rank != 0 ? silent_reporter()
                                          : make_console_reporter(options.user_console_flags || options.list_tests);
  install_interrupt_handlers();
  output.remove_on_second_signal();
  // Repetition rows widened by their benchmark's scatter between repetitions (bench/detail/repetitions.hpp),
  // on the console table and in a JSON --benchmark_out; Google Benchmark's own reporters otherwise.
  const double target = options.rule.target;
  const OnWiden widen = [&](const std::string& name, double between) { session.log().widen(name, between, target); };
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
  return ran;
}

int run(int argc, char** argv) {
  const std::vector<std::string> given(argv, argv + argc);  // --processes passes them on
  Options options;
  if (const int status = parse_ours(argc, argv, options); status != kGoOn) return status;
  if (options.processes > 1 && !options.list_backends && !options.list_tests) return run_processes(given, options);
  std::vector<char*> args(argv, argv + argc);
  OutputFile output;  // rank 0's --benchmark_out goes to a temporary, moved onto the file when whole
  std::string min_time = kOneIterationFlag;
  if (const int status = set_up_run(options, args, output, min_time); status != kGoOn) return status;

  Session session(options);  // InputError for a bad --input: caught in main
  std::string gpu_why_not;
  auto entries = registered_backends(session, gpu_why_not);
  keep_collective_rows(launch(), options.gpus_given, entries);
  if (options.list_backends) {
    list_backends(entries, gpu_why_not, options);
    return kExitOk;
  }
  const std::string filter = benchmark::GetBenchmarkFilter();
  if (const int status = select_and_register(session, entries, gpu_why_not, filter); status != kGoOn) return status;
  // A listing, or no benchmark, writes no rows: the file stays as it was (the destructor discards).
  if (run_registered(session, output) == 0) {
    std::fprintf(stderr, "reduce_bench: no benchmark ran for --benchmark_filter='%s'\n", filter.c_str());
    return kExitNoMatch;
  }
  if (options.list_tests) return kExitOk;
  // Interrupted before any benchmark recorded an outcome: no summary, only the closing line.
  const int status = interrupted() && session.log().outcomes().empty() ? kExitOk : summarize(session);
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
