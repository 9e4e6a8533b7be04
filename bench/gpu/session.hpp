#pragma once
// Everything the GPU measurement loop needs, created once per process on first use and kept
// across Google Benchmark's runs: the stream, the event pair, the input buffer (sized for the
// largest selected n, smaller n use its prefix), the cold flush's buffers, scratch, the result slot.
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <string>

#include "bench/api/gpu_backend.hpp"
#include "bench/gpu/cold_flush.hpp"
#include "bench/gpu/device.hpp"
#include "bench/api/gpu_memory.hpp"
#include "bench/detail/session.hpp"

namespace rb::bench::gpu {

// How long the queued spin kernel runs before each start event: longer than the host takes to
// record an event and enqueue a backend's launches. A hot sample's spin starts on an idle GPU and
// must cover all of that alone: at 20 µs, launch time leaks 1-4% into hot rows at 2^20
// (results/h200/checks/stopping_rule/README.md, "Spin and flush passes"). A cold sample queues
// the flush (tens of µs) in front of its spin, which covers the host too: kSpinAfterFlushNs. Each
// spin adds a dither that walks through [0, kSpinDitherNs) so start events sample every phase of
// the event clock's tick. --spin_us overrides both (a diagnostic: does a longer head start change
// a backend's time? then launch latency leaks into it).
inline constexpr std::uint64_t kSpinNs = 60'000;
inline constexpr std::uint64_t kSpinAfterFlushNs = 20'000;
inline constexpr std::uint64_t kSpinDitherNs = 2'000;
// kSpinNs (kSpinAfterFlushNs behind a flush), or --spin_us.
std::uint64_t spin_ns(const Options& options, bool after_flush = false);

class GpuSession {
 public:
  GpuSession(Session& session, DeviceInfo info);
  ~GpuSession();
  GpuSession(const GpuSession&) = delete;
  GpuSession& operator=(const GpuSession&) = delete;

  const DeviceInfo& info() const noexcept { return info_; }
  cudaStream_t stream() const noexcept { return stream_; }
  DeviceScratch& scratch() noexcept { return scratch_; }
  ResultSlot slot() const noexcept { return ResultSlot(slot_.get(), stream_); }

  // x[0, n) on the device, options().offset floats past a 256-byte boundary, kPadFloats zeros
  // after the largest. The first call allocates and fills the buffer for the largest selected n
  // that fits in free device memory; throws Skip for an n above that, saying how much it needs.
  const float* input(std::int64_t n);
  // The same values stored as T (bench/detail/element.hpp), converted on the device from input()'s
  // buffer into a buffer of their own, the same offset in elements.
  template <class T>
  const T* input_as(std::int64_t n) {
    return static_cast<const T*>(typed_input(dtype_of<T>, n));
  }
  // The exact check in place (bench/detail/verify.hpp): set `set`'s integers over x[0, n) and kPoison
  // over the kPadFloats after it, and the same stored as `d` over input_as's; the next input() or
  // restore() puts the input back.
  void fill_exact(std::int64_t n, int set, Dtype d = Dtype::f32, ExactData data = ExactData::dense);
  void restore();

  // The per-call check's copies of the result slot: kCallBatch slots of ResultSlot::kBytes.
  static constexpr std::int64_t kCallBatch = 1024;
  void* call_copies() const noexcept { return calls_.get(); }
  void* slot_ptr() const noexcept { return slot_.get(); }

  void enqueue_flush();
  void enqueue_spin(bool after_flush);
  void record_start();
  void record_stop();
  double elapsed_seconds();  // waits for the stop event

 private:
  void plan_input();
  const void* typed_input(Dtype d, std::int64_t n);
  // The input stored as each type other than f32: offset + capacity_ + kPadFloats elements.
  struct TypedInput {
    DeviceBuffer buffer;
    std::int64_t dirty = 0;  // elements [0, dirty) hold the exact check's data
  };
  unsigned char* typed_start(Dtype d) {
    return typed_.at(d).buffer.as<unsigned char>() + session_.options().offset * dtype_bytes(d);
  }
  std::map<Dtype, TypedInput> typed_;

  Session& session_;
  DeviceInfo info_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  ColdFlush cold_;
  DeviceBuffer slot_, calls_, input_;
  DeviceScratch scratch_;
  std::int64_t capacity_ = -1;  // -1: not planned yet
  std::int64_t dirty_ = 0;      // x[0, dirty_) holds the exact check's data, not the input
  ExactFill filled_;            // which, while dirty_: filling it again is a no-op
  std::uint64_t spins_ = 0;
  std::uint64_t spin_ns_, spin_after_flush_ns_;
  std::string limit_;           // why sizes above capacity_ cannot run
};

}  // namespace rb::bench::gpu
