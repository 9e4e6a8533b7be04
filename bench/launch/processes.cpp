#include "bench/launch/processes.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "bench/detail/interrupt.hpp"
#include "bench/detail/json.hpp"
#include "bench/detail/output_file.hpp"
#include "bench/detail/pooled.hpp"
#include "bench/detail/session.hpp"
#include "bench/launch/launch.hpp"

namespace rb::bench {
namespace {

volatile sig_atomic_t g_child = 0;    // the running process, which a signal is passed on to
volatile sig_atomic_t g_signals = 0;  // signals that came while it ran
constexpr int kNotStarted = -1;

extern "C" void pass_on(int sig) {
  g_signals = g_signals + 1;
  if (g_child > 0) kill(static_cast<pid_t>(g_child), sig);
}

// `argv` as the char* list that OutputFile and the output checks take (not owned).
std::vector<char*> pointers(const std::vector<std::string>& argv) {
  std::vector<char*> out;
  for (const std::string& a : argv) out.push_back(const_cast<char*>(a.c_str()));
  return out;
}

bool is_output_flag(const std::string& a) {
  return a.starts_with("--benchmark_out=") || a.starts_with("--benchmark_out_format=");
}

// One process's arguments: ours less --processes and the output flags, then its own JSON file.
std::vector<std::string> child_arguments(const std::vector<std::string>& argv, const std::string& json) {
  std::vector<std::string> out;
  for (const std::string& a : argv) {
    if (!a.starts_with("--processes=") && !is_output_flag(a)) out.push_back(a);
  }
  out.push_back("--benchmark_out=" + json);
  out.push_back("--benchmark_out_format=json");
  return out;
}

// Runs one process to its end: its exit status, or 128 + the signal that ended it; kNotStarted
// when a signal came before it could start.
int run_one(const std::vector<std::string>& args) {
  std::vector<char*> cargs = pointers(args);
  cargs.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  // The child starts with SIGINT and SIGTERM blocked and unblocks them once its handlers are in
  // (install_interrupt_handlers): a signal passed on while it starts up waits instead of killing it.
  const sigset_t stops = interrupt_signals();
  sigset_t before;
  sigprocmask(SIG_BLOCK, &stops, &before);
  if (g_signals > 0) {  // it came before there was a process to pass it on to: none is started
    sigprocmask(SIG_SETMASK, &before, nullptr);
    return kNotStarted;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    sigprocmask(SIG_SETMASK, &before, nullptr);
    std::fprintf(stderr, "reduce_bench: --processes: cannot start a process: %s\n", std::strerror(errno));
    return kExitFailed;
  }
  if (pid == 0) {
    // Its own process group: a Ctrl-C reaches it once, passed on by this process (pass_on), not
    // twice (once from the terminal), which would kill it at once. It ends with this process.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    ::unsetenv("BENCHMARK_OUT");  // its own --benchmark_out is given
    execv("/proc/self/exe", cargs.data());
    execvp(cargs[0], cargs.data());
    std::fprintf(stderr, "reduce_bench: --processes: cannot run %s: %s\n", cargs[0], std::strerror(errno));
    _exit(127);
  }
  g_child = pid;
  sigprocmask(SIG_SETMASK, &before, nullptr);  // a signal that came meanwhile is passed on now
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  g_child = 0;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The --benchmark_out target's format, when --processes can write it: JSON only.
std::string output_format(const std::vector<std::string>& argv) {
  std::string format = "json";
  for (const std::string& a : argv) {
    if (a.starts_with("--benchmark_out_format=")) format = a.substr(23);
  }
  return format;
}

std::string percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "+-%.3g%%", 100 * v);
  return buf;
}

void print_pool(const std::vector<PooledRow>& rows, int processes, double target) {
  int met = 0, sampled = 0;
  for (const PooledRow& r : rows) {
    if (r.runs == 0 || r.median_us <= 0) continue;
    ++sampled;
    if (r.target_met == r.runs) ++met;
  }
  std::printf(
      "\nacross %d processes: %zu rows; %d of %d sampled rows meet %s in every run, their intervals "
      "widened by the scatter between all runs (docs/methodology.md)\n",
      processes, rows.size(), met, sampled, percent(target).c_str());
  std::vector<const PooledRow*> widest;
  for (const PooledRow& r : rows) {
    if (r.between > target) widest.push_back(&r);
  }
  std::sort(widest.begin(), widest.end(),
            [](const PooledRow* a, const PooledRow* b) { return a->between > b->between; });
  if (widest.empty()) return;
  std::printf("%zu rows scatter beyond %s between runs; the widest:\n", widest.size(), percent(target).c_str());
  for (std::size_t i = 0; i < std::min<std::size_t>(widest.size(), 8); ++i) {
    std::printf("  %-40s between %-9s median %10.4g us, %d runs in %d processes\n", widest[i]->name.c_str(),
                percent(widest[i]->between).c_str(), widest[i]->median_us, widest[i]->runs, widest[i]->processes);
  }
}

// The processes' JSON documents that can be read; says on stderr which cannot.
std::vector<Json> read_documents(const std::vector<std::string>& paths, bool& all) {
  std::vector<Json> docs;
  all = true;
  for (std::size_t p = 0; p < paths.size(); ++p) {
    std::ifstream in(paths[p]);
    std::stringstream text;
    text << in.rdbuf();
    try {
      if (!in) throw std::invalid_argument("no file");
      docs.push_back(parse_json(text.str()));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "reduce_bench: --processes: process %zu's results unreadable (%s): left out\n", p + 1,
                   e.what());
      all = false;
    }
  }
  return docs;
}

// The processes' files and their folder removed (std::filesystem::remove_all is not used: a
// library linked beside it, libtorch, exports one that crashes).
void remove_folder(const std::string& dir, const std::vector<std::string>& paths) {
  for (const std::string& p : paths) std::remove(p.c_str());
  ::rmdir(dir.c_str());
}

// Writes the pooled document through an OutputFile (whole or absent). False when it could not.
bool write_pooled(const std::vector<std::string>& argv, const Json& pooled) {
  std::vector<char*> args = pointers(argv);
  OutputFile output;
  if (const std::string why = output.redirect(args); !why.empty()) {
    std::fprintf(stderr, "reduce_bench: %s\n", why.c_str());
    return false;
  }
  if (output.target().empty()) return true;
  std::ofstream out(output.temporary(), std::ios::trunc);
  out << dump_json(pooled);
  out.close();
  return out.good() && output.commit();
}

}  // namespace

int run_processes(const std::vector<std::string>& argv, const Options& options) {
  if (launch().size > 1 || !options.rendezvous.empty() || options.gpus_given) {
    std::fprintf(stderr,
                 "reduce_bench: --processes runs single-process sweeps; rows over several GPUs "
                 "(--gpus, a launcher, --rendezvous) take no --processes (see --help)\n");
    return kExitUsage;
  }
  if (output_format(argv) != "json") {
    std::fprintf(stderr, "reduce_bench: --processes pools JSON: --benchmark_out_format must be json (see --help)\n");
    return kExitUsage;
  }
  if (const std::string why = unwritable_output(pointers(argv)); !why.empty()) {
    std::fprintf(stderr, "reduce_bench: %s (see --help)\n", why.c_str());
    return kExitUsage;
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = (tmp && *tmp ? std::string(tmp) : std::string("/tmp")) + "/reduce_bench.processes.XXXXXX";
  if (!mkdtemp(dir.data())) {
    std::fprintf(stderr, "reduce_bench: --processes: cannot make a temporary folder: %s\n", std::strerror(errno));
    return kExitFailed;
  }
  struct sigaction act {};
  act.sa_handler = pass_on;
  sigemptyset(&act.sa_mask);
  sigaction(SIGINT, &act, nullptr);
  sigaction(SIGTERM, &act, nullptr);

  int status = kExitOk;
  std::vector<std::string> paths;
  for (int p = 0; p < options.processes && g_signals == 0; ++p) {
    std::printf("%sreduce_bench: process %d of %d\n", p ? "\n" : "", p + 1, options.processes);
    paths.push_back(dir + "/process" + std::to_string(p + 1) + ".json");
    const int s = run_one(child_arguments(argv, paths.back()));
    if (s == kNotStarted) {
      paths.pop_back();
      break;
    }
    if (s == kExitUsage || s == kExitNoMatch) {
      remove_folder(dir, paths);
      return s;
    }
    if (s != kExitOk && status == kExitOk) status = s;
    if (s == kExitInterrupted || s > 128) break;
  }
  bool all = true;
  const std::vector<Json> docs = read_documents(paths, all);
  remove_folder(dir, paths);
  if (status == kExitOk && g_signals > 0) status = kExitInterrupted;
  if (docs.empty()) return status == kExitOk ? kExitFailed : status;
  std::vector<PooledRow> rows;
  const Json pooled = pool_processes(docs, options.rule.target, &rows);
  print_pool(rows, static_cast<int>(docs.size()), options.rule.target);
  const bool written = write_pooled(argv, pooled);
  if (status == kExitOk && (!all || !written)) status = kExitFailed;
  return status;
}

}  // namespace rb::bench
