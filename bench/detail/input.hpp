#pragma once
// Where the numbers come from: a synthetic distribution or a raw float32 file, and the host
// buffer that holds them for the CPU backends.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "bench/detail/options.hpp"

namespace rb::bench {

// Bad input data (missing/short/odd-sized file, ...). main prints what() and exits kExitUsage.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A page-aligned anonymous mapping (so 64-byte aligned) with transparent huge pages advised:
// the CPU backends stream through it, and 4 KiB pages would cost a TLB miss every 4 KiB.
class HostBuffer {
 public:
  HostBuffer() = default;
  explicit HostBuffer(std::int64_t count);  // throws std::bad_alloc when the mapping fails
  HostBuffer(HostBuffer&& other) noexcept;
  HostBuffer& operator=(HostBuffer&& other) noexcept;
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  ~HostBuffer();

  float* data() const noexcept { return data_; }
  std::int64_t size() const noexcept { return size_; }

 private:
  float* data_ = nullptr;
  std::int64_t size_ = 0;
};

// Past the last element of every input buffer (host and device): room for the exact check's
// poison, so that an over-read by a kernel reads kPoison (2^20: exact in float, and the integer
// sums stay exact with it) and changes the exact sum at every n, the largest selected one included.
inline constexpr std::int64_t kPadFloats = 64;
inline constexpr float kPoison = 1048576.0f;

struct InputFile {
  std::string path;
  std::int64_t count = 0;  // float32 values in the file
};

// Checks that path is a readable, non-empty regular file whose size is a multiple of 4 bytes.
InputFile inspect_input_file(const std::string& path);
// Reads values [begin, end) of the file into dst[0, end - begin).
void read_input_range(const InputFile& f, float* dst, std::int64_t begin, std::int64_t end);
// Reads values [0, n) of the file into dst (n <= f.count), in parallel chunks.
void read_input_file(const InputFile& f, float* dst, std::int64_t n);
// Writes the synthetic values x[begin, end) to dst[0, end - begin).
void generate(Dist dist, std::uint64_t seed, float* dst, std::int64_t begin, std::int64_t end);
// MemAvailable from /proc/meminfo, in bytes; a large number when it cannot be read.
std::int64_t available_host_bytes();

}  // namespace rb::bench
