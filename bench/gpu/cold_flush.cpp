#include "bench/gpu/cold_flush.hpp"

#include <algorithm>
#include <cstdlib>

#include "bench/gpu/harness_kernels.cuh"

namespace rb::bench::gpu {

int flush_passes() {
  const char* p = std::getenv("RB_FLUSH_PASSES");
  return p ? std::max(1, std::atoi(p)) : kFlushPasses;
}

std::size_t page_touch_bytes() {
  const char* mib = std::getenv("RB_PAGE_TOUCH_MIB");
  return mib ? static_cast<std::size_t>(std::strtoull(mib, nullptr, 10)) << 20 : kPageTouchBytes;
}

ColdFlush::ColdFlush(int sm_count, std::int64_t l2_bytes, cudaStream_t stream, bool touch_pages)
    : sm_count_(sm_count), passes_(flush_passes()), touch_pages_(touch_pages && page_touch_bytes() > 0) {
  l2_ = DeviceBuffer(static_cast<std::size_t>(2 * std::max<std::int64_t>(l2_bytes, 1 << 20)));
  RB_CUDA_CHECK(cudaMemsetAsync(l2_.get(), 0, l2_.bytes(), stream));
  sink_ = DeviceBuffer(sizeof(unsigned));
}

void ColdFlush::plan_pages(cudaStream_t stream) {
  pages_planned_ = true;
  std::size_t free_bytes = 0, total_bytes = 0;
  RB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::int64_t room = static_cast<std::int64_t>(free_bytes) - kDeviceReserve;
  const std::size_t bytes = std::min(page_touch_bytes(), room > 0 ? static_cast<std::size_t>(room) : 0) /
                            kTouchPageBytes * kTouchPageBytes;
  if (bytes == 0) return;
  pages_ = DeviceBuffer(bytes);
  RB_CUDA_CHECK(cudaMemsetAsync(pages_.get(), 0, bytes, stream));
  RB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void ColdFlush::enqueue(cudaStream_t stream) {
  if (touch_pages_ && !pages_planned_) plan_pages(stream);
  for (int i = 0; i < passes_; ++i) enqueue_l2_flush(stream, l2_.get(), l2_.bytes(), sink_.as<unsigned>(), sm_count_);
  if (pages_.bytes() > 0) enqueue_page_touch(stream, pages_.get(), pages_.bytes(), kTouchPageBytes, sink_.as<unsigned>());
}

std::string describe_cold_flush(std::int64_t l2_bytes) {
  std::string s = "cold: read " + std::to_string(2 * l2_bytes) + " bytes (2x L2) " + std::to_string(flush_passes()) +
                  " times before each iteration";
  const std::size_t pages = page_touch_bytes() / kTouchPageBytes;
  if (pages > 0) {
    s += ", then 4 bytes of each of " + std::to_string(pages) + " 2 MiB pages (fewer where device memory is short;" +
         " multi-GPU rows: the L2 read only)";
  }
  return s;
}

}  // namespace rb::bench::gpu
