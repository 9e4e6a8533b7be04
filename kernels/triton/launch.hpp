#pragma once
// Host launchers for the Triton kernels of sum.py, shaped like the CUDA kernels' entry points:
// the constructor compiles (through runtime.hpp, once per shape, untimed) and sizes the launch;
// sum() only launches. Shapes are chosen by a measured sweep (tuning.hpp).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/dtype.hpp"
#include "kernels/triton/runtime.hpp"
#include "kernels/triton/tuning.hpp"

namespace rb::triton {

// The classic two-launch design: partials_kernel (one program per tile) then finish_kernel (one program).
class TwoPass {
 public:
  TwoPass(const float* in, std::int64_t n, TwoPassShape shape = kTwoPassShape);
  std::size_t scratch_bytes() const noexcept {
    return static_cast<std::size_t>(tiles_ > 0 ? tiles_ : 1) * sizeof(float);
  }
  void sum(const float* in, void* scratch, float* out, cudaStream_t stream) const;

 private:
  std::int64_t n_, tiles_;
  const Kernel* partials_;
  const Kernel* finish_;
};

// What onepass_kernel reads and what it adds in. widen: each value is converted exactly before it
// is added (f16 and bf16 to float, i32 to int64; f32 and f64 add in their own type); otherwise an
// f16 or bf16 input is added in its own 16-bit type, as a kernel that adds 16-bit loads into a
// 16-bit tensor does (an int32 accumulator would wrap: i32 is only widened).
struct Element {
  Dtype dtype = Dtype::f32;
  bool widen = true;
};

// One launch: persistent programs, partials, last-program-done completion (sum.py). The sum is
// written to `out` as a float for f32, f16 and bf16 input (a 16-bit accumulator's sum converts
// exactly), a double for f64 and an int64 for i32. One compiled kernel per shape and Element.
class Onepass {
 public:
  Onepass(const float* in, std::int64_t n, OnepassShape shape = kOnepassShape) : Onepass(in, n, Element{}, shape) {}
  // `in` points to n elements of element.dtype. Throws std::invalid_argument for i32 not widened.
  Onepass(const void* in, std::int64_t n, Element element, OnepassShape shape = kOnepassShape);
  std::size_t scratch_bytes() const noexcept;
  // Zeroes the ticket counter (untimed, synchronizes); the kernel resets it after every launch.
  void prepare(void* scratch, cudaStream_t stream) const;
  void sum(const void* in, void* scratch, void* out, cudaStream_t stream) const;
  std::int64_t programs() const noexcept { return programs_; }

 private:
  std::int64_t n_, programs_;
  std::size_t partial_bytes_;  // the accumulator's size: one partial per program
  const Kernel* kernel_;
};

// The sums along one dimension of a rows x cols row-major array (sum.py: rows_kernel, cols_kernel):
// each row's sum (along_rows) or each column's, one launch, float outputs, added in float. `in`
// holds f32, f16 or bf16 (std::invalid_argument otherwise). One compiled kernel per BLOCK_N and
// element type; the tile (tuning.hpp) is sized to the summed axis as a Triton user sizes it.
class SumDim {
 public:
  SumDim(const void* in, Dtype dtype, std::int64_t rows, std::int64_t cols, bool along_rows, const float* out);
  void sum(const void* in, float* out, cudaStream_t stream) const;
  int block_r() const noexcept { return block_r_; }  // rows per program step
  int block_n() const noexcept { return block_n_; }  // columns per program step
  int threads() const noexcept { return kSumDimWarps * 32; }
  std::int64_t programs() const noexcept { return programs_; }

 private:
  std::int64_t rows_, cols_, programs_;
  int block_r_, block_n_;
  const Kernel* kernel_;
};

}  // namespace rb::triton
