#pragma once
// Every timed call's sum, for the per-call check (bench/detail/verify.hpp), collected outside the timed
// region. A backend that leaves its sum in the result slot: the launch that poisons the slot
// before each call first copies the previous call's sum into the next of GpuSession::kCallBatch
// keeps (read back when they are full and at the end), so the check adds no operation per call.
// Any other backend: its result() after each call's stop event.
#include <cstdint>
#include <vector>

#include "bench/api/gpu_backend.hpp"
#include "bench/gpu/session.hpp"

namespace rb::bench::gpu {

class CallLog {
 public:
  CallLog(GpuSession& g, GpuBackend& backend) : g_(g), backend_(backend), where_(backend.result_in()) {}
  // Before the call, in place of poisoning the slot: poisons it, keeping the previous call's sum.
  void before_call();
  // After the call's stop event.
  void after_call();
  // Every call's sum so far, in order; keeps the last call's and waits for the copies.
  std::vector<double> take();

 private:
  void keep_and_poison();
  void drain();

  GpuSession& g_;
  GpuBackend& backend_;
  ResultIn where_;
  bool unkept_ = false;       // the slot holds a timed call's sum not yet kept
  std::int64_t pending_ = 0;  // keeps on the device not yet read back
  std::vector<double> sums_;
};

}  // namespace rb::bench::gpu
