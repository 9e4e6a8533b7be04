#include "bench/detail/interrupt.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string_view>

#include "bench/detail/session.hpp"

namespace rb::bench {
namespace {

// Lock-free, so reading and writing it from a signal handler is defined behaviour.
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

// Names of the benchmarks skipped because of the signal (the main thread's only).
std::set<std::string>& not_run() {
  static std::set<std::string> names;
  return names;
}

const char* signal_name(int sig) {
  return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

extern "C" void on_interrupt(int sig) {
  const int saved_errno = errno;  // write() may change it under the interrupted code
  const bool first = first_interrupt(sig);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(SIGINT, &dfl, nullptr);
  sigaction(SIGTERM, &dfl, nullptr);
  if (!first) std::raise(sig);  // a second signal taken by another thread before the default was back
  errno = saved_errno;
}

}  // namespace

bool first_interrupt(int sig) noexcept {
  int none = 0;
  if (!g_signal.compare_exchange_strong(none, sig)) return false;
  const int saved_errno = errno;
  static constexpr char kInt[] =
      "\nreduce_bench: SIGINT: ending the current benchmark, skipping the rest; again to stop at once\n";
  static constexpr char kTerm[] =
      "\nreduce_bench: SIGTERM: ending the current benchmark, skipping the rest; again to stop at once\n";
  if (sig == SIGINT) (void)!write(STDERR_FILENO, kInt, sizeof kInt - 1);
  else (void)!write(STDERR_FILENO, kTerm, sizeof kTerm - 1);
  errno = saved_errno;
  return true;
}

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);  // one handler at a time: the second signal finds the default
  sigaddset(&sa.sa_mask, SIGTERM);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  // Unblocked only now: under --processes a process starts with them blocked, so one that came
  // during start-up is handled here rather than killing the process.
  const sigset_t stops = interrupt_signals();
  pthread_sigmask(SIG_UNBLOCK, &stops, nullptr);
}

sigset_t interrupt_signals() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  return s;
}

bool interrupted() noexcept { return g_signal.load(std::memory_order_relaxed) != 0; }

int interrupt_signal() noexcept { return g_signal.load(std::memory_order_relaxed); }

void skip_interrupted(benchmark::State& state, const std::string& name) {
  not_run().insert(name);
  const std::string message = std::string("skipped: not run: interrupted by ") + signal_name(interrupt_signal());
  // Before the timed loop: Google Benchmark then runs no iteration and accepts the early return.
  state.SkipWithMessage(message);
}

std::size_t not_run_count() { return not_run().size(); }

int finish_interrupted(int status) {
  if (!interrupted()) return status;
  std::fprintf(stderr,
               "reduce_bench: interrupted by %s: %zu benchmarks not run (skipped, \"interrupted\" in their "
               "message); --benchmark_out holds what was measured; exit status %d\n",
               signal_name(interrupt_signal()), not_run().size(),
               status == kExitFailed ? kExitFailed : kExitInterrupted);
  return status == kExitFailed ? kExitFailed : kExitInterrupted;
}

std::string unwritable_output(const std::vector<char*>& args) {
  constexpr std::string_view kFlag = "--benchmark_out=";
  std::string path;
  bool given = false;
  for (const char* a : args) {
    if (a && std::string_view(a).starts_with(kFlag)) {
      path = a + kFlag.size();
      given = true;
    }
  }
  if (!given) {
    const char* env = std::getenv("BENCHMARK_OUT");
    if (env) path = env;
  }
  if (path.empty()) return {};
  const auto why = [&path](int err) {
    return "cannot write --benchmark_out file '" + path + "': " + std::strerror(err);
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    return {};  // a FIFO or a device (/dev/stdout): opening it to probe could block
  }
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);  // an existing file, left as it is
  if (fd < 0 && errno == ENOENT) {
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) ::unlink(path.c_str());  // Google Benchmark creates it when the run starts
  }
  if (fd < 0) return why(errno);
  ::close(fd);
  return {};
}

}  // namespace rb::bench
