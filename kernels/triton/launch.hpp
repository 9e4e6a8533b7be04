#pragma once
// Host launchers for the Triton kernels of sum.py, shaped like the CUDA kernels' entry points:
// the constructor compiles (through runtime.hpp, once per shape, untimed) and sizes the launch;
// sum() only launches. Shapes are chosen by a measured sweep (tuning.hpp).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

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

// One launch: persistent programs, partials, last-program-done completion (sum.py).
class Onepass {
 public:
  Onepass(const float* in, std::int64_t n, OnepassShape shape = kOnepassShape);
  std::size_t scratch_bytes() const noexcept;
  // Zeroes the ticket counter (untimed, synchronizes); the kernel resets it after every launch.
  void prepare(void* scratch, cudaStream_t stream) const;
  void sum(const float* in, void* scratch, float* out, cudaStream_t stream) const;
  std::int64_t programs() const noexcept { return programs_; }

 private:
  std::int64_t n_, programs_;
  const Kernel* kernel_;
};

}  // namespace rb::triton
