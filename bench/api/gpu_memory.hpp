#pragma once
// Device memory that outlives Google Benchmark's per-run SetUp/TearDown.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "common/cuda_check.hpp"

namespace rb::bench::gpu {

// Device memory the harness leaves free when it sizes its buffers: for the CUDA context, backends'
// scratch and libraries' own allocations.
inline constexpr std::int64_t kDeviceReserve = std::int64_t{1} << 30;

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes > 0) RB_CUDA_CHECK(cudaMalloc(&ptr_, bytes));
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (ptr_) (void)cudaFree(ptr_);  // nothing useful to do with an error at teardown
  }

  void* get() const noexcept { return ptr_; }
  template <class T>
  T* as() const noexcept { return static_cast<T*>(ptr_); }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// Temporary storage shared by all backends, grow-only. Contents are undefined when a backend
// gets it: a backend that needs zeroed state (a counter) initialises it in its constructor.
// It grows only in constructors, which run outside the timed region (cudaMalloc and cudaFree
// can synchronize the device).
class DeviceScratch {
 public:
  void* get(std::size_t bytes) {
    if (bytes > buf_.bytes()) {
      buf_ = DeviceBuffer();  // free first: the old and new buffers need not both fit
      buf_ = DeviceBuffer((bytes + 255) / 256 * 256);
    }
    return buf_.get();
  }

 private:
  DeviceBuffer buf_;
};

}  // namespace rb::bench::gpu
