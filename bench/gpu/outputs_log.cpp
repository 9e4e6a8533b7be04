#include "bench/gpu/outputs_log.hpp"

#include <algorithm>
#include <cstring>

#include "bench/gpu/harness_kernels.cuh"

namespace rb::bench::gpu {
namespace {

constexpr std::size_t kRecordBytes = 2 * sizeof(unsigned long long);

}  // namespace

OutputsLog::OutputsLog(GpuSession& g, std::int64_t outputs)
    : g_(g),
      outputs_(outputs),
      out_(static_cast<std::size_t>(outputs + kGuard) * sizeof(float)),
      want_(static_cast<std::size_t>(outputs + kGuard) * sizeof(float)),
      records_(static_cast<std::size_t>(GpuSession::kCallBatch) * kRecordBytes) {
  RB_CUDA_CHECK(cudaMemsetAsync(want_.get(), 0xFF, want_.bytes(), g_.stream()));  // the guard: poison
  RB_CUDA_CHECK(cudaMemsetAsync(records_.get(), 0, records_.bytes() / 2, g_.stream()));
  RB_CUDA_CHECK(cudaMemsetAsync(records_.as<unsigned char>() + records_.bytes() / 2, 0xFF, records_.bytes() / 2,
                                g_.stream()));
}

void OutputsLog::poison() { RB_CUDA_CHECK(cudaMemsetAsync(out_.get(), 0xFF, out_.bytes(), g_.stream())); }

std::vector<float> OutputsLog::read() {
  std::vector<float> host(static_cast<std::size_t>(outputs_));
  RB_CUDA_CHECK(cudaMemcpyAsync(host.data(), out_.get(), host.size() * sizeof(float), cudaMemcpyDeviceToHost,
                                g_.stream()));
  RB_CUDA_CHECK(cudaStreamSynchronize(g_.stream()));
  return host;
}

bool OutputsLog::poisoned() {
  const std::int64_t head = std::min<std::int64_t>(outputs_, 1024);
  const std::int64_t tail = std::min<std::int64_t>(outputs_ - head, 1024) + kGuard;
  std::vector<std::uint32_t> bits(static_cast<std::size_t>(head + tail));
  RB_CUDA_CHECK(cudaMemcpy(bits.data(), out_.get(), static_cast<std::size_t>(head) * 4, cudaMemcpyDeviceToHost));
  RB_CUDA_CHECK(cudaMemcpy(bits.data() + head, data() + outputs_ + kGuard - tail, static_cast<std::size_t>(tail) * 4,
                           cudaMemcpyDeviceToHost));
  return std::all_of(bits.begin(), bits.end(), [](std::uint32_t b) { return b == 0xFFFFFFFFu; });
}

void OutputsLog::expect(std::span<const float> want) {
  RB_CUDA_CHECK(cudaMemcpyAsync(want_.get(), want.data(), want.size_bytes(), cudaMemcpyHostToDevice, g_.stream()));
  RB_CUDA_CHECK(cudaStreamSynchronize(g_.stream()));
  checking_ = true;
}

void OutputsLog::after_call() {
  if (!checking_) return;
  if (pending_ == GpuSession::kCallBatch) drain();
  auto* wrong = records_.as<unsigned long long>();
  enqueue_compare(g_.stream(), data(), want_.as<float>(), outputs_ + kGuard, wrong + pending_,
                  wrong + GpuSession::kCallBatch + pending_);
  ++pending_;
}

void OutputsLog::drain() {
  if (pending_ == 0) return;
  std::vector<unsigned long long> host(static_cast<std::size_t>(2 * GpuSession::kCallBatch));
  RB_CUDA_CHECK(cudaMemcpyAsync(host.data(), records_.get(), records_.bytes(), cudaMemcpyDeviceToHost, g_.stream()));
  RB_CUDA_CHECK(cudaMemsetAsync(records_.get(), 0, records_.bytes() / 2, g_.stream()));
  RB_CUDA_CHECK(cudaMemsetAsync(records_.as<unsigned char>() + records_.bytes() / 2, 0xFF, records_.bytes() / 2,
                                g_.stream()));
  RB_CUDA_CHECK(cudaStreamSynchronize(g_.stream()));
  for (std::int64_t i = 0; i < pending_; ++i) {
    const auto first = host[static_cast<std::size_t>(GpuSession::kCallBatch + i)];
    calls_.push_back({static_cast<std::int64_t>(host[static_cast<std::size_t>(i)]),
                      first == ~0ull ? -1 : static_cast<std::int64_t>(first)});
  }
  pending_ = 0;
}

std::vector<CallMismatch> OutputsLog::take() {
  drain();
  return std::move(calls_);
}

}  // namespace rb::bench::gpu
