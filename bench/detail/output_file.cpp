#include "bench/detail/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>

#include "bench/detail/forwarding_reporter.hpp"
#include "bench/detail/interrupt.hpp"

namespace rb::bench {
namespace {

// The temporary not yet in place, for the signal handler and exit(): a fixed buffer, since a
// handler may only unlink. Only the process that made it removes it (not a forked child).
char g_temp[PATH_MAX];
std::atomic<bool> g_have_temp{false};
static_assert(std::atomic<bool>::is_always_lock_free);
pid_t g_owner = 0;
struct sigaction g_found[2];  // the SIGINT and SIGTERM handlers found when armed (interrupt.cpp's)

// What a second signal saves: the first g_rows_end bytes of the temporary are whole JSON rows
// (0: none reported yet), copied into g_saved with the closing lines and renamed onto g_target.
char g_target[PATH_MAX];
char g_saved[PATH_MAX + 8];
mode_t g_mode = 0644;
std::atomic<long long> g_rows_end{0};
static_assert(std::atomic<long long>::is_always_lock_free);
constexpr char kJsonEnd[] = "\n  ]\n}\n";  // what JSONReporter::Finalize() of Google Benchmark 1.9.5 writes

void remove_temp() noexcept {
  if (g_have_temp.exchange(false) && ::getpid() == g_owner) ::unlink(g_temp);
}

bool write_all(int fd, const char* p, std::size_t n) noexcept {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

// Async-signal-safe. A new file rather than the temporary cut short: another thread may still be
// writing the temporary when the signal comes.
bool save_rows() noexcept {
  const long long end = g_rows_end.load();
  if (end <= 0 || g_saved[0] == '\0' || !g_have_temp.load() || ::getpid() != g_owner) return false;
  const int in = ::open(g_temp, O_RDONLY | O_CLOEXEC);
  if (in < 0) return false;
  const int out = ::open(g_saved, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  bool ok = out >= 0 && ::fchmod(out, g_mode) == 0;
  char buf[8192];
  for (long long at = 0; ok && at < end;) {
    const auto want = static_cast<std::size_t>(std::min<long long>(sizeof buf, end - at));
    const ssize_t n = ::pread(in, buf, want, at);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0 && write_all(out, buf, static_cast<std::size_t>(n));
    at += n;
  }
  ok = ok && write_all(out, kJsonEnd, sizeof kJsonEnd - 1);
  ::close(in);
  if (out >= 0) ok = ::close(out) == 0 && ok;
  if (ok && ::rename(g_saved, g_target) == 0) return true;
  ::unlink(g_saved);
  return false;
}

// The second signal's line, async-signal-safe: what stopped the run and what the file holds. One
// write, so that the first signal's line, said by another thread meanwhile, cannot cut into it.
void say_stopped(int sig, bool had_temp, bool saved) noexcept {
  char line[PATH_MAX + 128];
  std::size_t at = 0;
  const auto add = [&](const char* text) {
    const std::size_t n = std::min(std::strlen(text), sizeof line - at);
    std::memcpy(line + at, text, n);
    at += n;
  };
  add(interrupted() ? "\nreduce_bench: second " : "\nreduce_bench: ");
  add(sig == SIGINT ? "SIGINT: stopped" : "SIGTERM: stopped");
  if (had_temp && g_target[0] != '\0') {
    add("; ");
    add(g_target);
    add(saved ? " holds the rows finished before it" : " left as it was");
  }
  add("\n");
  write_all(STDERR_FILENO, line, at);
}

// Passes every call on to the JSON reporter; after each report, flushed, the temporary's length
// is where its whole rows end.
class SavingRows final : public ForwardingReporter {
 public:
  SavingRows(BenchmarkReporter* inner, int fd) : ForwardingReporter(inner), fd_(fd) {}
  void ReportRuns(const std::vector<Run>& runs) override {
    ForwardingReporter::ReportRuns(runs);
    struct stat st {};
    if (!runs.empty() && GetOutputStream().flush() && ::fstat(fd_, &st) == 0) g_rows_end = st.st_size;
  }

 private:
  int fd_;
};

void handle(int sig, void (*handler)(int)) {
  struct sigaction sa {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sa.sa_flags = SA_RESTART;
  sigaction(sig, &sa, nullptr);
}

// The first signal only sets interrupt.cpp's flag, leaving this handler in place: a default action
// restored meanwhile would let a second signal, taken by another thread, kill without cleaning up.
// The second, or one that would kill anyway, saves the rows reported so far, removes the
// temporary, says what the file holds and is raised again to kill.
extern "C" void on_signal(int sig) {
  const int saved_errno = errno;
  void (*const before)(int) = g_found[sig == SIGINT ? 0 : 1].sa_handler;
  if (before == SIG_IGN || (before != SIG_DFL && first_interrupt(sig))) {
    errno = saved_errno;
    return;
  }
  const bool had_temp = g_have_temp.load() && ::getpid() == g_owner;
  const bool saved = save_rows();
  remove_temp();
  say_stopped(sig, had_temp, saved);
  handle(sig, SIG_DFL);
  std::raise(sig);  // blocked until this handler returns
  errno = saved_errno;
}

// on_signal for SIGINT and SIGTERM, over the action each had (kept when installed again). With
// `where_default`, only where that is still the default (start-up, before
// install_interrupt_handlers()), which would kill and leave the temporary: other actions (the
// --processes parent's, which passes signals on) are left alone.
void install_on_signal(bool where_default) {
  const int stops[2] = {SIGINT, SIGTERM};
  for (int i = 0; i < 2; ++i) {
    struct sigaction now {};
    sigaction(stops[i], nullptr, &now);
    if (where_default && now.sa_handler != SIG_DFL) continue;
    if (now.sa_handler != on_signal) g_found[i] = now;
    handle(stops[i], on_signal);
  }
}

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

std::string error_text(const std::string& what, int err) { return what + ": " + std::strerror(err); }

}  // namespace

FileIdentity identify(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {};
  return {true, st.st_dev, st.st_ino, st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec, st.st_size};
}

std::string incomplete(int fd, const std::string& format) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return error_text("fstat", errno);
  // A JSON's first byte is '{'.
  const std::string_view end = format == "json" ? std::string_view(kJsonEnd) : "\n";
  if (st.st_size == 0) return "nothing was written";
  std::string tail(end.size(), '\0');
  const auto n = static_cast<off_t>(end.size());
  char head = 0;
  if (st.st_size < n || ::pread(fd, tail.data(), end.size(), st.st_size - n) != n || tail != end ||
      ::pread(fd, &head, 1, 0) != 1 || (format == "json" && head != '{')) {
    return format == "json" ? "the JSON is cut off (no closing \"]\" and \"}\" lines): a write failed"
                            : "the last line is cut off: a write failed";
  }
  return {};
}

std::string OutputFile::redirect(std::vector<char*>& args) {
  constexpr std::string_view kOut = "--benchmark_out=", kFormat = "--benchmark_out_format=";
  char** flag = nullptr;
  format_ = env_or("BENCHMARK_OUT_FORMAT", "json");
  for (char*& a : args) {
    const std::string_view s = a ? a : "";
    if (s.starts_with(kOut)) flag = &a;
    else if (s.starts_with(kFormat)) format_ = s.substr(kFormat.size());
  }
  target_ = flag ? *flag + kOut.size() : env_or("BENCHMARK_OUT", "");
  if (target_.empty()) return {};
  const auto why = [this](const std::string& what, int err) {
    return "cannot write --benchmark_out file '" + target_ + "': " + error_text(what, err);
  };
  struct stat st {};
  const bool exists = ::lstat(target_.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return why("open", EISDIR);
  copy_ = exists && !S_ISREG(st.st_mode);
  before_ = identify(target_);
  const std::size_t slash = target_.rfind('/');
  std::string dir = slash == std::string::npos ? "." : target_.substr(0, slash);
  if (copy_) dir = env_or("TMPDIR", "/tmp");  // a device's directory takes no files
  temp_ = dir + "/." + target_.substr(slash + 1) + ".XXXXXX";  // npos + 1 == 0
  if (temp_.size() >= sizeof g_temp) return why("a temporary", ENAMETOOLONG);
  // SIGINT and SIGTERM held from the temporary's creation until on_signal is in place: a signal
  // during start-up then kills without leaving it behind.
  const sigset_t stops = interrupt_signals();
  sigset_t held;
  pthread_sigmask(SIG_BLOCK, &stops, &held);
  fd_ = ::mkostemp(temp_.data(), O_CLOEXEC);
  if (fd_ < 0) {
    const int err = errno;
    pthread_sigmask(SIG_SETMASK, &held, nullptr);
    return why("cannot create a temporary in " + (dir.empty() ? "/" : dir), err);
  }
  std::memcpy(g_temp, temp_.c_str(), temp_.size() + 1);
  if (target_.size() < sizeof g_target) std::memcpy(g_target, target_.c_str(), target_.size() + 1);
  if (!copy_ && format_ == "json" && target_.size() < sizeof g_target) {
    std::memcpy(g_saved, temp_.c_str(), temp_.size());
    std::memcpy(g_saved + temp_.size(), ".saved", sizeof ".saved");
  }
  g_owner = ::getpid();
  g_have_temp = true;
  owns_ = true;
  install_on_signal(true);
  pthread_sigmask(SIG_SETMASK, &held, nullptr);
  [[maybe_unused]] static const int at_exit = std::atexit([] { remove_temp(); });  // exit() in Google Benchmark
  // mkstemp's 0600 would outlive the rename: the mode FILE has, or the one a new file gets.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  g_mode = exists && !copy_ ? st.st_mode & 07777 : 0666 & ~mask;
  ::fchmod(fd_, g_mode);
  flag_ = std::string(kOut) + temp_;
  if (flag) *flag = flag_.data();
  else args.push_back(flag_.data());
  return {};
}

void OutputFile::remove_on_second_signal() { install_on_signal(false); }

std::unique_ptr<benchmark::BenchmarkReporter> OutputFile::saving_rows(benchmark::BenchmarkReporter* json) {
  return std::make_unique<SavingRows>(json, fd_);
}

bool OutputFile::commit() {
  if (fd_ < 0) return true;
  std::string why = move_into_place();
  if (why.empty()) return true;
  discard();
  std::fprintf(stderr, "reduce_bench: cannot write %s: %s\n", target_.c_str(), why.c_str());
  return false;
}

void OutputFile::discard() {
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
  if (std::exchange(owns_, false)) remove_temp();
}

std::string OutputFile::move_into_place() {
  struct stat mine {}, named {};
  if (::fstat(fd_, &mine) != 0 || ::stat(temp_.c_str(), &named) != 0 || mine.st_dev != named.st_dev ||
      mine.st_ino != named.st_ino) {
    return "its temporary " + temp_ + " was removed during the run";
  }
  if (::fsync(fd_) != 0) return error_text("fsync", errno);
  if (std::string why = incomplete(fd_, format_); !why.empty()) return why;
  if (copy_) return copy_into_target();
  if (::close(std::exchange(fd_, -1)) != 0) return error_text("close", errno);
  const bool changed = !(identify(target_) == before_);
  if (::rename(temp_.c_str(), target_.c_str()) != 0) return error_text("rename " + temp_, errno);
  owns_ = false;
  g_have_temp = false;
  const char* const kWarning = "reduce_bench: warning: %s was written by another process during this run; it now "
                               "holds this run's results\n";
  if (changed) std::fprintf(stderr, kWarning, target_.c_str());
  return {};
}

std::string OutputFile::copy_into_target() {
  const int out = ::open(target_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (out < 0) return error_text("open", errno);
  std::string why;
  std::vector<char> buf(1 << 16);
  for (off_t at = 0; why.empty();) {
    const ssize_t n = ::pread(fd_, buf.data(), buf.size(), at);
    if (n == 0) break;
    if (n < 0) {
      if (errno != EINTR) why = error_text("read " + temp_, errno);
      continue;
    }
    for (ssize_t done = 0; done < n && why.empty();) {
      const ssize_t w = ::write(out, buf.data() + done, static_cast<std::size_t>(n - done));
      if (w >= 0) done += w;
      else if (errno != EINTR) why = error_text("write", errno);
    }
    at += n;
  }
  if (::close(out) != 0 && why.empty()) why = error_text("close", errno);
  if (why.empty()) discard();
  return why;
}

}  // namespace rb::bench
