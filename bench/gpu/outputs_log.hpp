#pragma once
// A shape's outputs on the device (common/shape.hpp) and the per-call check of them, the shaped
// rows' counterpart of CallLog: before each call the outputs and kGuard floats after them are
// poisoned (NaN bits); after its stop event a compare kernel counts the outputs that differ from
// the exact data's integer sums and the guard floats written, into the next of
// GpuSession::kCallBatch records, read back when they are full and at the end. No copy or host
// work per call; the poison is written before the cold flush, so a cold call finds its outputs
// out of L2 as it finds its input.
#include <cstdint>
#include <span>
#include <vector>

#include "bench/api/gpu_memory.hpp"
#include "bench/detail/outputs_check.hpp"
#include "bench/gpu/session.hpp"

namespace rb::bench::gpu {

class OutputsLog {
 public:
  static constexpr std::int64_t kGuard = kOutputsGuard;
  OutputsLog(GpuSession& g, std::int64_t outputs);

  float* data() const noexcept { return out_.as<float>(); }
  std::int64_t outputs() const noexcept { return outputs_; }
  // Untimed calls: the outputs poisoned, read back (waits for the stream).
  void poison();
  std::vector<float> read();
  // The guard floats and the first and last outputs still hold the poison (a call captured, not run).
  bool poisoned();
  // What every later call must return; until it is called, after_call() compares nothing (a
  // timing-only row: its calls are poisoned as a checked row's are, and never compared).
  void expect(std::span<const float> want);

  // The timed loop's (CallLog's interface).
  void before_call() { poison(); }
  void after_call();
  std::vector<CallMismatch> take();

 private:
  void drain();

  GpuSession& g_;
  std::int64_t outputs_;
  DeviceBuffer out_, want_, records_;  // records_: kCallBatch wrong counts, then kCallBatch firsts
  std::int64_t pending_ = 0;
  bool checking_ = false;
  std::vector<CallMismatch> calls_;
};

}  // namespace rb::bench::gpu
