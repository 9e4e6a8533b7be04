#pragma once
// The kernel behind ref/cpu_read: the plainest loop that reads at the memory's speed and still
// returns the sum, so that the bandwidth ceiling is verified like every other row.
//   What it is:   64 independent float lanes in a plain array, no intrinsics; the compiler
//                 vectorizes it lane-wise (no reassociation needed), once per ISA (AVX-512F,
//                 AVX2, baseline SSE2); the widest this CPU has is picked on the first call.
//   Why a ceiling: 64 lanes = 4 to 16 independent vector adds in flight whatever the ISA, far
//                 more than a core's share of DRAM bandwidth needs; run on the thread pool
//                 (threads.hpp) it measures what the memory system delivers, not the kernel.
//   Cost:         64 float chains of n/64 elements.
//
// The same loop over the other element types (ref/cpu_read@<type>), each element widened exactly
// before it meets its lane:
//   read_f64in   64 double lanes
//   read_f16     64 float lanes; plain C++ widens the f16 bits branch-free, AVX-512F and F16C by
//                vcvtph2ps
//   read_bf16    64 float lanes; bf16 is the high half of a float: in each 32-bit word, a shift
//                up makes the even element a float and clearing the low half the odd one, so
//                the vector versions need no widening shuffle (fewer instructions per element
//                than the bf16 kernels it bounds)
//   read_i32     64 int64 lanes: exact for any n < 2^32
// These four spell the loop with AVX-512F and AVX2 intrinsics (read_typed.cpp: the plain loop's
// lanes and bits whatever the compiler makes of it), the plain loop as the baseline.
// Every lane is a chain of at most ceil(n/64) additions (the tail adds one to the first n % 64
// lanes), then a fixed tree of 6 levels: the same bits for the same n on every call and ISA.
#include "kernels/cpu/sum_declarations.hpp"

namespace rb::cpu {

RB_CPU_DECLARE_SUMS(read);

}  // namespace rb::cpu
