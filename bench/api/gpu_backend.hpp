#pragma once
// The shape of a GPU backend adapter (see bench/backends/cub.cu for the smallest one):
//   - the constructor gets the problem and allocates what it needs from problem.scratch; it is
//     not timed, and it may synchronize;
//   - enqueue(stream) only launches work on `stream`: no synchronization, allocation, copy or
//     printing (the harness brackets it with events; whatever it does is what gets measured);
//   - result() returns the last call's sum (problem.out.read_f32/f64 does the copy); a backend
//     that writes its sum to problem.out says so with result_in(), and the harness then reads
//     every call's sum from there without calling result() each time;
//   - structure() states how it adds (bench/api/summation.hpp): its accuracy bound follows from it;
//   - a row that sums along a dimension (gpu_shaped_backend, BackendDef::shaped) writes each
//     call's shape.outputs() floats to problem.outputs instead, its structure() that of one output,
//     and its result() is not called.
// A failure throws (RB_CUDA_CHECK); the harness turns it into a skipped benchmark.
// Register it with one line at namespace scope in the adapter's own file (bench/api/registration.hpp):
//   RB_REGISTER_BACKEND(gpu_backend<MyAdapter>("cuda/my_kernel"));
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/api/definition.hpp"
#include "bench/api/determinism.hpp"
#include "bench/api/gpu_memory.hpp"
#include "bench/api/registration.hpp"
#include "bench/api/summation.hpp"
#include "common/dtype.hpp"
#include "common/shape.hpp"

namespace rb::bench::gpu {

// 16 bytes of device memory for the result. The harness fills it with NaN before every timed
// iteration, so a backend that stops writing its result fails verification.
class ResultSlot {
 public:
  ResultSlot(void* ptr, cudaStream_t stream) : ptr_(ptr), stream_(stream) {}
  float* f32() const noexcept { return static_cast<float*>(ptr_); }
  double* f64() const noexcept { return static_cast<double*>(ptr_); }
  long long* i64() const noexcept { return static_cast<long long*>(ptr_); }
  template <class Out>
  Out* as() const noexcept {
    return static_cast<Out*>(ptr_);
  }
  void poison() const { RB_CUDA_CHECK(cudaMemsetAsync(ptr_, 0xFF, kBytes, stream_)); }
  // Copy back on the harness's stream (a non-blocking stream: the legacy default stream would
  // not wait for it).
  double read_f32() const { return read<float>(); }
  double read_f64() const { return read<double>(); }
  double read_i64() const { return read<long long>(); }
  // T: float, double, long long, or the storage type rb::f16 / rb::bf16 of a 16-bit result.
  template <class T>
  double read() const {
    T v{};
    RB_CUDA_CHECK(cudaMemcpyAsync(&v, ptr_, sizeof v, cudaMemcpyDeviceToHost, stream_));
    RB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    if constexpr (std::is_same_v<T, rb::f16> || std::is_same_v<T, rb::bf16>) return rb::widen(v);
    else return static_cast<double>(v);
  }
  static constexpr std::size_t kBytes = 16;

 private:
  void* ptr_;
  cudaStream_t stream_;
};

template <class T>
struct GpuProblemOf {
  const T* input;          // device; prefix of the cached input buffer, 256-byte aligned unless --offset
  std::int64_t n;
  cudaStream_t stream;     // the harness's stream, the one the events are recorded on
  DeviceScratch& scratch;
  ResultSlot out;
  int sm_count;            // of the device: libraries' structures are stated per SM
  // A shaped row's (BackendDef::shaped): x[0, n) as shape.rows x shape.cols, and the device floats
  // where each call writes its shape.outputs() sums (poisoned before every call). The
  // one-dimensional rows get 1 x n and no outputs: their sum goes to `out`.
  Shape2D shape = {};
  float* outputs = nullptr;
};
using GpuProblem = GpuProblemOf<float>;

// Where a backend leaves each call's sum, for the per-call check (bench/detail/verify.hpp): in the result
// slot as a float, a double, a 64-bit integer or a 16-bit float (the harness copies it out on the
// device after the stop event, and reads the copies back in batches; the poison reads as NaN, or
// as -1 for an integer), or elsewhere (the harness calls result() after each call's stop event).
// Both are outside the timed region; the slot is the cheaper.
enum class ResultIn { slot_f32, slot_f64, slot_i64, slot_f16, slot_bf16, elsewhere };

// The slot and the accumulator of a backend that writes an Out (float, double, long long, or
// rb::f16 / rb::bf16 for a 16-bit accumulator) and adds in it.
template <class Out>
constexpr ResultIn slot_for() {
  if constexpr (std::is_same_v<Out, float>) return ResultIn::slot_f32;
  else if constexpr (std::is_same_v<Out, double>) return ResultIn::slot_f64;
  else if constexpr (std::is_same_v<Out, rb::f16>) return ResultIn::slot_f16;
  else if constexpr (std::is_same_v<Out, rb::bf16>) return ResultIn::slot_bf16;
  else return ResultIn::slot_i64;
}
template <class Out>
constexpr Accumulator accumulator_for() {
  if constexpr (std::is_same_v<Out, float>) return Accumulator::f32;
  else if constexpr (std::is_same_v<Out, double>) return Accumulator::f64;
  else if constexpr (std::is_same_v<Out, rb::f16>) return Accumulator::f16;
  else if constexpr (std::is_same_v<Out, rb::bf16>) return Accumulator::bf16;
  else return Accumulator::i64;
}

class GpuBackend {
 public:
  virtual ~GpuBackend() = default;
  virtual void enqueue(cudaStream_t stream) = 0;
  virtual double result() = 0;
  virtual Structure structure() const = 0;
  virtual ResultIn result_in() const { return ResultIn::elsewhere; }
  // True for calls that block until the result is on the host (thrust::reduce). The runner then
  // waits for the GPU to go idle before the start event instead of queueing a spin kernel: the
  // call's host-side work (allocation, launch latency, the copy and the sync) is part of what it
  // costs its user, and queued work (a spin, the cold flush) would hide it.
  virtual bool blocking() const { return false; }
};

// A backend this build or machine cannot run, listed with the reason and skipped.
inline BackendDef<float> unavailable_backend(std::string name, std::string why) {
  return {std::move(name), OnGpu<float>{}, std::move(why)};
}

// T: the element type the adapter sums (its constructor takes a GpuProblemOf<T>).
template <class Adapter, class T = float>
BackendDef<T> gpu_backend(std::string name, std::string unavailable = {}) {
  return {std::move(name), OnGpu<T>{[](const GpuProblemOf<T>& p) -> std::unique_ptr<GpuBackend> {
            return std::make_unique<Adapter>(p);
          }},
          std::move(unavailable)};
}

// A row that sums along a dimension (the --shapes cases), of an adapter writing problem.outputs.
template <class Adapter, class T = float>
BackendDef<T> gpu_shaped_backend(std::string name, std::string unavailable = {}) {
  BackendDef<T> def = gpu_backend<Adapter, T>(std::move(name), std::move(unavailable));
  def.shaped = true;
  return def;
}

}  // namespace rb::bench::gpu
