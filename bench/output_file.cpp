#include "bench/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>

#include "bench/interrupt.hpp"

namespace rb::bench {
namespace {

// The temporary not yet in place, for the signal handler and exit(): a fixed buffer, since a
// handler may only unlink. Only the process that made it removes it (not a forked child).
char g_temp[PATH_MAX];
std::atomic<bool> g_have_temp{false};
static_assert(std::atomic<bool>::is_always_lock_free);
pid_t g_owner = 0;
struct sigaction g_chained[2];  // the SIGINT and SIGTERM handlers found when armed

void remove_temp() noexcept {
  if (g_have_temp.exchange(false) && ::getpid() == g_owner) ::unlink(g_temp);
}

void handle(int sig, void (*handler)(int)) {
  struct sigaction sa {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sa.sa_flags = SA_RESTART;
  sigaction(sig, &sa, nullptr);
}

// The first signal goes to interrupt.cpp's handler (which restores the default actions); the
// second, or one that would kill anyway, removes the temporary and is raised again to kill.
extern "C" void on_signal(int sig) {
  const int saved_errno = errno;
  void (*const chained)(int) = g_chained[sig == SIGINT ? 0 : 1].sa_handler;
  if (!interrupted() && chained != SIG_DFL) {
    if (chained != SIG_IGN) chained(sig);
    handle(SIGINT, on_signal);
    handle(SIGTERM, on_signal);
  } else {
    remove_temp();
    handle(sig, SIG_DFL);
    std::raise(sig);  // blocked until this handler returns
  }
  errno = saved_errno;
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
  // What JSONReporter::Finalize() of Google Benchmark 1.9.5 writes last; its first byte is '{'.
  const std::string_view end = format == "json" ? "\n  ]\n}\n" : "\n";
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
  fd_ = ::mkostemp(temp_.data(), O_CLOEXEC);
  if (fd_ < 0) return why("cannot create a temporary in " + (dir.empty() ? "/" : dir), errno);
  std::memcpy(g_temp, temp_.c_str(), temp_.size() + 1);
  g_owner = ::getpid();
  g_have_temp = true;
  owns_ = true;
  [[maybe_unused]] static const int at_exit = std::atexit([] { remove_temp(); });  // exit() in Google Benchmark
  // mkstemp's 0600 would outlive the rename: the mode FILE has, or the one a new file gets.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, exists && !copy_ ? st.st_mode & 07777 : 0666 & ~mask);
  flag_ = std::string(kOut) + temp_;
  if (flag) *flag = flag_.data();
  else args.push_back(flag_.data());
  return {};
}

void OutputFile::remove_on_second_signal() {
  sigaction(SIGINT, nullptr, &g_chained[0]);
  sigaction(SIGTERM, nullptr, &g_chained[1]);
  handle(SIGINT, on_signal);
  handle(SIGTERM, on_signal);
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
