#pragma once
// What a cold sample queues ahead of its spin kernel, so that the timed call finds none of its
// data in the GPU's caches:
//   1. the L2 flush: ColdFlushPlan::passes reads of a zeroed buffer twice the size of the L2;
//   2. the page touch: one 4-byte read in each 2 MiB page of a zeroed buffer of up to
//      kPageTouchBytes (4096 pages), spread over memory the timed call never uses.
// Both only read: a written line would be written back while the timed call runs.
// Why the page touch: without it, a cold row at 2^20 (a 6 µs call) settles, run by run, into one
// of two states (cuda/onepass: cv 1.8% between runs, 0.26% with it); the spread of the reads over
// memory evens them, not the address translations alone
// (results/h200/checks/stopping_rule/README.md, "The page touch").
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "bench/api/gpu_memory.hpp"
#include "bench/detail/options.hpp"

namespace rb::bench::gpu {

// How many times each cold iteration reads the flush buffer (2x L2). One pass leaves the L2 in
// one of two states that last a whole run (CUB cold at 2^24 alternates run by run, cv 2.2%); a
// second makes every iteration's state independent (cv 0.1%): results/h200/tuning.md#round-1.
inline constexpr int kFlushPasses = 2;

inline constexpr std::size_t kTouchPageBytes = std::size_t{2} << 20;
inline constexpr std::size_t kPageTouchBytes = std::size_t{8} << 30;

// What a cold sample queues: the measured defaults, or --flush_passes and --page_touch_mib
// (diagnostics; page_touch_bytes 0: no page touch).
struct ColdFlushPlan {
  int passes = kFlushPasses;
  std::size_t page_touch_bytes = kPageTouchBytes;
};
ColdFlushPlan cold_flush_plan(const Options& options);

class ColdFlush {
 public:
  // `touch_pages`: whether enqueue() adds the page touch. Allocates and zeroes the L2 flush
  // buffer on `stream`.
  ColdFlush(int sm_count, std::int64_t l2_bytes, cudaStream_t stream, bool touch_pages, ColdFlushPlan plan = {});

  // Queues the flush on `stream`. The first call after construction or release_pages() allocates
  // and zeroes the page buffer: up to the plan's page_touch_bytes, as much as leaves kDeviceReserve free
  // (it synchronizes; callers are outside their timed region).
  void enqueue(cudaStream_t stream);
  // Frees the page buffer, for an allocation that needs the room; enqueue() takes what is left.
  void release_pages() { pages_ = DeviceBuffer(); pages_planned_ = false; }
  std::size_t l2_buffer_bytes() const noexcept { return l2_.bytes(); }
  std::size_t page_buffer_bytes() const noexcept { return pages_.bytes(); }
  int passes() const noexcept { return plan_.passes; }

 private:
  void plan_pages(cudaStream_t stream);

  int sm_count_;
  ColdFlushPlan plan_;
  bool touch_pages_;
  bool pages_planned_ = false;
  DeviceBuffer l2_, pages_, sink_;
};

// The l2_flush context line of the JSON: what a cold sample queues, on a device with this L2.
std::string describe_cold_flush(std::int64_t l2_bytes, ColdFlushPlan plan = {});

}  // namespace rb::bench::gpu
