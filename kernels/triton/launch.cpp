#include "kernels/triton/launch.hpp"

#include <algorithm>
#include <cstdint>

#include "common/cuda_check.hpp"

namespace rb::triton {
namespace {

// The counter sits alone in the first 256 bytes of scratch, the partials after it.
constexpr std::size_t kPartialsOffset = 256;

bool aligned16(const float* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

int sm_count() {
  int device = 0, sms = 0;
  RB_CUDA_CHECK(cudaGetDevice(&device));
  RB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

}  // namespace

TwoPass::TwoPass(const float* in, std::int64_t n, TwoPassShape shape)
    : n_(n),
      tiles_((n + shape.block - 1) / shape.block),
      partials_(&compile("partials_kernel", {{"BLOCK", shape.block}}, shape.warps, aligned16(in))),
      finish_(&compile("finish_kernel", {{"BLOCK", 1024}}, 4, false)) {}

void TwoPass::sum(const float* in, void* scratch, float* out, cudaStream_t stream) const {
  auto* partials = static_cast<float*>(scratch);
  std::int64_t n = n_, tiles = tiles_;
  if (tiles > 0) launch(*partials_, static_cast<unsigned>(tiles), {&in, &partials, &n}, stream);
  launch(*finish_, 1, {&partials, &out, &tiles}, stream);  // tiles = 0 stores 0
}

Onepass::Onepass(const float* in, std::int64_t n, OnepassShape shape)
    : n_(n),
      programs_(std::clamp<std::int64_t>(
          (n + shape.block - 1) / shape.block, 1,
          std::min<std::int64_t>(kMaxPrograms, std::int64_t{sm_count()} * shape.progs_per_sm))),
      kernel_(&compile("onepass_kernel", {{"BLOCK", shape.block}, {"MAX_PROGS", kMaxPrograms}}, shape.warps,
                       aligned16(in))) {}

std::size_t Onepass::scratch_bytes() const noexcept {
  return kPartialsOffset + static_cast<std::size_t>(programs_) * sizeof(float);
}

void Onepass::prepare(void* scratch, cudaStream_t stream) const {
  RB_CUDA_CHECK(cudaMemsetAsync(scratch, 0, sizeof(std::int32_t), stream));
  RB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void Onepass::sum(const float* in, void* scratch, float* out, cudaStream_t stream) const {
  auto* counter = static_cast<std::int32_t*>(scratch);
  auto* partials = reinterpret_cast<float*>(static_cast<char*>(scratch) + kPartialsOffset);
  std::int64_t n = n_;
  launch(*kernel_, static_cast<unsigned>(programs_), {&in, &partials, &counter, &out, &n}, stream);
}

}  // namespace rb::triton
