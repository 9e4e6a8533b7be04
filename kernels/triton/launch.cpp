#include "kernels/triton/launch.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "common/cuda_check.hpp"

namespace rb::triton {
namespace {

// The counter sits alone in the first 256 bytes of scratch, the partials after it.
constexpr std::size_t kPartialsOffset = 256;

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// onepass_kernel's open element types (sum.py's TYPES) for an Element, and its accumulator's size.
// f32 names none: the signature's own fp32 defaults, so the f32 kernel is cached under the key
// compile() always gave it.
struct OnepassTypes {
  ElementTypes types;
  std::size_t acc_bytes;
};

OnepassTypes onepass_types(Element e) {
  const auto of = [](const char* x, const char* acc, const char* out, std::size_t bytes) {
    return OnepassTypes{{{"x", x}, {"acc", acc}, {"out", out}}, bytes};
  };
  switch (e.dtype) {
    case Dtype::f32: return {{}, sizeof(float)};
    case Dtype::f64: return of("fp64", "fp64", "fp64", 8);
    case Dtype::f16: return e.widen ? of("fp16", "fp32", "fp32", 4) : of("fp16", "fp16", "fp32", 2);
    case Dtype::bf16: return e.widen ? of("bf16", "fp32", "fp32", 4) : of("bf16", "bf16", "fp32", 2);
    case Dtype::i32:
      if (!e.widen) throw std::invalid_argument("triton onepass: i32 is added in int64 only (int32 would wrap)");
      return of("i32", "i64", "i64", 8);
  }
  throw std::invalid_argument("triton onepass: unknown element type");
}

// Triton's name for an element type SumDim reads.
const char* triton_type(Dtype d) {
  switch (d) {
    case Dtype::f32: return "fp32";
    case Dtype::f16: return "fp16";
    case Dtype::bf16: return "bf16";
    default: throw std::invalid_argument("triton sum_dim: f32, f16 or bf16 input only");
  }
}

int pow2_at_least(std::int64_t n, int cap) {
  int p = 1;
  while (p < cap && p < n) p *= 2;
  return p;
}

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

Onepass::Onepass(const void* in, std::int64_t n, Element element, OnepassShape shape)
    : n_(n),
      programs_(std::clamp<std::int64_t>(
          (n + shape.block - 1) / shape.block, 1,
          std::min<std::int64_t>(kMaxPrograms, std::int64_t{sm_count()} * shape.progs_per_sm))),
      partial_bytes_(onepass_types(element).acc_bytes),
      kernel_(&compile("onepass_kernel", {{"BLOCK", shape.block}, {"MAX_PROGS", kMaxPrograms}}, shape.warps,
                       aligned16(in), onepass_types(element).types)) {}

std::size_t Onepass::scratch_bytes() const noexcept {
  return kPartialsOffset + static_cast<std::size_t>(programs_) * partial_bytes_;
}

void Onepass::prepare(void* scratch, cudaStream_t stream) const {
  RB_CUDA_CHECK(cudaMemsetAsync(scratch, 0, sizeof(std::int32_t), stream));
  RB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void Onepass::sum(const void* in, void* scratch, void* out, cudaStream_t stream) const {
  auto* counter = static_cast<std::int32_t*>(scratch);
  void* partials = static_cast<char*>(scratch) + kPartialsOffset;
  std::int64_t n = n_;
  launch(*kernel_, static_cast<unsigned>(programs_), {&in, &partials, &counter, &out, &n}, stream);
}

SumDim::SumDim(const void* in, Dtype dtype, std::int64_t rows, std::int64_t cols, bool along_rows, const float* out)
    : rows_(rows), cols_(cols) {
  if (rows < 0 || cols < 0) throw std::invalid_argument("triton sum_dim: a negative dimension");
  block_n_ = pow2_at_least(cols, along_rows ? kSumDimTile : kSumDimMaxColsBlockN);
  block_r_ = kSumDimTile / block_n_;
  const std::int64_t per_program = along_rows ? block_r_ : block_n_;
  programs_ = ((along_rows ? rows : cols) + per_program - 1) / per_program;
  if (programs_ > 0x7fffffff) throw std::invalid_argument("triton sum_dim: more programs than a grid holds");
  const bool aligned = aligned16(in) && aligned16(out) && cols % 16 == 0;
  const char* type = triton_type(dtype);
  kernel_ = &compile(along_rows ? "rows_kernel" : "cols_kernel", {{"BLOCK_R", block_r_}, {"BLOCK_N", block_n_}},
                     kSumDimWarps, aligned, dtype == Dtype::f32 ? ElementTypes{} : ElementTypes{{"x", type}});
}

void SumDim::sum(const void* in, float* out, cudaStream_t stream) const {
  if (programs_ == 0) return;  // no outputs
  std::int64_t b = rows_, n = cols_;
  launch(*kernel_, static_cast<unsigned>(programs_), {&in, &out, &b, &n}, stream);
}

}  // namespace rb::triton
