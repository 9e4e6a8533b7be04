#include "bench/gpu/call_log.hpp"

#include <cstring>

#include "bench/gpu/harness_kernels.cuh"
#include "common/dtype.hpp"

namespace rb::bench::gpu {

void CallLog::before_call() {
  if (where_ == ResultIn::elsewhere) return g_.slot().poison();
  keep_and_poison();
}

void CallLog::after_call() {
  if (where_ == ResultIn::elsewhere) sums_.push_back(backend_.result());
  else unkept_ = true;
}

void CallLog::keep_and_poison() {
  if (unkept_ && pending_ == GpuSession::kCallBatch) drain();
  void* keep = nullptr;
  if (unkept_) {
    keep = static_cast<unsigned char*>(g_.call_copies()) + pending_ * static_cast<std::int64_t>(ResultSlot::kBytes);
    ++pending_;
    unkept_ = false;
  }
  enqueue_keep_and_poison(g_.stream(), g_.slot_ptr(), keep);
}

void CallLog::drain() {
  if (pending_ == 0) return;
  std::vector<unsigned char> host(static_cast<std::size_t>(pending_) * ResultSlot::kBytes);
  RB_CUDA_CHECK(cudaMemcpyAsync(host.data(), g_.call_copies(), host.size(), cudaMemcpyDeviceToHost, g_.stream()));
  RB_CUDA_CHECK(cudaStreamSynchronize(g_.stream()));
  for (std::int64_t i = 0; i < pending_; ++i) {
    const unsigned char* p = host.data() + i * static_cast<std::int64_t>(ResultSlot::kBytes);
    if (where_ == ResultIn::slot_f64) {
      double d = 0;
      std::memcpy(&d, p, sizeof d);
      sums_.push_back(d);
    } else if (where_ == ResultIn::slot_i64) {
      long long v = 0;
      std::memcpy(&v, p, sizeof v);
      sums_.push_back(static_cast<double>(v));
    } else if (where_ == ResultIn::slot_f16 || where_ == ResultIn::slot_bf16) {
      std::uint16_t bits = 0;
      std::memcpy(&bits, p, sizeof bits);
      sums_.push_back(where_ == ResultIn::slot_f16 ? rb::widen(rb::f16{bits}) : rb::widen(rb::bf16{bits}));
    } else {
      float f = 0;
      std::memcpy(&f, p, sizeof f);
      sums_.push_back(f);
    }
  }
  pending_ = 0;
}

std::vector<double> CallLog::take() {
  if (unkept_) keep_and_poison();
  drain();
  return std::move(sums_);
}

}  // namespace rb::bench::gpu
