#include "bench/gpu/session.hpp"

#include <algorithm>
#include <cstdlib>

#include "bench/gpu/harness_kernels.cuh"

namespace rb::bench::gpu {

std::uint64_t spin_ns(const Options& options, bool after_flush) {
  if (options.spin_us >= 0) return static_cast<std::uint64_t>(options.spin_us * 1000);
  return after_flush ? kSpinAfterFlushNs : kSpinNs;
}

namespace {

cudaStream_t make_stream(int ordinal) {
  RB_CUDA_CHECK(cudaSetDevice(ordinal));
  cudaStream_t s = nullptr;
  RB_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  return s;
}

}  // namespace

GpuSession::GpuSession(Session& session, DeviceInfo info)
    : session_(session),
      info_(std::move(info)),
      stream_(make_stream(info_.ordinal)),
      cold_(info_.sm_count, info_.l2_bytes, stream_, true, cold_flush_plan(session.options())),
      spin_ns_(gpu::spin_ns(session.options())),
      spin_after_flush_ns_(gpu::spin_ns(session.options(), true)) {
  RB_CUDA_CHECK(cudaEventCreate(&start_));
  RB_CUDA_CHECK(cudaEventCreate(&stop_));
  slot_ = DeviceBuffer(ResultSlot::kBytes);
  calls_ = DeviceBuffer(static_cast<std::size_t>(kCallBatch) * ResultSlot::kBytes);
  RB_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

GpuSession::~GpuSession() {
  (void)cudaStreamSynchronize(stream_);
  (void)cudaEventDestroy(start_);
  (void)cudaEventDestroy(stop_);
  (void)cudaStreamDestroy(stream_);
}

const float* GpuSession::input(std::int64_t n) {
  session_.input().require(n);
  if (capacity_ < 0) plan_input();
  if (n > capacity_)
    throw Skip("n = " + std::to_string(n) + " needs " + format_bytes(4.0 * static_cast<double>(n)) + " " + limit_);
  restore();
  return input_.as<const float>() + session_.options().offset;
}

const void* GpuSession::typed_input(Dtype d, std::int64_t n) {
  const float* x = input(n);  // plans and restores the float buffer, or throws Skip
  if (d == Dtype::f32) return x;
  if (!typed_.contains(d)) {
    const std::int64_t elements = session_.options().offset + capacity_ + kPadFloats;
    const auto bytes = static_cast<std::size_t>(elements * dtype_bytes(d));
    try {
      typed_.emplace(d, TypedInput{DeviceBuffer(bytes), 0});
    } catch (const std::exception& e) {
      throw Skip("no device memory for the input stored as " + std::string(dtype_name(d)) + " (" +
                 format_bytes(static_cast<double>(bytes)) + "): " + e.what());
    }
    enqueue_store(stream_, d, input_.as<float>(), typed_.at(d).buffer.get(), elements);
    RB_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  return typed_start(d);
}

void GpuSession::fill_exact(std::int64_t n, int set, Dtype d, ExactData data) {
  const ExactFill want{n, set, d, data};
  if (dirty_ > 0 && filled_ == want) return;
  if (d != Dtype::f32) (void)typed_input(d, n);  // sized before the float buffer is overwritten
  if (capacity_ < 0 || n > capacity_) (void)input(n);  // plans the buffer, or throws Skip; no restore
  float* x = input_.as<float>() + session_.options().offset;
  dirty_ = std::max(dirty_, n + kPadFloats);
  filled_ = want;
  if (data == ExactData::sparse) {
    enqueue_fill(stream_, x, n, 0.0f);
    enqueue_scatter(stream_, x, sparse_set(session_.input().exact_seed(set), n));
  } else {
    enqueue_generate(stream_, x, n, Dist::integers, session_.input().exact_seed(set));
  }
  enqueue_fill(stream_, x + n, kPadFloats, kPoison);
  if (d == Dtype::f32) return;
  enqueue_store(stream_, d, x, typed_start(d), n + kPadFloats);
  typed_.at(d).dirty = std::max(typed_.at(d).dirty, n + kPadFloats);
}

void GpuSession::restore() {
  if (dirty_ == 0) return;
  float* x = input_.as<float>() + session_.options().offset;
  const std::int64_t dirty = dirty_, input_end = std::min(dirty, capacity_);
  dirty_ = 0;
  filled_ = {};
  if (session_.input().synthetic()) {
    enqueue_generate(stream_, x, input_end, session_.options().dist, session_.options().seed);
  } else if (input_end > 0) {
    const std::size_t bytes = static_cast<std::size_t>(input_end) * sizeof(float);
    RB_CUDA_CHECK(cudaMemcpyAsync(x, session_.input().host_data(input_end), bytes, cudaMemcpyHostToDevice, stream_));
  }
  enqueue_fill(stream_, x + input_end, dirty - input_end, 0.0f);  // the padding past the largest n
  for (auto& [d, t] : typed_) {
    enqueue_store(stream_, d, x, typed_start(d), t.dirty);
    t.dirty = 0;
  }
  RB_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

void GpuSession::plan_input() {
  std::size_t free_bytes = 0, total_bytes = 0;
  RB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const int offset = session_.options().offset;
  const std::int64_t room = (static_cast<std::int64_t>(free_bytes) - kDeviceReserve) / 4 - offset - kPadFloats;
  std::int64_t want = 0;
  capacity_ = 0;
  for (const auto s : session_.input().selected_sizes()) {
    if (!session_.input().holds(s)) continue;
    want = std::max(want, s);
    if (s <= room) capacity_ = std::max(capacity_, s);
  }
  if (capacity_ < want) {
    limit_ = "of device memory for the input; " + format_bytes(static_cast<double>(free_bytes)) + " free of " +
             format_bytes(static_cast<double>(total_bytes));
  }
  input_ = DeviceBuffer(static_cast<std::size_t>(capacity_ + offset + kPadFloats) * sizeof(float));
  float* x = input_.as<float>() + offset;
  if (session_.input().synthetic()) {
    enqueue_generate(stream_, x, capacity_, session_.options().dist, session_.options().seed);
  } else if (capacity_ > 0) {
    RB_CUDA_CHECK(cudaMemcpyAsync(x, session_.input().host_data(capacity_),
                                  static_cast<std::size_t>(capacity_) * sizeof(float),
                                  cudaMemcpyHostToDevice, stream_));
  }
  enqueue_fill(stream_, x + capacity_, kPadFloats, 0.0f);
  RB_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

void GpuSession::enqueue_flush() { cold_.enqueue(stream_); }

void GpuSession::enqueue_spin(bool after_flush) {
  // 997 is coprime with 2000: consecutive spins cover the dither range evenly.
  const std::uint64_t ns = (after_flush ? spin_after_flush_ns_ : spin_ns_) + (spins_++ * 997) % kSpinDitherNs;
  const double cycles_per_ns = info_.sm_clock_khz * 1e-6;  // at the maximum clock: longer if lower
  gpu::enqueue_spin(stream_, static_cast<long long>(static_cast<double>(ns) * cycles_per_ns));
}

void GpuSession::record_start() { RB_CUDA_CHECK(cudaEventRecord(start_, stream_)); }

void GpuSession::record_stop() { RB_CUDA_CHECK(cudaEventRecord(stop_, stream_)); }

double GpuSession::elapsed_seconds() {
  RB_CUDA_CHECK(cudaEventSynchronize(stop_));
  float ms = 0;
  RB_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  return ms * 1e-3;
}

}  // namespace rb::bench::gpu
