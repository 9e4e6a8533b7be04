#include "bench/gpu/cold_flush.hpp"

#include <algorithm>

#include "bench/gpu/harness_kernels.cuh"

namespace rb::bench::gpu {

ColdFlushPlan cold_flush_plan(const Options& o) {
  ColdFlushPlan p;
  if (o.flush_passes >= 0) p.passes = o.flush_passes;
  if (o.page_touch_mib >= 0) p.page_touch_bytes = static_cast<std::size_t>(o.page_touch_mib) << 20;
  return p;
}

ColdFlush::ColdFlush(int sm_count, std::int64_t l2_bytes, cudaStream_t stream, bool touch_pages, ColdFlushPlan plan)
    : sm_count_(sm_count), plan_(plan), touch_pages_(touch_pages && plan.page_touch_bytes > 0) {
  l2_ = DeviceBuffer(static_cast<std::size_t>(2 * std::max<std::int64_t>(l2_bytes, 1 << 20)));
  RB_CUDA_CHECK(cudaMemsetAsync(l2_.get(), 0, l2_.bytes(), stream));
  sink_ = DeviceBuffer(sizeof(unsigned));
}

void ColdFlush::plan_pages(cudaStream_t stream) {
  pages_planned_ = true;
  std::size_t free_bytes = 0, total_bytes = 0;
  RB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::int64_t room = static_cast<std::int64_t>(free_bytes) - kDeviceReserve;
  const std::size_t bytes = std::min(plan_.page_touch_bytes, room > 0 ? static_cast<std::size_t>(room) : 0) /
                            kTouchPageBytes * kTouchPageBytes;
  if (bytes == 0) return;
  pages_ = DeviceBuffer(bytes);
  RB_CUDA_CHECK(cudaMemsetAsync(pages_.get(), 0, bytes, stream));
  RB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void ColdFlush::enqueue(cudaStream_t stream) {
  if (touch_pages_ && !pages_planned_) plan_pages(stream);
  for (int i = 0; i < plan_.passes; ++i)
    enqueue_l2_flush(stream, l2_.get(), l2_.bytes(), sink_.as<unsigned>(), sm_count_);
  if (pages_.bytes() > 0)
    enqueue_page_touch(stream, pages_.get(), pages_.bytes(), kTouchPageBytes, sink_.as<unsigned>());
}

std::string describe_cold_flush(std::int64_t l2_bytes, ColdFlushPlan plan) {
  std::string s = "cold: read " + std::to_string(2 * l2_bytes) + " bytes (2x L2) " + std::to_string(plan.passes) +
                  " times before each iteration";
  const std::size_t pages = plan.page_touch_bytes / kTouchPageBytes;
  if (pages > 0) {
    s += ", then 4 bytes of each of " + std::to_string(pages) + " 2 MiB pages (fewer where device memory is short;" +
         " multi-GPU rows: the L2 read only)";
  }
  return s;
}

}  // namespace rb::bench::gpu
