#pragma once
// Every timed call's sum, for the per-call check (bench/verify.hpp), collected outside the timed
// region: after each call's stop event, a 16-byte device copy of the result slot into the next of
// GpuSession::kCallBatch copies (read back when they are full and at the end), or, for a backend
// whose sum is not in the slot, its result().
#include <cstdint>
#include <vector>

#include "bench/gpu/backend.hpp"
#include "bench/gpu/session.hpp"

namespace rb::bench::gpu {

class CallLog {
 public:
  CallLog(GpuSession& g, GpuBackend& backend) : g_(g), backend_(backend), where_(backend.result_in()) {}
  // After the call's stop event has been recorded.
  void after_call();
  // Every call's sum so far, in order; waits for the copies.
  std::vector<double> take();

 private:
  void drain();

  GpuSession& g_;
  GpuBackend& backend_;
  ResultIn where_;
  std::int64_t pending_ = 0;  // copies on the device not yet read back
  std::vector<double> sums_;
};

}  // namespace rb::bench::gpu
