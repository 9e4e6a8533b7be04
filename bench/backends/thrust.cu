// Thrust as users call it, and what each of its per-call overheads costs.
//
//   thrust/reduce            thrust::reduce(thrust::cuda::par.on(stream), first, last, 0.0f),
//                            exactly as written in user code. Per call (CCCL 3.0.1) it allocates
//                            temporary storage (cudaMalloc), runs CUB's two kernels, copies the
//                            result to the host and synchronizes, then frees (cudaFree). All of it
//                            is timed: it is what a user pays.
//   thrust/reduce_cached     the same call with a caching allocator passed through the execution
//                            policy: no cudaMalloc/cudaFree per call. Still synchronizes and copies.
//
// Other element types (--dtype) pass an init of the type that should accumulate, as a user must:
// 0.0f for f16 and bf16 (Thrust adds in the init's type: float), 0.0 for f64, 0LL for i32 (an int
// init would add in int32 and wrap).
//
// These calls block until the sum is on the host, so they report blocking(): the runner lets the
// GPU go idle before the start event (no spin, and a cold flush finished), so the events bracket
// the host-side work too, in both modes, and host_us reports the call's wall time.
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>

#include <cstddef>
#include <vector>

#include "bench/backends/cub_structure.hpp"
#include "kernels/cuda/elements.cuh"

namespace rb::bench::gpu {
namespace {

// Thrust's allocator protocol (value_type char, allocate/deallocate). Freed blocks are kept and
// handed out again for requests that fit; the warm-up call populates it, so the timed calls make
// no cudaMalloc. Everything is released when the backend is destroyed, outside the timed region.
class CachingAllocator {
 public:
  using value_type = char;

  CachingAllocator() = default;
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  char* allocate(std::ptrdiff_t bytes) {
    for (auto& b : blocks_) {
      if (!b.in_use && b.buffer.bytes() >= static_cast<std::size_t>(bytes)) {
        b.in_use = true;
        return b.buffer.as<char>();
      }
    }
    blocks_.push_back({DeviceBuffer(static_cast<std::size_t>(bytes)), true});
    return blocks_.back().buffer.as<char>();
  }

  void deallocate(char* p, std::size_t) {
    for (auto& b : blocks_) {
      if (b.buffer.as<char>() == p) b.in_use = false;
    }
  }

 private:
  struct Block {
    DeviceBuffer buffer;
    bool in_use;
  };
  std::vector<Block> blocks_;
};

enum class Call { reduce, reduce_cached };

// T: the storage type summed; Acc: the init's type, which Thrust accumulates in.
template <Call kCall, class T = float, class Acc = float>
class ThrustSum final : public GpuBackend {
  using In = rb::cuda::DeviceType<T>;

 public:
  explicit ThrustSum(const GpuProblemOf<T>& p)
      : in_(reinterpret_cast<const In*>(p.input)), n_(p.n), sm_count_(p.sm_count) {}

  void enqueue(cudaStream_t s) override {
    if constexpr (kCall == Call::reduce) {
      sum_ = thrust::reduce(thrust::cuda::par.on(s), in_, in_ + n_, Acc{0});
    } else {
      sum_ = thrust::reduce(thrust::cuda::par(alloc_).on(s), in_, in_ + n_, Acc{0});
    }
  }
  double result() override { return static_cast<double>(sum_); }
  Structure structure() const override { return cub_reduce_structure(n_, sm_count_, accumulator_for<Acc>()); }
  bool blocking() const override { return true; }

 private:
  const In* in_;
  std::int64_t n_;
  int sm_count_;
  CachingAllocator alloc_;
  Acc sum_ = 0;
};

template <class T, class Acc>
std::vector<BackendDef<T>> thrust_rows() {
  return {gpu_backend<ThrustSum<Call::reduce, T, Acc>, T>("thrust/reduce"),
          gpu_backend<ThrustSum<Call::reduce_cached, T, Acc>, T>("thrust/reduce_cached")};
}

}  // namespace

RB_REGISTER_BACKEND((thrust_rows<float, float>()));
RB_REGISTER_BACKEND((thrust_rows<double, double>()));
RB_REGISTER_BACKEND((thrust_rows<rb::f16, float>()));
RB_REGISTER_BACKEND((thrust_rows<rb::bf16, float>()));
RB_REGISTER_BACKEND((thrust_rows<std::int32_t, long long>()));

}  // namespace rb::bench::gpu
