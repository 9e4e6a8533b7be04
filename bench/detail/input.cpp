#include "bench/detail/input.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <new>
#include <string>
#include <utility>

#include "common/parallel.hpp"
#include "common/synth.hpp"

namespace rb::bench {
namespace {

constexpr std::int64_t kReadChunk = std::int64_t{1} << 24;  // values per pread

std::string errno_text() { return std::strerror(errno); }

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

HostBuffer::HostBuffer(std::int64_t count) : size_(count) {
  if (count <= 0) return;
  const auto bytes = static_cast<std::size_t>(count) * sizeof(float);
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  ::madvise(p, bytes, MADV_HUGEPAGE);  // advisory: ignored where THP is off
  data_ = static_cast<float*>(p);
}

HostBuffer::HostBuffer(HostBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

HostBuffer& HostBuffer::operator=(HostBuffer&& other) noexcept {
  std::swap(data_, other.data_);  // other's destructor releases what we held
  std::swap(size_, other.size_);
  return *this;
}

HostBuffer::~HostBuffer() {
  if (data_) ::munmap(data_, static_cast<std::size_t>(size_) * sizeof(float));
}

InputFile inspect_input_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    throw InputError("--input " + path + ": cannot open: " + errno_text());
  }
  if (S_ISDIR(st.st_mode)) throw InputError("--input " + path + ": is a directory, not a file");
  if (!S_ISREG(st.st_mode)) throw InputError("--input " + path + ": not a regular file");
  const Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw InputError("--input " + path + ": cannot read: " + errno_text());
  if (st.st_size == 0) throw InputError("--input " + path + ": the file is empty");
  if (st.st_size % 4 != 0) {
    throw InputError("--input " + path + ": " + std::to_string(st.st_size) +
                     " bytes is not a whole number of float32 values (not a multiple of 4)");
  }
  return {path, static_cast<std::int64_t>(st.st_size / 4)};
}

void read_input_range(const InputFile& f, float* dst, std::int64_t begin, std::int64_t end) {
  if (begin < 0 || end > f.count || begin > end) {
    throw InputError("--input " + f.path + ": holds " + std::to_string(f.count) +
                     " values, fewer than the " + std::to_string(end) + " requested");
  }
  const Fd fd(::open(f.path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw InputError("--input " + f.path + ": cannot read: " + errno_text());
  auto* out = reinterpret_cast<char*>(dst);
  std::size_t left = static_cast<std::size_t>(end - begin) * sizeof(float);
  auto offset = static_cast<off_t>(begin) * 4;
  while (left > 0) {
    const ssize_t got = ::pread(fd.get(), out, left, offset);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      throw InputError("--input " + f.path + ": read failed at byte " + std::to_string(offset) +
                       (got < 0 ? ": " + errno_text() : ": the file shrank while being read"));
    }
    out += got;
    offset += got;
    left -= static_cast<std::size_t>(got);
  }
}

void read_input_file(const InputFile& f, float* dst, std::int64_t n) {
  const std::int64_t chunks = (n + kReadChunk - 1) / kReadChunk;
  parallel_for(chunks, [&](std::int64_t c) {
    const std::int64_t begin = c * kReadChunk;
    read_input_range(f, dst + begin, begin, std::min(n, begin + kReadChunk));
  });
}

void generate(Dist dist, std::uint64_t seed, float* dst, std::int64_t begin, std::int64_t end) {
  for (std::int64_t i = begin; i < end; ++i) dst[i - begin] = synth::value(dist, seed, i);
}

std::int64_t available_host_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::int64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return std::numeric_limits<std::int64_t>::max() / 2;
}

}  // namespace rb::bench
