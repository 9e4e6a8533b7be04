// cuda/mma@f16 and cuda/mma@bf16: the sum on the tensor cores (kernels/cuda/mma_sum.hpp), one
// mma.sync.m16n8k16 per 32 loads of 16 bytes, data times a matrix of ones into float accumulators,
// then float trees and onepass's one-launch completion. Unavailable on a device this build has no
// sm_80+ code for. Shaped like cuda_typed.cpp's OnepassTyped; the structure is the mma kernel's own.
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>

#include "bench/backends/cuda_kernel.hpp"
#include "bench/api/gpu_backend.hpp"
#include "common/dtype.hpp"
#include "kernels/cuda/mma_sum.hpp"

namespace rb::bench::gpu {
namespace {

template <class T>
class MmaSumBackend final : public GpuBackend {
  using Kernel = rb::cuda::MmaSum<T>;

 public:
  explicit MmaSumBackend(const GpuProblemOf<T>& p) : in_(p.input), n_(p.n), out_(p.out) {
    const std::size_t bytes = Kernel::scratch_bytes(n_);
    scratch_ = p.scratch.get(bytes);
    Kernel::prepare(scratch_, bytes, p.stream);
    RB_CUDA_CHECK(cudaStreamSynchronize(p.stream));
  }
  void enqueue(cudaStream_t stream) override { Kernel::sum(in_, n_, scratch_, out_.f32(), stream); }
  double result() override { return out_.read_f32(); }
  ResultIn result_in() const override { return ResultIn::slot_f32; }

  // The chain: every mma.sync into one C fragment, each counted as kRoundingsPerMma (48) float
  // additions, since the tensor core truncates after aligning to the largest term (mma_sum.hpp).
  // After it, in float: rows r and r + 8 of column 0, the fragments pairwise, block 0's edge
  // element, the block tree, and the completion as kernel_structure (cuda_kernel.hpp) states it.
  Structure structure() const override {
    const rb::cuda::MmaGeometry g = Kernel::geometry(n_);
    return {.acc = Accumulator::f32,
            .chain = rb::cuda::kRoundingsPerMma * g.mma_chain,
            .tree = 1 + tree_depth(g.accumulators) + 1 + tree_depth(g.launch.threads) + completion_depth(g.launch.grid),
            .float_result = true};
  }

 private:
  const T* in_;
  std::int64_t n_;
  ResultSlot out_;
  void* scratch_ = nullptr;
};

// Why this device cannot run it; nothing without a device (the row is unavailable for that already).
template <class T>
std::string mma_probe() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    (void)cudaGetLastError();
    return {};
  }
  return rb::cuda::MmaSum<T>::unavailable();
}

template <class T>
BackendDef<T> mma_row() {
  BackendDef<T> def = gpu_backend<MmaSumBackend<T>, T>("cuda/mma");
  def.probe = &mma_probe<T>;
  return def;
}

}  // namespace

RB_REGISTER_BACKEND(mma_row<rb::f16>());
RB_REGISTER_BACKEND(mma_row<rb::bf16>());

}  // namespace rb::bench::gpu
