#pragma once
// How a backend adds its n floats, stated by its adapter, and the accuracy bound that follows.
//
// Every float an element meets on its way to the result is one rounding: d additions give at
// most gamma(d) = d u / (1 - d u) relative error per element (Higham, "Accuracy and Stability of
// Numerical Algorithms", 2nd ed., sec. 4.2), so
//
//   |sum - ref| <= gamma(chain + tree) * sum|x|                          additions in acc
//                + gamma(f64_adds, u64) * sum|x| * 2                     partials combined in double
//                + 2 u64 sum|x|                                          the reference's own rounding
//                (+ u32 |ref| when the result is returned as a float)
//
// where `chain` is the longest run of additions into one accumulator (a thread's grid-stride or
// blocked loop: about n / P for P independent accumulators, not log2 n) and `tree` the additions
// after it on any element's path (lane, warp and block trees, the completion). A compensated
// (Kahan) accumulator has |E| <= (2u + O(chain u^2)) sum|x| instead; its trees count as plain
// float levels. When d u >= 1 no such bound exists, and one of sum|x| or more (d u >= 1/2) would
// pass 0.0. A bound above kMaxRelativeBound sum|x| passes results that are wrong in the second
// digit, which is no check either: in all three cases the row's accuracy is reported as without a
// bound, never as verified (a float chain of about 2^17 elements or more), and the exact check
// alone judges it.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace rb::bench {

enum class Accumulator {
  f32,              // float additions
  f32_compensated,  // Kahan-compensated float additions
  f64,              // double additions (inputs converted exactly)
  binned,           // reproducible binned accumulation (CUB's RFA): exact within bins, but an
                    // addend far below the largest |x| is lost; see accuracy_bound
  i64,              // 64-bit integer additions (i32 input): exact; the result is read as a double
  f16,              // half additions (a library's own accumulator for f16 input): u = 2^-11, largest
                    // finite 65504; a bound exists only for the shortest chains
  bf16,             // bfloat16 additions: u = 2^-8, the range of float
  none,             // computes no sum (ref/launch): timed, never verified
};

struct Structure {
  Accumulator acc = Accumulator::f32;
  std::int64_t chain = 0;     // additions along the longest sequential chain, in acc
  std::int64_t tree = 0;      // further additions on any element's path, in acc
  std::int64_t f64_adds = 0;  // additions in double after that (a runtime's partials)
  bool float_result = true;   // the sum is rounded to float once at the end
  // binned only: the loss per element relative to the largest |x|, 2^(W (1 - K)) for K folds of
  // W bits (Demmel and Nguyen, "Parallel Reproducible Summation", IEEE TC 2015, thm. 1).
  double binned_loss = 0;
  // A result rounded once more to a 16-bit type (torch.sum of a bf16 tensor returns bf16): that
  // type's unit roundoff, adding result_u (|ref| + bound) to the bound; 0 for none.
  double result_u = 0;
};

// The unit roundoff of an accumulator (0 for binned, i64 and none).
double unit_roundoff(Accumulator acc);
// The largest finite value of a 16-bit accumulator (infinity for the others): a sum|x| beyond it
// may overflow a partial sum, and an infinite result is then what that accumulator gives.
double largest_finite(Accumulator acc);
// A 16-bit accumulator: its exact check uses data whose partial sums stay exact in it (verify.hpp).
constexpr bool is_16bit(Accumulator acc) { return acc == Accumulator::f16 || acc == Accumulator::bf16; }
// The largest finite result: a 16-bit accumulator's or a 16-bit result's (result_u), else infinity.
double largest_result(const Structure& s);

// What an adapter states for each n it may be asked to sum.
using Summation = std::function<Structure(std::int64_t n)>;

inline constexpr double kU32 = 0x1p-24;
// The largest stated bound, relative to sum|x|, that counts as a bound (see the top of this file).
inline constexpr double kMaxRelativeBound = 0.01;
inline constexpr double kU64 = 0x1p-53;

// The absolute bound for a reference with this sum and sum|x|; empty when none exists, when it
// would be above kMaxRelativeBound sum|x|, or when the backend computes no sum. A binned accumulator's bound is
// n max|x| binned_loss + 7 u32 |sum| (the theorem cited above), plus the reference's own
// rounding; it needs n_max_abs = n max|x| (empty without it).
std::optional<double> accuracy_bound(const Structure& s, double ref_sum, double ref_sum_abs, double n_max_abs = 0);

// One line for --list_backends and the docs: "f32, chain 8193 + tree 17".
std::string describe(const Structure& s);

// ceil(log2(k)) for k >= 1: the depth of a balanced tree over k values.
int tree_depth(std::int64_t k);

// `lanes` independent accumulators, each taking every lanes-th element (a SIMD kernel, unrolled
// scalar code), then a tree over the lanes; `tail` extra additions for the remainder loop.
Summation lanes(Accumulator acc, int lanes, int tail = 0);

// A runtime that cuts [0, n) into parts(n) chunks, sums each with `inner` and adds the partials in
// double: inner's structure at the longest chunk, plus the double additions.
Summation over_chunks(Summation inner, std::function<int(std::int64_t)> parts,
                      std::int64_t chunk_align = 1);

// `threads` accumulators of a GPU kernel, each adding one value per `per_add` floats it loads
// (1 for scalar loads, 4 for float4s added as a lane pair first), then `tree` more levels.
Structure blocked(Accumulator acc, std::int64_t n, std::int64_t threads, int per_add, std::int64_t tree,
                  bool float_result = true);

}  // namespace rb::bench
