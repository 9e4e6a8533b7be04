#include "tools/reduce_gen/writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <future>
#include <memory>

#include "common/parallel.hpp"

namespace rb::gen {
namespace {

// Values per parallel task inside a chunk: 64 tasks per chunk keep 16 cores busy.
constexpr std::int64_t kTaskValues = std::int64_t{1} << 16;

std::string errno_text() { return std::strerror(errno); }

std::string gb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
  return buf;
}

void to_little_endian(float* v, std::int64_t count) {
  if constexpr (std::endian::native == std::endian::big) {
    for (std::int64_t i = 0; i < count; ++i) {
      auto u = std::bit_cast<std::uint32_t>(v[i]);
      u = (u >> 24) | ((u >> 8) & 0xFF00u) | ((u << 8) & 0xFF0000u) | (u << 24);
      v[i] = std::bit_cast<float>(u);
    }
  } else {
    (void)v;
    (void)count;
  }
}

void write_all(int fd, const std::string& path, const float* data, std::int64_t count) {
  const auto* p = reinterpret_cast<const char*>(data);
  auto left = static_cast<std::size_t>(count) * sizeof(float);
  while (left > 0) {
    const ssize_t put = ::write(fd, p, left);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) throw WriteError(path + ": write failed: " + (put < 0 ? errno_text() : "no progress"));
    p += put;
    left -= static_cast<std::size_t>(put);
  }
}

// Owns the descriptor; removes a regular output file unless commit() was called, so a failed
// or interrupted-by-exception run leaves no truncated file that --input would accept.
class Output {
 public:
  explicit Output(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) throw WriteError(path + ": cannot open for writing: " + errno_text());
    struct stat st {};
    regular_ = ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
  }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;
  ~Output() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_ && regular_) ::unlink(path_.c_str());
  }

  int fd() const { return fd_; }
  bool regular() const { return regular_; }

  void commit() {
    const int fd = fd_;
    fd_ = -1;
    // close() reports delayed write errors on some filesystems (NFS, quota).
    if (::close(fd) != 0) throw WriteError(path_ + ": close failed: " + errno_text());
    committed_ = true;
  }

 private:
  std::string path_;
  int fd_ = -1;
  bool regular_ = false;
  bool committed_ = false;
};

// Fails before writing anything when the filesystem cannot hold the file (a 4 GB file that
// dies at 3.9 GB wastes minutes). The file was just truncated, so its old size is free again.
void check_space(const Output& out, const std::string& path, std::int64_t bytes) {
  if (!out.regular()) return;  // a pipe or a device: nothing to check
  struct statvfs fs {};
  if (::fstatvfs(out.fd(), &fs) != 0) return;  // unknown: let write() report it
  const auto avail = static_cast<long double>(fs.f_bavail) * static_cast<long double>(fs.f_frsize);
  if (static_cast<long double>(bytes) > avail) {
    throw WriteError(path + ": needs " + gb(static_cast<double>(bytes)) + " but its filesystem has " +
                     gb(static_cast<double>(avail)) + " free");
  }
}

void fill_chunk(GenDist dist, std::uint64_t seed, float* dst, std::int64_t begin, std::int64_t end) {
  const std::int64_t tasks = (end - begin + kTaskValues - 1) / kTaskValues;
  rb::parallel_for(tasks, [&](std::int64_t t) {
    const std::int64_t b = begin + t * kTaskValues;
    fill(dist, seed, dst + (b - begin), b, std::min(end, b + kTaskValues));
  });
  to_little_endian(dst, end - begin);
}

}  // namespace

void write_values(const std::string& path, GenDist dist, std::uint64_t seed, std::int64_t n,
                  const std::function<void(const Progress&)>& progress) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  Output out(path);
  check_space(out, path, n * static_cast<std::int64_t>(sizeof(float)));

  const std::int64_t chunk = std::min(n, kChunkValues);
  std::unique_ptr<float[]> buffers[2] = {std::make_unique_for_overwrite<float[]>(chunk),
                                         std::make_unique_for_overwrite<float[]>(chunk)};
  // The write of chunk k runs while chunk k+1 is generated into the other buffer; its future is
  // waited on before buffer k%2 is refilled (two iterations later) and before the file closes.
  std::future<void> pending;
  std::int64_t pending_end = 0;
  auto finish_pending = [&] {
    if (!pending.valid()) return;
    pending.get();
    if (progress) progress({pending_end, n, std::chrono::duration<double>(clock::now() - start).count()});
  };
  for (std::int64_t begin = 0, k = 0; begin < n; begin += chunk, ++k) {
    const std::int64_t end = std::min(n, begin + chunk);
    float* buf = buffers[k % 2].get();
    fill_chunk(dist, seed, buf, begin, end);
    finish_pending();
    pending = std::async(std::launch::async, [&out, &path, buf, count = end - begin] {
      write_all(out.fd(), path, buf, count);
    });
    pending_end = end;
  }
  finish_pending();
  out.commit();
}

}  // namespace rb::gen
