#pragma once
// Launch shapes of the Triton kernels. Numbers come from the tune/triton_* sweep on the H200
// (reduce_bench built with -DRB_TUNING_BACKENDS=ON; results/h200/ has the JSON).
namespace rb::triton {

struct TwoPassShape {
  int block;  // elements per program (a power of two)
  int warps;
};

struct OnepassShape {
  int block;         // elements per program per loop step (a power of two)
  int warps;
  int progs_per_sm;  // persistent programs per SM at large n
};

// Largest persistent grid the completion step reduces in one tl.arange (MAX_PROGS in sum.py).
inline constexpr int kMaxPrograms = 4096;

// Starting points until measured: 4096 floats over 8 warps = 16 floats (four 16-byte loads) per
// thread per step, the load depth FIELD-NOTES found needed on HBM3e.
inline constexpr TwoPassShape kTwoPassShape{4096, 8};
inline constexpr OnepassShape kOnepassShape{4096, 8, 4};

}  // namespace rb::triton
