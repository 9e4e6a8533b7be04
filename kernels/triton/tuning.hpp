#pragma once
// Launch shapes of the Triton kernels, chosen from the tune/triton_* sweep on the H200
// (reduce_bench built with -DRB_TUNING_BACKENDS=ON: bench/backends/triton_tuning.cpp).
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

// From the tune/triton_* sweep on the H200 (cold, median µs; results/h200/tuning.md#shapes-grid).
// two_pass, by BLOCK_w<warps>:      2^10  2^20  2^22   2^24   2^26    2^28    2^30
//   b4096_w8 (first guess)          6.03  8.01 10.04  22.31  70.82  265.67 1038.42
//   b8192_w16 (chosen)              6.05  8.15 10.11  21.76  67.28  250.73  978.29
//   b2048_w4                          -   7.06 11.14  24.34    -       -       -
// Bigger tiles halve the partials and the second pass's work; from 2^24 on b8192_w16 leads by
// 3-6%, and nothing is more than ~1 µs better below.
// onepass, BLOCK_w<warps>_p<programs per SM>: the first guess b4096_w8_p4 was within 0.1 µs of
// the best row at every n up to 2^24 and within 0.4% above (b8192_w16_p2: 235.76 vs 235.76 at
// 2^28, 922.7 vs 926.4 at 2^30): kept. 4096 floats over 8 warps is 16 floats (four 16-byte
// loads) per thread per step, the depth at which cuda/vec4_ilp4 overtakes vec4 from 2^22 (same file).
inline constexpr TwoPassShape kTwoPassShape{8192, 16};

// triton/sum_dim (rows_kernel, cols_kernel): a tile of kSumDimTile elements per program step over
// kSumDimWarps warps (onepass's 4096 over 8: four 16-byte loads a thread), BLOCK_N the row's
// length rounded up to a power of two, capped (rows: the whole tile; columns: 256 floats, 1 KiB of
// a row per step), and BLOCK_R the rest of the tile: how a Triton user sizes a row reduction.
// Not swept: a peer as written, not a kernel of ours.
inline constexpr int kSumDimTile = 4096;
inline constexpr int kSumDimWarps = 8;
inline constexpr int kSumDimMaxColsBlockN = 256;
inline constexpr OnepassShape kOnepassShape{4096, 8, 4};

}  // namespace rb::triton
